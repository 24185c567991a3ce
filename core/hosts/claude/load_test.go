package claude

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

func TestLoadClaude(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "work", "proj")
	// user settings with a BOM, comments and a trailing comma
	permissiontest.Write(t, filepath.Join(home, ".claude", "settings.json"), "\ufeff{\n // user\n \"permissions\": {\"allow\": [\"Bash(npm test)\", \"Read(*)\",], \"deny\": [\"Bash(git push --force:*)\"]}}")
	permissiontest.Write(t, filepath.Join(proj, ".claude", "settings.local.json"), `{"permissions":{"ask":["Bash(git push *)"]}}`)
	permissiontest.Write(t, filepath.Join(proj, "sub", "x"), "")
	permissiontest.Write(t, filepath.Join(home, "managed", "managed-settings.json"), `{"permissions":{"deny":["Bash(curl *)"]}}`)
	// an empty .claude/ nearer the working directory does not hide the
	// project's rules: Claude reads $CLAUDE_PROJECT_DIR
	permissiontest.Write(t, filepath.Join(proj, "sub", ".claude", "settings.json"), `{}`)
	r := Host.LoadRules(permissiontest.Env(home, filepath.Join(proj, "sub"), map[string]string{"CLAUDE_PROJECT_DIR": proj}))
	if len(r.Warnings) != 0 {
		t.Fatalf("warnings: %v", r.Warnings)
	}
	if len(r.Dirs) != 1 || r.Dirs[0] != proj {
		t.Errorf("Dirs = %q, want the project dir", r.Dirs)
	}
	check := func(cmd string, want permission.Verdict) {
		t.Helper()
		if got := r.Check(permissiontest.Seg(cmd)).Verdict; got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
	check("npm test", permission.Allow)
	check("git push origin", permission.Ask)
	check("git push --force origin", permission.Deny)
	check("curl -s x", permission.Deny)
	check("git status", permission.Default)
	check("npm test -- -u", permission.Default) // allow rules without a star are exact
	check("curl", permission.Deny)
	// an allow rule never matches a segment whose AllowForm is empty
	if got := r.Check(permission.Segment{Forms: []string{"npm test"}}).Verdict; got != permission.Default {
		t.Errorf("empty AllowForm: %v", got)
	}
	// deny wins over allow, checked on every form
	if got := r.Check(permission.Segment{Forms: []string{"timeout 5 curl x", "curl x"}, AllowForm: "curl x"}).Verdict; got != permission.Deny {
		t.Errorf("deny on a peeled form: %v", got)
	}
}

func TestClaudeConfigDir(t *testing.T) {
	home := t.TempDir()
	alt := filepath.Join(home, "alt")
	permissiontest.Write(t, filepath.Join(alt, "settings.json"), `{"permissions":{"allow":["Bash(make)"]}}`)
	permissiontest.Write(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions":{"allow":["Bash(ls)"]}}`)
	r := Host.LoadRules(permissiontest.Env(home, "", map[string]string{"CLAUDE_CONFIG_DIR": alt}))
	if r.Check(permissiontest.Seg("make")).Verdict != permission.Allow || r.Check(permissiontest.Seg("ls")).Verdict != permission.Default {
		t.Errorf("CLAUDE_CONFIG_DIR not honoured: %+v", r)
	}
}

func TestBrokenFileIsNoRules(t *testing.T) {
	home := t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions":{"allow":["Bash(*)"]`)
	r := Host.LoadRules(permissiontest.Env(home, "", nil))
	if r.Check(permissiontest.Seg("rm -rf /")).Verdict != permission.Default {
		t.Error("a broken file must never allow")
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "settings.json") {
		t.Errorf("want one warning naming the file, got %q", r.Warnings)
	}
}
