package cursor

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

// seeds[0] is the benchmark's typical payload.
var seeds = []string{
	`{"conversation_id":"c1","generation_id":"g1","model":"claude-sonnet-4","hook_event_name":"preToolUse","cursor_version":"1.7","workspace_roots":["/tmp"],"tool_name":"Shell","tool_input":{"command":"git status","working_directory":"/tmp"},"tool_use_id":"abc123","cwd":"/tmp"}`,
	`{"tool_name":"Shell","tool_input":{"command":"git push && ls -la | head"}}`,
	`{"tool_name":"Shell","tool_input":{"command":"cat <<EOF\nx\nEOF"}}`,
}

// checkAnswer accepts only `{}` and the rewrite shape.
func checkAnswer(line []byte) error {
	if string(line) == "{}" {
		return nil
	}
	var a struct {
		Continue     bool           `json:"continue"`
		Permission   string         `json:"permission"`
		UpdatedInput map[string]any `json:"updated_input"`
	}
	if err := hookiotest.Strict(line, &a); err != nil {
		return err
	}
	if c, _ := a.UpdatedInput["command"].(string); !a.Continue || (a.Permission != "allow" && a.Permission != "ask") || c == "" {
		return errors.New("not a Cursor rewrite")
	}
	return nil
}

// TestPermissionTable pins the verdict → permission table.
func TestPermissionTable(t *testing.T) {
	in := []byte(`{"tool_name":"Shell","tool_input":{"command":"git status"}}`)
	for v, want := range map[decision.Verdict]string{
		decision.AllowRewrite: `{"continue":true,"permission":"allow","updated_input":{"command":"gotk git status"}}`,
		decision.AskRewrite:   `{"continue":true,"permission":"ask","updated_input":{"command":"gotk git status"}}`,
		decision.Deny:         `{}`,
		decision.Passthrough:  `{}`,
	} {
		if got := Handle(in, hookiotest.Stub{Verdict: v, Command: "gotk git status"}); string(got) != want {
			t.Errorf("%v:\n got %s\nwant %s", v, got, want)
		}
	}
	var got decision.Request
	Handle([]byte(`{"tool_name":"Shell","cwd":"/p","tool_input":{"command":"ls"}}`), hookiotest.Recorder(func(r decision.Request) { got = r }))
	if want := (decision.Request{Command: "ls", Cwd: "/p"}); !reflect.DeepEqual(got, want) {
		t.Errorf("request: got %+v, want %+v", got, want)
	}
}
