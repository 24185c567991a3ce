package copilot

import "testing"

func TestPowerShellPlain(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git status --short":    true,
		"go test ./...":         true,
		"ls -la":                false, // Get-ChildItem in PowerShell
		"cat x":                 false,
		"git log --format='%s'": false, // quoting differs
		"git status; rm x":      false,
		"npm run build:prod":    true,
		"":                      false,
	} {
		if got := PowerShellPlain(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}
