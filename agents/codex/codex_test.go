package codex

import (
	"errors"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

// seeds[0] is the benchmark's typical payload.
var seeds = []string{
	`{"session_id":"s1","turn_id":"t1","transcript_path":null,"cwd":"/tmp","hook_event_name":"PreToolUse","model":"gpt-5-codex","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"git status"},"tool_use_id":"call_1"}`,
	`{"tool_name":"Bash","permission_mode":"default","tool_input":{"command":"ls -la && grep -n x f | head"}}`,
	`{"tool_name":"Bash","tool_input":{"command":"cat <<EOF\nx\nEOF"}}`,
}

// checkAnswer accepts only the shape Codex's schema allows
// (additionalProperties: false) with "allow" and updatedInput.
func checkAnswer(line []byte) error {
	var a struct {
		HookSpecificOutput struct {
			HookEventName            string         `json:"hookEventName"`
			PermissionDecision       string         `json:"permissionDecision"`
			PermissionDecisionReason string         `json:"permissionDecisionReason"`
			UpdatedInput             map[string]any `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := hookiotest.Strict(line, &a); err != nil {
		return err
	}
	h := a.HookSpecificOutput
	if c, _ := h.UpdatedInput["command"].(string); h.HookEventName != "PreToolUse" || h.PermissionDecision != "allow" || c == "" {
		return errors.New("not a Codex rewrite")
	}
	return nil
}

// TestAnswerMapping: Codex accepts only "allow", so the hook answers the
// allow rewrites (known-safe commands are allows, decided in core) and
// nothing else.
func TestAnswerMapping(t *testing.T) {
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"gotk: same command, compact output (rule r)","updatedInput":{"command":"/g ls -la"}}}`
	in := []byte(`{"tool_name":"Bash","permission_mode":"default","tool_input":{"command":"ls -la"}}`)
	for v, w := range map[decision.Verdict]string{decision.AllowRewrite: want, decision.AskRewrite: "", decision.Deny: "", decision.Passthrough: ""} {
		if got := string(Handle(in, hookiotest.Stub{Verdict: v, Command: "/g ls -la", Rule: "r"})); got != w {
			t.Errorf("%v:\n got %s\nwant %s", v, got, w)
		}
	}
}
