package main

import (
	"errors"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
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

// TestAskMapping pins when an Ask rewrite is answered: only for commands
// Codex itself runs without asking.
func TestAskMapping(t *testing.T) {
	rw := func(cmd string) string {
		return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"gotk: same command, compact output (rule r)","updatedInput":{"command":` + string(hookio.Raw("/g "+cmd)) + `}}}`
	}
	for _, c := range []struct {
		v    decision.Verdict
		cmd  string
		want bool
	}{
		{decision.AllowRewrite, "git push", true}, // only reachable in bypassPermissions
		{decision.AskRewrite, "ls -la", true},
		{decision.AskRewrite, "ls -la && grep -rn x . | head -5", true},
		{decision.AskRewrite, "git status", false}, // Codex asks about git
		{decision.AskRewrite, "find . -name x -delete", false},
		{decision.AskRewrite, "rg --pre=cat x", false},
		{decision.AskRewrite, "ls > out", false},
		{decision.AskRewrite, "ls $HOME", false},
		{decision.AskRewrite, "ls *.go", false},
		{decision.AskRewrite, "(ls)", false},
		{decision.AskRewrite, "ls &", false},
		{decision.AskRewrite, "X=1 ls", false},
		{decision.AskRewrite, "cat 'a b' \"c\"", true},
		{decision.Deny, "ls", false},
		{decision.Passthrough, "ls", false},
	} {
		in := []byte(`{"tool_name":"Bash","permission_mode":"default","tool_input":{"command":` + string(hookio.Raw(c.cmd)) + `}}`)
		got := string(Handle(in, hookiotest.Stub{Verdict: c.v, Command: "/g " + c.cmd, Rule: "r"}))
		want := ""
		if c.want {
			want = rw(c.cmd)
		}
		if got != want {
			t.Errorf("%v %q:\n got %s\nwant %s", c.v, c.cmd, got, want)
		}
	}
}
