package gemini

import (
	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/gotk-dev/gotk/core/permission"
)

// noop is the answer without a rewrite, bad input and empty stdin
// included (RTK exits 1 there). Gemini treats "allow" as no decision: it
// never skips Gemini's own policy check or confirmation.
var noop = []byte(`{"decision":"allow"}`)

// decisionOf maps a decision to Gemini's field. A hook cannot auto-approve
// in Gemini CLI: "allow" leaves the call to Gemini's policy engine, which
// checks the rewritten command under the session's approval mode; "ask"
// forces a confirmation even in YOLO mode. So "ask" is answered only where
// Gemini would have asked about the original whatever its mode — a
// tools.confirmationRequired rule matched — and "allow" otherwise.
//
// An original that a user rule allows is left alone by core
// (host.Answers.KeepAllowed): Gemini matches its rules against the
// REWRITTEN command (measured in Gemini CLI 0.61.0: `tools.allowed`
// `run_shell_command(go vet)` turned `gotk go vet ./...` into "Tool
// execution denied by policy"), so a rewrite would take the user's allow
// away.
func decisionOf(d decision.Decision) (string, bool) {
	switch {
	case d.Verdict == decision.AskRewrite && d.Permission == permission.Ask:
		return "ask", true
	case hookio.IsRewrite(d):
		return "allow", true
	}
	return "", false
}

// Handle answers one BeforeTool payload: a rewrite as
// {"decision":…,"hookSpecificOutput":{"hookEventName":"BeforeTool",
// "tool_input":{…}}}, where tool_input is the whole original, key order
// kept, command replaced; or {"decision":"allow"}.
func Handle(in []byte, d decision.Decider) []byte {
	p, ok := hookio.ReadPayload(in)
	if !ok || p.ToolName != "run_shell_command" {
		return noop
	}
	fields, cmd, ok := hookio.ShellInput(p.ToolInput, "command")
	if !ok {
		return noop
	}
	dec := d.Decide(decision.Request{Command: cmd, Cwd: p.Cwd})
	verdict, ok := decisionOf(dec)
	if !ok {
		return noop
	}
	return hookio.Object("decision", verdict, "hookSpecificOutput", hookio.Fields{
		{Key: "hookEventName", Value: hookio.Raw("BeforeTool")},
		{Key: "tool_input", Value: hookio.Raw(fields.With("command", dec.Command))},
	})
}
