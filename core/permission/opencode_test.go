package permission

import (
	"path/filepath"
	"testing"
)

func TestLoadOpenCode(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	r := Load(OpenCode, env(home, proj, nil))
	if r.Unreadable {
		t.Fatalf("no config: unreadable %q", r.Warnings)
	}
	checkAll(t, r, map[string]Verdict{"cat /etc/passwd": Ask, "cat x": Ask, "git status": Default})
	// bash allowed outright (edit and webfetch do not matter): rules stay readable
	write(t, filepath.Join(proj, "opencode.json"), `{"permission":{"bash":"allow","edit":"allow","webfetch":"deny"}}`)
	if r := Load(OpenCode, env(home, proj, nil)); r.Unreadable {
		t.Errorf("bash allow: unreadable %q", r.Warnings)
	}
	write(t, filepath.Join(proj, "opencode.json"), `{"permission":{"bash":{"git push":"ask"}}}`)
	if r := Load(OpenCode, env(home, proj, nil)); !r.Unreadable || len(r.Warnings) != 1 {
		t.Errorf("permission rules: want unreadable and one warning, got %v %q", r.Unreadable, r.Warnings)
	}
}
