package e2e

import "path/filepath"

// Permission parity (scenario 4) for Auggie: its toolPermissions are
// checked on the input after the hook, so gotk rewrites only where every
// rule matches `gotk …` as it matches the original (core/hosts/auggie).
// Each call runs without and with gotk; the outcomes must match.
func init() {
	rules := func(file string, list ...any) func(e *Env) {
		return func(e *Env) {
			goModule(e)
			e.editJSON(file, func(m map[string]any) { m["toolPermissions"] = list })
		}
	}
	rule := func(regex, permission string) any {
		return map[string]any{"toolName": "launch-process", "shellInputRegex": regex, "permission": map[string]any{"type": permission}}
	}
	permCases = append(permCases,
		permCase{
			agent: "auggie", name: "user-rules",
			setup: func(e *Env) {
				rules(filepath.Join(e.Home, ".augment", "settings.json"),
					rule("^git diff", "deny"), rule("^git status$", "allow"), rule("^go ", "ask-user"))(e)
			},
			calls: []permCall{
				{"git status", `allow "^git status$" (gotk's form would not match it)`, Ran},
				{"git diff", `deny "^git diff"`, Denied},
				{"go vet ./...", `ask-user "^go " (--print cannot ask)`, Refused},
				{"git log -1", "no rule matches, with gotk or without", Ran},
			},
		},
		permCase{
			// The workspace's rules, and a rule only gotk's form would
			// match: a rewrite there would be denied where the original ran.
			agent: "auggie", name: "workspace-rules",
			setup: func(e *Env) {
				rules(filepath.Join(e.Project, ".augment", "settings.json"),
					rule("gotk", "deny"), rule("^git log", "deny"))(e)
			},
			calls: []permCall{
				{"git status", `deny "gotk" matches only the rewrite`, Ran},
				{"git log -1", `workspace deny "^git log"`, Denied},
			},
		},
	)
}
