package droid

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/gotk-dev/gotk/core/registry"
)

// autonomy is the highest risk level each permission_mode runs without
// asking; any other mode runs none.
var autonomy = map[string]int{"auto-low": 1, "auto-medium": 2, "auto-high": 3}

// risk is Droid's order of the model's riskLevel; a missing or unknown one
// counts as high, as Droid counts it.
func risk(level string) int {
	switch strings.ToLower(strings.TrimSpace(level)) {
	case "low":
		return 1
	case "medium":
		return 2
	}
	return 3
}

// Handle answers one PreToolUse payload of the Execute tool: a rewrite as
// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":
// "allow","permissionDecisionReason":…,"updatedInput":{…}}}, updatedInput
// the whole tool_input, key order kept, command replaced; or nil.
//
// "allow" skips Droid's whole approval (allow rules, ask rules, the risk
// gate) for the rewritten command, and without it Droid would judge
// `gotk …`, which its allow rules no longer match. So core rewrites only as
// an allow (host.Answers.AllowOnly), and allows only where Droid would have
// run the original without asking: the model's riskLevel is within the
// session's autonomy and no ask or block rule matches (Request.AutoAllow),
// or Droid's built-in allow rules cover the line (core/hosts/droid KnownSafe).
// The hook entry still sets "preserveRiskLevel": true, so that Droid keeps
// the model's risk level on any input a hook changes.
func Handle(in []byte, d decision.Decider) []byte {
	p, ok := hookio.ReadPayload(in)
	if !ok || p.ToolName != "Execute" {
		return nil
	}
	fields, cmd, ok := hookio.ShellInput(p.ToolInput, "command")
	if !ok {
		return nil
	}
	var level string
	for _, f := range fields {
		if f.Key == "riskLevel" {
			level = ""
			json.Unmarshal(f.Value, &level)
		}
	}
	dec := d.Decide(decision.Request{
		Command:   cmd,
		Cwd:       p.Cwd,
		AutoAllow: risk(level) <= autonomy[p.PermissionMode],
	})
	if dec.Verdict != decision.AllowRewrite {
		return nil
	}
	return hookio.Object("hookSpecificOutput", hookio.Fields{
		{Key: "hookEventName", Value: hookio.Raw("PreToolUse")},
		{Key: "permissionDecision", Value: hookio.Raw("allow")},
		{Key: "permissionDecisionReason", Value: hookio.Raw(hookio.Reason(dec))},
		{Key: "updatedInput", Value: hookio.Raw(fields.With("command", dec.Command))},
	})
}

// CommandRegex is a JavaScript regular expression (Droid tests
// `new RegExp(commandRegex).test(command)`) matching every command that
// names a program of gotk's registry as a word: more commands than gotk
// rewrites, never fewer.
func CommandRegex() string {
	seen := map[string]bool{}
	var names []string
	for _, r := range registry.Rules() {
		if !seen[r.Program] {
			seen[r.Program] = true
			names = append(names, regexp.QuoteMeta(r.Program))
		}
	}
	sort.Strings(names)
	return `\b(` + strings.Join(names, "|") + `)\b`
}
