package kilo

import (
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// TestGitWrites: Kilo 7.7.9's sandbox-escalation check (Oof), case by
// case as its source decides them.
func TestGitWrites(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git status": false, "git log -3": false, "git diff HEAD": false, "git show x": false, "git": false,
		"git commit -m x": true, "git push origin main": true, "git add .": true, "git fetch": true, "git gc": true,
		"git -C sub status": false, "git -C sub commit": true, "git -c a=b log": false,
		"GIT_DIR=x git commit": true, "env -i A=1 git push": true, "command git stash": true, "GIT.EXE stash": true,
		"git commit -m x && ls": false, "git push 2>&1": false, // Kilo skips text with ;&|<>`
		"git branch": false, "git branch -a": false, "git branch -vv": false, "git branch --show-current": false,
		"git branch foo": true, "git branch -D foo": true, "git branch -l 'f*'": false, "git branch --contains HEAD": false,
		"git branch --sort=-committerdate": false, "git branch -r foo": true,
		"git tag": false, "git tag -l": false, "git tag v1": true, "git tag -n5": false, "git tag -a v1 -m x": true,
		"git config user.name": true, "git config --get user.name": false, "git config": false, "git config -l": false,
		"git remote": false, "git remote -v": false, "git remote show origin": false, "git remote get-url origin": false,
		"git remote add o url": true, "git remote --verbose": false,
		"git stash": true, "git stash list": false, "git stash show -p": false, "git stash pop": true, "git stash list -m x": true,
		"git worktree list": false, "git worktree add ../w": true, "git worktree": true,
		"git reflog": false, "git reflog show": false, "git reflog expire": true,
		"git notes": false, "git notes list": false, "git notes --ref x list": false, "git notes add": true,
		"gotk git stash": false, "echo git push": false,
	} {
		if got := gitWrites(cmd); got != want {
			t.Errorf("gitWrites(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestSandboxEscalationKeepsOut: where Kilo may ask to leave its sandbox
// for a git command, gotk does not rewrite it (`gotk git stash` would run
// sandboxed, unasked); read-only git is still rewritten.
func TestSandboxEscalationKeepsOut(t *testing.T) {
	home := t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{"permission": {"bash": "allow"}}`)
	r := Host.LoadRules(permissiontest.Env(home, home, map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "GOTK_KILO_AGENT": "code"}))
	for cmd, v := range map[string]permission.Verdict{"git stash": permission.Ask, "git branch -D x": permission.Ask, "git status": permission.Default, "git branch": permission.Default} {
		if got := r.Check(permissiontest.Seg(cmd)).Verdict; got != v {
			t.Errorf("%q: %v, want %v", cmd, got, v)
		}
	}
}
