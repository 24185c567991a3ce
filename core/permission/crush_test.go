package permission

import "testing"

func TestCrushBlocks(t *testing.T) {
	r := Load(Crush, Env{Getenv: func(string) string { return "" }})
	for cmd, want := range map[string]Verdict{
		"go install x": Deny, "go test -exec foo ./...": Deny, "go test -exec=foo ./...": Deny, "npm install -g x": Deny,
		"npm i -g x": Default, "pip install --user x": Deny, "yarn global add x": Deny, "cargo install x": Deny,
		"curl http://x": Deny, "/usr/bin/sudo ls": Deny, "timeout 5 go install x": Deny,
		"go test ./...": Default, "npm install": Default, "git status": Default, "pip install x": Default,
	} {
		if got := r.Check(seg(cmd)).Verdict; got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}
