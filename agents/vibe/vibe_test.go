package vibe

import (
	"errors"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

// seeds[0] is the benchmark's typical payload.
var seeds = []string{
	`{"session_id":"s1","parent_session_id":null,"transcript_path":"/home/u/.vibe/s1.jsonl","cwd":"/tmp","hook_event_name":"pre_tool","tool_name":"bash","tool_call_id":"c1","tool_input":{"command":"git status","timeout":null}}`,
	`{"tool_name":"bash","tool_input":{"command":"git push && ls -la | head"}}`,
	`{"tool_name":"bash","tool_input":{"command":"cat <<EOF\nx\nEOF"}}`,
}

// checkAnswer accepts only the rewrite shape.
func checkAnswer(line []byte) error {
	var a struct {
		HookSpecificOutput struct {
			ToolInput map[string]any `json:"tool_input"`
		} `json:"hook_specific_output"`
		SystemMessage string `json:"system_message"`
	}
	if err := hookiotest.Strict(line, &a); err != nil {
		return err
	}
	if c, _ := a.HookSpecificOutput.ToolInput["command"].(string); c == "" || !strings.HasPrefix(a.SystemMessage, "gotk: rewrote to `") {
		return errors.New("not a Vibe rewrite")
	}
	return nil
}

// TestVerdicts pins the verdict → answer table.
func TestVerdicts(t *testing.T) {
	in := []byte(`{"tool_name":"bash","tool_input":{"command":"git status","timeout":null}}`)
	rw := `{"hook_specific_output":{"tool_input":{"command":"gotk git status","timeout":null}},"system_message":"gotk: rewrote to ` + "`gotk git status`" + `"}`
	for v, want := range map[decision.Verdict]string{decision.AllowRewrite: rw, decision.AskRewrite: rw, decision.Deny: "", decision.Passthrough: ""} {
		if got := Handle(in, hookiotest.Stub{Verdict: v, Command: "gotk git status"}); string(got) != want {
			t.Errorf("%v:\n got %s\nwant %s", v, got, want)
		}
	}
	long := "x" + strings.Repeat("é", 300) // an odd cut would split a rune
	got := Handle(in, hookiotest.Stub{Verdict: decision.AskRewrite, Command: long})
	if checkAnswer(got) != nil || strings.ContainsRune(string(got), '\uFFFD') {
		t.Errorf("long command: %s", got)
	}
}
