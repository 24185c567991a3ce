package gemini

import (
	"errors"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
	"github.com/gotk-dev/gotk/core/permission"
)

// seeds[0] is the benchmark's typical payload.
var seeds = []string{
	`{"session_id":"s1","transcript_path":"/home/u/.gemini/tmp/s1.json","cwd":"/tmp","hook_event_name":"BeforeTool","timestamp":"2026-01-02T03:04:05Z","tool_name":"run_shell_command","tool_input":{"command":"git status","description":"Show status","dir_path":"/tmp"},"mcp_context":null,"original_request_name":"run_shell_command"}`,
	`{"tool_name":"run_shell_command","tool_input":{"command":"git push && ls -la | head"}}`,
	`{"tool_name":"run_shell_command","tool_input":{"command":"cat <<EOF\nx\nEOF"}}`,
}

// checkAnswer accepts only the no-op and the rewrite shape.
func checkAnswer(line []byte) error {
	if string(line) == `{"decision":"allow"}` {
		return nil
	}
	var a struct {
		Decision           string `json:"decision"`
		HookSpecificOutput struct {
			HookEventName string         `json:"hookEventName"`
			ToolInput     map[string]any `json:"tool_input"`
		} `json:"hookSpecificOutput"`
	}
	if err := hookiotest.Strict(line, &a); err != nil {
		return err
	}
	h := a.HookSpecificOutput
	if c, _ := h.ToolInput["command"].(string); h.HookEventName != "BeforeTool" || (a.Decision != "allow" && a.Decision != "ask") || c == "" {
		return errors.New("not a Gemini rewrite")
	}
	return nil
}

// TestDecisionTable pins the decision → Gemini decision table.
func TestDecisionTable(t *testing.T) {
	in := []byte(`{"tool_name":"run_shell_command","tool_input":{"command":"git status"}}`)
	rw := func(d string) string {
		return `{"decision":"` + d + `","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"gotk git status"}}}`
	}
	for _, c := range []struct {
		v    decision.Verdict
		p    permission.Verdict
		want string
	}{
		// core never rewrites an original Gemini's allow rules cover
		// (host.Answers.KeepAllowed); an allow rewrite is a plain allow
		{decision.AllowRewrite, permission.Allow, rw("allow")},
		{decision.AskRewrite, permission.Ask, rw("ask")},
		{decision.AskRewrite, permission.Default, rw("allow")},
		{decision.Deny, permission.Deny, `{"decision":"allow"}`},
		{decision.Passthrough, permission.Default, `{"decision":"allow"}`},
	} {
		if got := Handle(in, hookiotest.Stub{Verdict: c.v, Permission: c.p, Command: "gotk git status"}); string(got) != c.want {
			t.Errorf("%v/%v:\n got %s\nwant %s", c.v, c.p, got, c.want)
		}
	}
}
