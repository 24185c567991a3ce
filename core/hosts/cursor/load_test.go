package cursor

import (
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

func TestCursorMatch(t *testing.T) {
	cases := []struct {
		pattern, cmd string
		want         bool
	}{
		{"git", "git status", true},
		{"git", "gitk", false},
		{"curl:*", "curl -s x", true},
		{"git:status*", "git status --short", true},
		{"git:status*", "git log", false},
		{"*", "rm -rf /", true},
		{"npm*", "npmx i", true},
	}
	for _, c := range cases {
		if got := match(c.pattern, c.cmd); got != c.want {
			t.Errorf("match(%q, %q) = %v, want %v", c.pattern, c.cmd, got, c.want)
		}
	}
}

func TestLoadCursor(t *testing.T) {
	home := t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".cursor", "cli-config.json"), `{"version":1,"permissions":{"allow":["Shell(git)","Shell(ls)"],"deny":["Shell(rm)"]}}`)
	proj := filepath.Join(home, "p")
	permissiontest.Write(t, filepath.Join(proj, ".cursor", "cli.json"), `{"permissions":{"allow":["Shell(curl)"],"deny":["Shell(git:push*)"]}}`)
	r := Host.LoadRules(permissiontest.Env(home, proj, nil))
	for cmd, want := range map[string]permission.Verdict{"git status": permission.Allow, "ls -la": permission.Allow, "rm x": permission.Deny, "curl x": permission.Default, "git push": permission.Deny} {
		if got := r.Check(permissiontest.Seg(cmd)).Verdict; got != want {
			t.Errorf("cursor %q: %v, want %v", cmd, got, want)
		}
	}
}
