package droid

import (
	"testing"
)

func TestDroidKnownSafe(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git status": true, "git log --oneline -5": true, "ls -la": true, "pwd": true, "dir": true,
		"git diff | head -20": true, "cd sub && git status": true, "git status; echo done": true,
		`git log --grep "fix bug"`: true, "git show HEAD && ls": true, "git blame main.go | grep x": true,
		// not known safe
		"grep -r x .": false, "cat main.go": false, "cd x": false, "echo hi | head": false,
		"git push": false, "git -C x status": false, "/usr/bin/git status": false, "timeout 5 git status": false,
		"FOO=1 git status": false, "git status > out": false, "git status 2>/dev/null": false,
		"git status &": false, "(git status)": false, "git log $x": false, "ls *.go": false, "ls ~": false,
		"git status\nls": false, "git status |& head": false, "! git status": false, "git log | wc -l": false,
		`git log 'a\'`: false, "git 'status'": false, `"git" status`: false, "g'i't status": false, "l's' -la": false, "ls a#b": false, "git status && go test": false, "": false, "git": false,
	} {
		if got := KnownSafe(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}
