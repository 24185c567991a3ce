package crush

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func TestCrushSafe(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git status": true, "git status -s": true, "GIT Status": true, "ls -la": true, "ls": true, "git log --oneline": true,
		"timeout 5 go test": true, "env X=1 make": true, // Crush's own list allows these wrappers
		"lsof": false, "git statusx": false, "git status && ls": false, "git log | head": false, "ls; pwd": false,
		"echo $(id)": false, " git status": false, "go test ./...": false, "git push": false, "git status-x": true,
	} {
		if got := Safe(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}

// TestCrushSafeAlone: a line Crush's text check passes is vouched for only
// when bash runs it as one simple command — whatever joins a second one
// that the check does not look for (a background &, a newline, a comment
// line, a subshell, a negation) leaves it not alone.
func TestCrushSafeAlone(t *testing.T) {
	for cmd, want := range map[string][2]bool{
		"ls -la":                    {true, true},
		"ls -la\n":                  {true, true},
		"git status\n":              {false, true}, // Crush: the name ends in neither a blank nor a dash
		"ls -la \\\n  -R":           {true, true},
		"ls -la & rm -rf /tmp/x":    {true, false},
		"ls -la &rm x":              {true, false},
		"ls -la\nrm -rf /tmp/x":     {true, false},
		"ls -la\r\nrm x":            {true, false},
		"ls # c\nrm x":              {true, false},
		"ls -la &":                  {true, false},
		"ls (":                      {true, false},
		"ls -la || rm x":            {false, true},
		"rm -rf /tmp/x & ls":        {false, true},
		"git status && rm -rf /tmp": {false, true},
	} {
		safe, alone := SafeAlone(cmd)
		if [2]bool{safe, alone} != want {
			t.Errorf("%q: safe %v alone %v, want %v", cmd, safe, alone, want)
		}
	}
	// every separator of bash's grammar between a safe command and rm:
	// passed by the text check or not, never safe and alone
	for _, sep := range []string{";", "&", "&&", "||", "|", "\n", "\r\n", "\n\n", " & ", ";;", "|&"} {
		cmd := "ls -la" + sep + "rm -rf /tmp/x"
		safe, alone := SafeAlone(cmd)
		if safe && alone {
			t.Errorf("%q: safe and alone", cmd)
		}
		if f, err := syntax.NewParser().Parse(strings.NewReader(cmd), ""); err == nil && len(f.Stmts) == 1 {
			if _, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && !f.Stmts[0].Background {
				t.Errorf("%q: the test's separator did not separate", cmd)
			}
		}
	}
}
