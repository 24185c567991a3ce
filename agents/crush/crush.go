package crush

import (
	"encoding/json"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
)

// input is the part of Crush's PreToolUse payload the hook reads
// (docs/hooks/README.md: event, session_id, cwd, tool_name, tool_input —
// the raw arguments the model sent).
type input struct {
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	Cwd       string          `json:"cwd"`
}

// Handle answers one PreToolUse payload of the bash tool in Crush's own
// form: {"version":1,"decision":"allow","reason":…,"updated_input":
// {"command":…}}, updated_input a shallow-merge patch of the tool input; or
// nil (no opinion). Crush checks its read-only list on the REWRITTEN
// command before asking permission, so gotk answers "allow" exactly where
// the original is on it (AllowRewrite: host.CrushSafe); every other rewrite
// carries no decision and Crush asks (or not: allowed_tools, `crush run`,
// --yolo) as it would have for the original.
func Handle(in []byte, d decision.Decider) []byte {
	var p input
	if json.Unmarshal(in, &p) != nil || p.ToolName != "bash" {
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
