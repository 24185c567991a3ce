package claude

import (
	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
	claudehost "github.com/gotk-dev/gotk/core/hosts/claude"
)

// autoAllowModes are the permission modes in which Claude runs every Bash
// command without asking (deny and ask rules still apply; the engine
// checks those). acceptEdits also runs filesystem commands (mkdir, touch,
// rm…) without asking: gotk never rewrites those, but a line that joins one
// to a rewritten command is one Claude may run unasked
// (claudehost.ModeMayRun). plan, default and dontAsk keep Claude's normal
// checks; auto hands what no rule decides to a classifier (classifierModes).
var autoAllowModes = map[string]bool{"bypassPermissions": true}

// permissionDecision is the permission table. Measured in Claude Code
// 2.1.328: with no permissionDecision Claude checks the REWRITTEN command,
// so a read-only `git status` it would run silently needs approval; with
// "allow" it runs what it would have asked about. So gotk answers "allow"
// exactly when Claude would have run the ORIGINAL without asking (an allow
// rule, bypassPermissions, or Claude's own read-only set — Request.
// ReadOnlyAutoAllow), and "ask" otherwise (an ask rule, or no rule), which
// also keeps a user's `Bash(gotk *)` allow rule from widening anything.
// Deny and Passthrough get no answer: Claude's own rules then apply.
var permissionDecision = map[decision.Verdict]string{
	decision.AllowRewrite: "allow",
	decision.AskRewrite:   "ask",
}

// Handle answers one PreToolUse payload: a rewrite as
// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":…,
// "permissionDecisionReason":…,"updatedInput":{…}}}, where updatedInput is
// the whole tool_input, key order kept, command replaced; or nil (no
// opinion).
func Handle(in []byte, d decision.Decider) []byte {
	p, ok := hookio.ReadPayload(in)
	if !ok || p.ToolName != "Bash" {
		return nil
	}
	fields, cmd, ok := hookio.ShellInput(p.ToolInput, "command")
	if !ok {
		return nil
	}
	dec := d.Decide(decision.Request{
		Command:           cmd,
		Cwd:               p.Cwd,
		AutoAllow:         autoAllowModes[p.PermissionMode],
		ReadOnlyAutoAllow: true,
		ModeMayRun:        claudehost.ModeMayRun(p.PermissionMode),
	})
	pd, ok := permissionDecision[dec.Verdict]
	if !ok || pd == "ask" && denyingModes[p.PermissionMode] || classifierModes[p.PermissionMode] {
		return nil
	}
	return hookio.Object("hookSpecificOutput", hookio.Fields{
		{Key: "hookEventName", Value: hookio.Raw("PreToolUse")},
		{Key: "permissionDecision", Value: hookio.Raw(pd)},
		{Key: "permissionDecisionReason", Value: hookio.Raw(reason(pd, dec))},
		{Key: "updatedInput", Value: hookio.Raw(fields.With("command", dec.Command))},
	})
}

// reason is the text Claude shows with the decision: for "ask", one that
// says approval is needed (in -p mode it reaches the model as the result).
func reason(pd string, dec decision.Decision) string {
	if pd == "ask" {
		return hookio.AskReason(dec)
	}
	return hookio.Reason(dec)
}
