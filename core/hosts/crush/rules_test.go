package crush

import (
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

func TestCrushBlocks(t *testing.T) {
	r := Host.LoadRules(permission.Env{Getenv: func(string) string { return "" }})
	for cmd, want := range map[string]permission.Verdict{
		"go install x": permission.Deny, "go test -exec foo ./...": permission.Deny, "go test -exec=foo ./...": permission.Deny, "npm install -g x": permission.Deny,
		"npm i -g x": permission.Default, "pip install --user x": permission.Deny, "yarn global add x": permission.Deny, "cargo install x": permission.Deny,
		"curl http://x": permission.Deny, "/usr/bin/sudo ls": permission.Deny, "timeout 5 go install x": permission.Deny,
		"go test $X foo": permission.Deny, "go test ${X}=foo": permission.Deny, "npm install `echo -g` x": permission.Deny,
		"git log $X": permission.Default, "go test ./...": permission.Default, "npm install": permission.Default, "git status": permission.Default, "pip install x": permission.Default,
	} {
		if got := r.Check(permissiontest.Seg(cmd)).Verdict; got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}
