package host

import "testing"

func TestCrushSafe(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git status": true, "git status -s": true, "GIT Status": true, "ls -la": true, "ls": true, "git log --oneline": true,
		"timeout 5 go test": true, "env X=1 make": true, // Crush's own list allows these wrappers
		"lsof": false, "git statusx": false, "git status && ls": false, "git log | head": false, "ls; pwd": false,
		"echo $(id)": false, " git status": false, "go test ./...": false, "git push": false, "git status-x": true,
	} {
		if got := CrushSafe(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}
