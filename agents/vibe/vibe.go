package vibe

import (
	"unicode/utf8"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
)

// maxShown bounds the command quoted in system_message.
const maxShown = 200

// Handle answers one pre_tool payload: a rewrite as
// {"hook_specific_output":{"tool_input":{…}},"system_message":…}, where
// tool_input is the whole original, key order kept, command replaced; or
// nil. The answer carries no decision: Vibe asks for permission AFTER its
// hooks, on the rewritten command, and gotk has no Vibe rules to read, so
// allow and ask rewrites look the same.
func Handle(in []byte, d decision.Decider) []byte {
	p, ok := hookio.ReadPayload(in)
	if !ok || p.ToolName != "bash" {
		return nil
	}
	fields, cmd, ok := hookio.ShellInput(p.ToolInput, "command")
	if !ok {
		return nil
	}
	dec := d.Decide(decision.Request{Command: cmd, Cwd: p.Cwd})
	if !hookio.IsRewrite(dec) {
		// Core leaves an original an ask rule matches (a sensitive pattern,
		// find -exec) alone: Vibe checks its rules on the rewritten command,
		// which would no longer match (host.Answers.NoAsk).
		return nil
	}
	shown := dec.Command
	if len(shown) > maxShown {
		n := maxShown
		for n > 0 && !utf8.RuneStart(shown[n]) {
			n-- // cut between runes
		}
		shown = shown[:n] + "…"
	}
	return hookio.Object(
		"hook_specific_output", hookio.Fields{{Key: "tool_input", Value: hookio.Raw(fields.With("command", dec.Command))}},
		"system_message", "gotk: rewrote to `"+shown+"`",
	)
}
