package cursor

import (
	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
)

// noop is Cursor's "no opinion", printed on EVERY path without a rewrite,
// bad input included: cursor-agent has been seen to block a command when a
// shell hook prints nothing or something that is not JSON.
var noop = []byte(`{}`)

// permissionOf maps a verdict to Cursor's permission field: "allow" when
// Cursor's own allow rules cover the original command and its rewrite
// alike, "ask" otherwise (Cursor does not enforce "ask" for preToolUse;
// core/hosts/cursor rewrites only where Cursor's rules judge the rewrite
// as the original, so neither answer grants more than Cursor's own
// rules). Deny and Passthrough answer `{}`.
var permissionOf = map[decision.Verdict]string{
	decision.AllowRewrite: "allow",
	decision.AskRewrite:   "ask",
}

// Handle answers one preToolUse payload: a rewrite as
// {"continue":true,"permission":…,"updated_input":{…}}, where updated_input
// is the whole tool_input, key order kept, command replaced; or `{}`.
func Handle(in []byte, d decision.Decider) []byte {
	p, ok := hookio.ReadPayload(in)
	if !ok || p.ToolName != "Shell" {
		return noop
	}
	fields, cmd, ok := hookio.ShellInput(p.ToolInput, "command")
	if !ok {
		return noop
	}
	dec := d.Decide(decision.Request{Command: cmd, Cwd: p.Cwd})
	perm, ok := permissionOf[dec.Verdict]
	if !ok {
		return noop
	}
	return hookio.Object("continue", true, "permission", perm, "updated_input", fields.With("command", dec.Command))
}
