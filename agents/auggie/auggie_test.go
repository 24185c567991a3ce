package auggie

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

// seeds[0] is the benchmark's typical payload: what Auggie 0.36.0 sent
// its hook running offline against a fake of Augment's API
// (testdata/captured.txtar has it as sent, pretty-printed). The others
// are built from augment.mjs (the tool-event payload at byte ≈8155500;
// launch-process's input schema at ≈7585200).
var seeds = []string{
	`{"hook_event_name":"PreToolUse","conversation_id":"cf69e768-fd6b-42fd-8f1f-864328c0633e","workspace_roots":["/tmp/h31b/fake/ws"],"tool_name":"launch-process","tool_input":{"command":"git status","wait":true,"max_wait_seconds":60,"cwd":"/tmp/h31b/fake"},"tool_output":"[undefined]","tool_error":null,"is_mcp_tool":false}`,
	`{"hook_event_name":"PreToolUse","workspace_roots":[],"tool_name":"launch-process","tool_input":{"command":"git push && ls -la | head","wait":false,"max_wait_seconds":10,"cwd":".","keep_stdin_open":true},"is_mcp_tool":false}`,
	`{"hook_event_name":"PostToolUse","tool_name":"launch-process","tool_input":{"command":"cat <<EOF\nx\nEOF"}}`,
	`{"tool_name":"launch-process","tool_input":{"command":"git status","command":"ls"}}`,
}

// checkAnswer accepts only the shape gotk-hook-auggie may print: never a
// permissionDecision.
func checkAnswer(line []byte) error {
	var a struct {
		HookSpecificOutput struct {
			HookEventName string         `json:"hookEventName"`
			UpdatedInput  map[string]any `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := hookiotest.Strict(line, &a); err != nil {
		return err
	}
	h := a.HookSpecificOutput
	if c, _ := h.UpdatedInput["command"].(string); h.HookEventName != "PreToolUse" || c == "" {
		return errors.New("not an Auggie rewrite")
	}
	return nil
}

// TestVerdicts: an allow and an ask rewrite get the same answer, with no
// decision (Auggie's allow skips no prompt); deny and passthrough nothing.
func TestVerdicts(t *testing.T) {
	in := []byte(seeds[0])
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"/g/gotk git status","wait":true,"max_wait_seconds":60,"cwd":"/tmp/h31b/fake"}}}`
	for v, want := range map[decision.Verdict]string{
		decision.AllowRewrite: want,
		decision.AskRewrite:   want,
		decision.Deny:         ``,
		decision.Passthrough:  ``,
	} {
		if got := Handle(in, hookiotest.Stub{Verdict: v, Command: "/g/gotk git status", Rule: "git.status"}); string(got) != want {
			t.Errorf("%v:\n got %s\nwant %s", v, got, want)
		}
	}
}

// TestWholeInput: updatedInput replaces Auggie's whole tool input, so every
// member the model sent comes back, in order, with only the command changed.
func TestWholeInput(t *testing.T) {
	got := Handle([]byte(seeds[1]), hookiotest.Stub{Verdict: decision.AskRewrite, Command: "gotk git push && gotk ls -la | head"})
	var a struct {
		HookSpecificOutput struct {
			UpdatedInput json.RawMessage `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	want := `{"command":"gotk git push && gotk ls -la | head","wait":false,"max_wait_seconds":10,"cwd":".","keep_stdin_open":true}`
	if string(a.HookSpecificOutput.UpdatedInput) != want {
		t.Errorf("updatedInput %s, want %s", a.HookSpecificOutput.UpdatedInput, want)
	}
}

// TestRequest: the rules are read from the workspace root, else from an
// absolute tool cwd.
func TestRequest(t *testing.T) {
	for _, c := range []struct{ in, cwd string }{
		{seeds[0], "/tmp/h31b/fake/ws"},
		{`{"tool_name":"launch-process","workspace_roots":["/w"],"tool_input":{"command":"git status","cwd":"/elsewhere"}}`, "/w"},
		{`{"tool_name":"launch-process","tool_input":{"command":"git status","cwd":"/c"}}`, "/c"},
		{`{"tool_name":"launch-process","workspace_roots":["rel"],"tool_input":{"command":"git status","cwd":"sub"}}`, ""},
	} {
		var reqs []decision.Request
		Handle([]byte(c.in), hookiotest.Recorder(func(r decision.Request) { reqs = append(reqs, r) }))
		if len(reqs) != 1 || reqs[0].Cwd != c.cwd {
			t.Errorf("%s: requests %+v, want cwd %q", c.in, reqs, c.cwd)
		}
	}
}

// TestNotOurs: another tool, an MCP tool, another event: nothing asked.
func TestNotOurs(t *testing.T) {
	for _, in := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"view","tool_input":{"command":"git status"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"launch-process","tool_input":{"command":"git status"},"is_mcp_tool":true}`,
		`{"hook_event_name":"PostToolUse","tool_name":"launch-process","tool_input":{"command":"git status"}}`,
		`{"hook_event_name":7,"tool_name":"launch-process","tool_input":{"command":"git status"}}`,
	} {
		n := 0
		if got := Handle([]byte(in), hookiotest.Recorder(func(decision.Request) { n++ })); got != nil || n != 0 {
			t.Errorf("%s: %s, %d requests", in, got, n)
		}
	}
}
