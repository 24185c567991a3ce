package codex

import (
	"github.com/gotk-dev/gotk/core/decision"
	_ "github.com/gotk-dev/gotk/core/execpolicy/register" // reads Codex's execpolicy files
	"github.com/gotk-dev/gotk/core/hookio"
)

// bypassMode is the permission_mode Codex reports for approval_policy =
// "never": Codex runs every command without asking. Every other policy is
// reported as "default".
const bypassMode = "bypassPermissions"

// Handle answers one PreToolUse payload with
// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow",
// "permissionDecisionReason":…,"updatedInput":{…}}} — Codex needs both
// "allow" and updatedInput to rewrite, rejects unknown fields and does not
// support "ask" — or with nothing.
//
// Because the only rewrite Codex accepts says "allow", gotk rewrites only
// where that grants nothing Codex would not have granted to the original:
//
//	permission_mode bypassPermissions   rewrite (Codex asks about nothing)
//	original is Codex-known-safe        rewrite (Codex runs it without asking
//	                                    under every approval policy; core's
//	                                    codex.KnownSafe makes it an allow)
//	a `prompt` execpolicy rule matches  no answer (an Ask verdict)
//	anything else (an Ask verdict)      no answer: Codex's own approval flow
//	                                    sees the original command
//	Deny, Passthrough                   no answer
//
// So the hook answers exactly the allows, as `gotk rewrite --host codex`
// reports them.
func Handle(in []byte, d decision.Decider) []byte {
	p, ok := hookio.ReadPayload(in)
	if !ok || p.ToolName != "Bash" {
		return nil
	}
	fields, cmd, ok := hookio.ShellInput(p.ToolInput, "command")
	if !ok {
		return nil
	}
	bypass := p.PermissionMode == bypassMode
	dec := d.Decide(decision.Request{Command: cmd, Cwd: p.Cwd, AutoAllow: bypass})
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
