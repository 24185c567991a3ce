package cline

import (
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
)

func TestClinePlanGuard(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git commit -m x": true, "git -C sub push": true, "git stash": true, "git stash list": true,
		"timeout 5 git pull": true, "FOO=1 nice -n 5 npm install": true, "npm ci": true, "yarn": true,
		"pip install x": true, "python3 -m pip install x": true, "cargo add serde": true, "go get x": true,
		"dotnet add package x": true, "rm -rf x": true, "/usr/bin/cp a b": true, `"mv" a b`: true,
		"sed -i s/a/b/ f": true, "find . -delete": true, "find . -exec rm {} ;": true, "curl -o f u": true,
		"wget u": true, "sort -o f x": true, "tee out": true,
		"git status": false, "git log --oneline": false, "go test ./...": false, "go build": false,
		"cargo build": false, "npm test": false, "npm run build": false, "yarn test": false, "ls -la": false,
		"grep -r x .": false, "find . -name x": false, "curl https://x": false, "sed s/a/b/ f": false,
		"python -m pytest": false, "make": false, "": false,
	} {
		if got := clinePlanGuard(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}

// TestClineRules: the guard is an ask rule of host cline, matched on every
// form of a simple command.
func TestClineRules(t *testing.T) {
	r := Host.LoadRules(permission.Env{Getenv: func(string) string { return "" }})
	if len(r.Ask) != 1 || len(r.Allow)+len(r.Deny) != 0 || r.Unreadable {
		t.Fatalf("rules %+v", r)
	}
	for form, want := range map[string]permission.Verdict{"git commit": permission.Ask, "git status": permission.Default} {
		if got := r.Check(permission.Segment{Forms: []string{form}, AllowForm: form}).Verdict; got != want {
			t.Errorf("%q: %v, want %v", form, got, want)
		}
	}
}
