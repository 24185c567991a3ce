package gemini

import (
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

func TestGeminiMatch(t *testing.T) {
	if !match("git status", "git status -s") || match("git status", "git statusx") || !match("git", "git log") {
		t.Error("gemini prefix semantics")
	}
}

func TestLoadGemini(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	permissiontest.Write(t, filepath.Join(home, ".gemini", "settings.json"), `{
  // comments are fine
  "tools": {"allowed": ["run_shell_command(git status)", "read_file"], "exclude": ["run_shell_command(rm)"]},
  "security": {"folderTrust": {"enabled": true}},
}`)
	permissiontest.Write(t, filepath.Join(proj, ".gemini", "settings.json"), `{"tools":{"allowed":["run_shell_command"]}}`)
	// folder trust on, workspace not trusted: the project file is ignored,
	// and Gemini asks before any git command (gotk steps aside for it)
	r := Host.LoadRules(permissiontest.Env(home, proj, nil))
	for cmd, want := range map[string]permission.Verdict{"git status": permission.Deny, "git log": permission.Deny, "rm -rf x": permission.Deny, "ls": permission.Default, "cat x": permission.Default} {
		if got := r.Check(permissiontest.Seg(cmd)).Verdict; got != want {
			t.Errorf("gemini untrusted %q: %v, want %v", cmd, got, want)
		}
	}
	// trusted: the project's bare run_shell_command allows everything
	r = Host.LoadRules(permissiontest.Env(home, proj, map[string]string{"GEMINI_CLI_TRUST_WORKSPACE": "true"}))
	if got := r.Check(permissiontest.Seg("git log")).Verdict; got != permission.Allow {
		t.Errorf("gemini trusted: %v", got)
	}
}
