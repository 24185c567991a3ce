package copilot

import (
	"errors"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

// seeds[0] is the benchmark's typical payload.
var seeds = []string{
	`{"sessionId":"s1","timestamp":1704614600000,"cwd":"/tmp","toolName":"bash","toolArgs":"{\"command\":\"git status\",\"description\":\"Show status\"}"}`,
	`{"sessionId":"s1","timestamp":1704614600000,"cwd":"/tmp","toolName":"bash","toolArgs":{"command":"git status","description":"d"}}`,
	`{"hook_event_name":"PreToolUse","tool_name":"run_in_terminal","tool_input":{"command":"git status","explanation":"e","isBackground":false}}`,
	`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}`,
	`{"toolName":"run_in_terminal","toolArgs":"{\"command\":\"ls -la\"}"}`,
	`{"toolName":"powershell","toolArgs":{"command":"git status"}}`,
}

// checkAnswer accepts only the three answer shapes.
func checkAnswer(line []byte) error {
	var v struct {
		HookSpecificOutput *struct {
			HookEventName            string         `json:"hookEventName"`
			PermissionDecision       string         `json:"permissionDecision"`
			PermissionDecisionReason string         `json:"permissionDecisionReason"`
			UpdatedInput             map[string]any `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
		PermissionDecision       *string        `json:"permissionDecision"`
		PermissionDecisionReason string         `json:"permissionDecisionReason"`
		ModifiedArgs             map[string]any `json:"modifiedArgs"`
	}
	if err := hookiotest.Strict(line, &v); err != nil {
		return err
	}
	switch {
	case v.HookSpecificOutput != nil:
		h := v.HookSpecificOutput
		if c, _ := h.UpdatedInput["command"].(string); v.PermissionDecision != nil || v.ModifiedArgs != nil || h.HookEventName != "PreToolUse" || (h.PermissionDecision != "allow" && h.PermissionDecision != "ask") || c == "" {
			return errors.New("not a VS Code rewrite")
		}
	case v.ModifiedArgs != nil:
		if c, _ := v.ModifiedArgs["command"].(string); c == "" || (v.PermissionDecision != nil && *v.PermissionDecision != "allow") {
			return errors.New("not a Copilot CLI rewrite")
		}
	default:
		if v.PermissionDecision == nil || *v.PermissionDecision != "deny" || !strings.Contains(v.PermissionDecisionReason, "re-run it as `") {
			return errors.New("not a JetBrains suggestion")
		}
	}
	return nil
}

// TestDialects pins each dialect's answer per verdict.
func TestDialects(t *testing.T) {
	const r = "gotk: same command, compact output (rule git.status)"
	vs := func(pd string) string {
		why := r
		if pd == "ask" {
			why = "gotk: this command needs approval before it runs (same command, compact output, rule git.status)"
		}
		return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"` + pd + `","permissionDecisionReason":"` + why + `","updatedInput":{"command":"gotk git status","explanation":"e"}}}`
	}
	jb := "{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"gotk: the same command with compact output is available; re-run it as `gotk git status`\"}"
	for _, c := range []struct {
		in   string
		v    decision.Verdict
		want string
	}{
		{`{"tool_name":"run_in_terminal","tool_input":{"command":"git status","explanation":"e"}}`, decision.AllowRewrite, vs("allow")},
		{`{"tool_name":"run_in_terminal","tool_input":{"command":"git status","explanation":"e"}}`, decision.AskRewrite, vs("ask")},
		{`{"tool_name":"run_in_terminal","tool_input":{"command":"git status","explanation":"e"}}`, decision.Deny, ""},
		{`{"toolName":"bash","toolArgs":"{\"command\":\"git status\",\"description\":\"d\"}"}`, decision.AllowRewrite, `{"permissionDecision":"allow","permissionDecisionReason":"` + r + `","modifiedArgs":{"command":"gotk git status","description":"d"}}`},
		// the CLI answers only an allow: core allows only in a session
		// that runs every command (--allow-all-tools, no --deny-tool)
		{`{"toolName":"bash","toolArgs":{"command":"git status","description":"d"}}`, decision.AskRewrite, ""},
		{`{"toolName":"bash","toolArgs":{"command":"git status"}}`, decision.Deny, ""},
		{`{"toolName":"run_in_terminal","toolArgs":"{\"command\":\"git status\"}"}`, decision.AskRewrite, jb},
		{`{"toolName":"run_in_terminal","toolArgs":"{\"command\":\"git status\"}"}`, decision.AllowRewrite, jb},
		{`{"toolName":"run_in_terminal","toolArgs":"{\"command\":\"git status\"}"}`, decision.Deny, ""},
		{`{"toolName":"view","toolArgs":"{\"command\":\"git status\"}"}`, decision.AskRewrite, ""},
		{`{"tool_name":"read_file","tool_input":{"command":"git status"}}`, decision.AskRewrite, ""},
		{`{"toolName":"powershell","toolArgs":{"command":"git status"}}`, decision.AllowRewrite, `{"permissionDecision":"allow","permissionDecisionReason":"` + r + `","modifiedArgs":{"command":"gotk git status"}}`},
		{`{"toolName":"powershell","toolArgs":{"command":"git log --format='%s'"}}`, decision.AllowRewrite, ""},
		{`{"toolName":"powershell","toolArgs":{"command":"ls -la"}}`, decision.AllowRewrite, ""},
	} {
		if got := Handle([]byte(c.in), hookiotest.Stub{Verdict: c.v, Command: "gotk git status", Rule: "git.status"}); string(got) != c.want {
			t.Errorf("%s %v:\n got %s\nwant %s", c.in, c.v, got, c.want)
		}
	}
}
