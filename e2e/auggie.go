package e2e

import (
	"encoding/json"
	"path/filepath"
	"regexp"
)

// auggieAgent is Augment's Auggie CLI (npm @augmentcode/auggie, its own
// lock: auggie/package-lock.json). It talks only to Augment's API, which
// the fake model plays under AugmentTenantURL: the session comes from
// AUGMENT_SESSION_AUTH (the format of ~/.augment/session.json), and the
// fake's get-models turns on the tenant flag enable_hooks, without which
// Auggie runs no hook. `auggie --print PROMPT` is one non-interactive run
// in the project (its workspace root, found from the git repo); the shell
// tool is launch-process; hooks are hooks.PreToolUse in
// ~/.augment/settings.json, whose updatedInput replaces the whole input.
var auggieAgent = &Agent{
	Name: "auggie", Bin: "auggie", Package: "@augmentcode/auggie", lock: "auggie",
	setup: func(e *Env) {
		auth, _ := json.Marshal(map[string]any{"accessToken": "e2e-dummy", "tenantURL": e.Model.AugmentTenantURL(), "scopes": []string{"email"}})
		e.Vars["AUGMENT_SESSION_AUTH"] = string(auth)
		e.editJSON(filepath.Join(e.Home, ".augment", "settings.json"), func(m map[string]any) {})
		e.Args = []string{"--print", Prompt}
	},
	dialect: "auggie",
	addHook: func(e *Env, command string) {
		e.editJSON(filepath.Join(e.Home, ".augment", "settings.json"), func(m map[string]any) {
			appendHook(m, "PreToolUse", map[string]any{"matcher": "^launch-process$",
				"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": 10000}}})
		})
	},
}

func init() {
	// Measured with 0.36.0: a rule's deny ("Denied by explicit rule"), and
	// an ask-user rule, which --print cannot ask.
	outcomePatterns["auggie"] = []struct {
		re *regexp.Regexp
		o  Outcome
	}{
		{regexp.MustCompile(`(?i)blocked by (a )?(PreToolUse )?hook|hook.*block`), Blocked},
		{regexp.MustCompile(`(?i)Denied by explicit rule`), Denied},
		{regexp.MustCompile(`(?i)Tool execution denied|requires? (user )?approval|ask-user`), Refused},
	}
}
