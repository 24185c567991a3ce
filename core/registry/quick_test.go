package registry

import (
	"testing"
)

// TestMayMatch: the cheap scan says no only for lines no rule takes, however
// the program word is spelled.
func TestMayMatch(t *testing.T) {
	for line, want := range map[string]bool{
		"echo hi":                      false,
		"cd /tmp && echo hi | sort":    false,
		"":                             false,
		"git status":                   true,
		"'g'it status":                 true,
		`"git" status`:                 true,
		`g\it status`:                  true,
		"g\\\nit status":               true,
		"/usr/bin/git log":             true,
		"./node_modules/.bin/jest":     true,
		"FOO=1 make":                   true,
		"echo x|wc -l":                 true,
		"(cd a;ls)":                    true,
		"npx jest":                     true,
		"python3 -m pytest -q":         true,
		"./mvnw -q test":               true,
		`$'\x67it' status`:             true,
		"gitx status":                  false,
		"echo git":                     true, // a false yes costs a parse, never a rewrite
		"sudo -u x journalctl --since": false,
	} {
		if got := MayMatch(line); got != want {
			t.Errorf("MayMatch(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestMayMatchUserFilters: a user filter's literal prefix opens the scan; a
// filter without one opens it for every line.
func TestMayMatchUserFilters(t *testing.T) {
	withUserFilters(t, "schema_version = 1\n[filters.mine]\nmatch_command = \"^tool1 \"\n[filters.path]\nmatch_command = \"^\\\\./scripts/deploy\"\n")
	for line, want := range map[string]bool{
		"tool1 --all":                 true,
		"tool150 --all":               true, // ^tool1 matches its start
		"./scripts/deploy.sh prod":    true,
		"cd x && ./scripts/deploy.sh": true,
		"tool2":                       false,
		"echo hi":                     false,
	} {
		if got := MayMatch(line); got != want {
			t.Errorf("MayMatch(%q) = %v, want %v", line, got, want)
		}
	}
	withUserFilters(t, "schema_version = 1\n[filters.any]\nmatch_command = \"^(a|b)x\"\n")
	if !MayMatch("echo hi") {
		t.Error("a filter without a literal prefix may match any line")
	}
}
