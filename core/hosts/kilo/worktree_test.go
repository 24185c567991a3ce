package kilo

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// TestPrimaryWorktreeRules: in a linked worktree Kilo also loads the main
// checkout's .kilo folders (untracked there, so not in the worktree); a
// deny rule in them keeps gotk out as it would in the main checkout.
func TestPrimaryWorktreeRules(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	home := t.TempDir()
	main, wt := filepath.Join(home, "main"), filepath.Join(home, "wt")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	permissiontest.Write(t, filepath.Join(main, "sub", "README"), "x\n")
	git(main, "init", "-q")
	git(main, "add", ".")
	git(main, "commit", "-qm", "init")
	git(main, "worktree", "add", "-q", wt)
	vars := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "GOTK_KILO_AGENT": "code"}
	permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{"permission": {"bash": "allow"}}`)
	permissiontest.Write(t, filepath.Join(main, ".kilo", "kilo.json"), `{"permission": {"bash": {"git log*": "deny"}}}`)
	permissiontest.Write(t, filepath.Join(main, "sub", ".kilocode", "agents", "rev.md"), "---\npermission:\n  bash:\n    \"git diff*\": deny\n---\n")
	for _, dir := range []string{main, wt, filepath.Join(wt, "sub")} {
		r := Host.LoadRules(permissiontest.Env(home, dir, vars))
		if r.Unreadable {
			t.Fatalf("%s: unreadable: %v", dir, r.Warnings)
		}
		want := map[string]permission.Verdict{"git log -1": permission.Ask, "git status": permission.Default}
		if dir != main {
			want["git diff"] = map[bool]permission.Verdict{true: permission.Ask, false: permission.Default}[dir != wt]
		}
		for cmd, v := range want {
			if got := r.Check(permissiontest.Seg(cmd)).Verdict; got != v {
				t.Errorf("%s: %q: %v, want %v", dir, cmd, got, v)
			}
		}
	}

	// The folders, deepest first; none for a main checkout or a bare
	// repository's worktree; unsure for a git folder gotk cannot place.
	dirs, unsure := primaryDirs(filepath.Join(wt, "sub", "deeper"))
	want := []string{filepath.Join(main, "sub", "deeper", ".kilocode"), filepath.Join(main, "sub", "deeper", ".kilo"),
		filepath.Join(main, "sub", ".kilocode"), filepath.Join(main, "sub", ".kilo"), filepath.Join(main, ".kilocode"), filepath.Join(main, ".kilo")}
	if unsure || !reflect.DeepEqual(dirs, want) {
		t.Errorf("primaryDirs: %q (unsure %v), want %q", dirs, unsure, want)
	}
	if dirs, unsure := primaryDirs(main); dirs != nil || unsure {
		t.Errorf("main checkout: %q %v", dirs, unsure)
	}
	bare, bwt := filepath.Join(home, "bare.git"), filepath.Join(home, "bwt")
	git(home, "clone", "-q", "--bare", main, bare)
	git(bare, "worktree", "add", "-q", bwt)
	if dirs, unsure := primaryDirs(bwt); dirs != nil || unsure {
		t.Errorf("bare repository's worktree: %q %v", dirs, unsure)
	}
	sep := filepath.Join(home, "sep")
	permissiontest.Write(t, filepath.Join(sep, ".git"), "gitdir: ../elsewhere/wt\n")
	permissiontest.Write(t, filepath.Join(home, "elsewhere", "wt", "commondir"), "../repo\n")
	os.MkdirAll(filepath.Join(home, "elsewhere", "repo"), 0o755)
	if _, unsure := primaryDirs(sep); !unsure {
		t.Errorf("a common git folder not named .git, not bare: want unsure")
	}
}

// TestKiloGuardPlugin: Kilo loads plugins from its config folders as
// OpenCode does; another plugin's tool.execute.before hook makes gotk step
// aside there too.
func TestKiloGuardPlugin(t *testing.T) {
	home := t.TempDir()
	vars := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "GOTK_KILO_AGENT": "code"}
	permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{"permission": {"bash": "allow"}}`)
	permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "plugin", "gotk.ts"), "// tool.execute.before")
	if r := Host.LoadRules(permissiontest.Env(home, home, vars)); r.Unreadable {
		t.Fatalf("gotk's own plugin: unreadable %q", r.Warnings)
	}
	permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "plugin", "guard.js"), `export default async () => ({"tool.execute.before": async () => {}})`)
	if r := Host.LoadRules(permissiontest.Env(home, home, vars)); !r.Unreadable {
		t.Error("a guard plugin in ~/.config/kilo/plugin: rules readable")
	}
}
