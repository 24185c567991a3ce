package crush

import (
	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
)

// Handle answers one PreToolUse payload of the bash tool in Crush's own
// form: {"version":1,"decision":"allow","reason":…,"updated_input":
// {"command":…}}, updated_input a shallow-merge patch of the tool input; or
// nil (no opinion). Crush checks its read-only list on the REWRITTEN
// command before asking permission, so gotk answers "allow" exactly where
// the original is on it as one command (AllowRewrite: core/hosts/crush SafeAlone);
// every other rewrite carries no decision and Crush asks (or not:
// allowed_tools, `crush run`, --yolo) as it would have for the original.
func Handle(in []byte, d decision.Decider) []byte {
	p, ok := hookio.ReadPayload(in)
	if !ok || p.ToolName != "bash" {
		return nil
	}
	_, cmd, ok := hookio.ShellInput(p.ToolInput, "command")
	if !ok {
		return nil
	}
	dec := d.Decide(decision.Request{Command: cmd, Cwd: p.Cwd})
	patch := hookio.Fields{{Key: "command", Value: hookio.Raw(dec.Command)}}
	switch dec.Verdict {
	case decision.AllowRewrite:
		return hookio.Object("version", 1, "decision", "allow", "reason", hookio.Reason(dec), "updated_input", patch)
	case decision.AskRewrite:
		return hookio.Object("version", 1, "updated_input", patch)
	}
	return nil
}
