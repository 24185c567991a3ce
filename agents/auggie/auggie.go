package auggie

import (
	"encoding/json"
	"path/filepath"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
)

// Handle answers one PreToolUse payload of Auggie's launch-process tool
// (Auggie 0.36.0 sends {hook_event_name, conversation_id, workspace_roots,
// tool_name, tool_input, tool_error, is_mcp_tool}): a rewrite as
// {"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{…}}},
// or nil.
//
// Auggie replaces the tool's WHOLE input with updatedInput
// (`f?.updatedInput&&(u=f.updatedInput)`), so it is the whole tool_input,
// key order kept, command replaced: wait, max_wait_seconds, cwd and
// keep_stdin_open as the model sent them. It carries no
// permissionDecision: Auggie's "allow" skips no prompt, and its
// toolPermissions then judge the rewritten command, which core rewrites
// only where they judge it as the original (core/hosts/auggie). So an
// allow and an ask rewrite get the same answer.
func Handle(in []byte, d decision.Decider) []byte {
	p, ok := hookio.ReadPayload(in)
	if !ok || p.ToolName != "launch-process" {
		return nil
	}
	if ev, ok := p.Fields.Str("hook_event_name"); !ok || (ev != "" && ev != "PreToolUse") {
		return nil
	}
	if v, ok := p.Fields.Get("is_mcp_tool"); ok && string(v) != "false" {
		return nil
	}
	fields, cmd, ok := hookio.ShellInput(p.ToolInput, "command")
	if !ok {
		return nil
	}
	dec := d.Decide(decision.Request{Command: cmd, Cwd: workspace(p.Fields, fields)})
	if dec.Verdict != decision.AllowRewrite && dec.Verdict != decision.AskRewrite {
		return nil
	}
	return hookio.Object("hookSpecificOutput", hookio.Fields{
		{Key: "hookEventName", Value: hookio.Raw("PreToolUse")},
		{Key: "updatedInput", Value: hookio.Raw(fields.With("command", dec.Command))},
	})
}

// workspace is where Auggie reads its workspace settings: the payload's
// first workspace root, else the tool's cwd when absolute, else "" (the
// hook's own directory).
func workspace(payload, input hookio.Fields) string {
	if v, ok := payload.Get("workspace_roots"); ok {
		var roots []string
		if json.Unmarshal(v, &roots) == nil && len(roots) > 0 && filepath.IsAbs(roots[0]) {
			return roots[0]
		}
	}
	if cwd, ok := input.Str("cwd"); ok && filepath.IsAbs(cwd) {
		return cwd
	}
	return ""
}
