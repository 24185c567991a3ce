package codex

import "testing"

func TestCodexKnownSafe(t *testing.T) {
	for cmd, want := range map[string]bool{
		"ls -la":                           true,
		"ls -la && grep -rn x . | head -5": true,
		"git status":                       false, // Codex asks about git
		"find . -name x -delete":           false,
		"rg --pre=cat x":                   false,
		"ls > out":                         false,
		"ls $HOME":                         false,
		"ls *.go":                          false,
		"(ls)":                             false,
		"ls &":                             false,
		"X=1 ls":                           false,
		"cat 'a b' \"c\"":                  true,
		"":                                 false,
	} {
		if got := KnownSafe(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}
