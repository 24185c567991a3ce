package crush

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

// seeds[0] is the benchmark's typical payload: what Crush sends
// (charmbracelet/crush 37f36e9, internal/hooks/input.go).
var seeds = []string{
	`{"event":"PreToolUse","session_id":"313909e","cwd":"/tmp","tool_name":"bash","tool_input":{"command":"git status","description":"Show the working tree status"}}`,
	`{"event":"PreToolUse","tool_name":"bash","tool_input":{"command":"git push && ls -la | head","run_in_background":false}}`,
	`{"event":"PreToolUse","tool_name":"bash","tool_input":{"command":"cat <<EOF\nx\nEOF"}}`,
	`{"event":"PreToolUse","tool_name":"bash","tool_input":{"command":"git status","command":"ls"}}`,
}

// checkAnswer accepts only the shape gotk-hook-crush may print.
func checkAnswer(line []byte) error {
	var a struct {
		Version      int            `json:"version"`
		Decision     string         `json:"decision"`
		Reason       string         `json:"reason"`
		UpdatedInput map[string]any `json:"updated_input"`
	}
	if err := hookiotest.Strict(line, &a); err != nil {
		return err
	}
	if c, _ := a.UpdatedInput["command"].(string); a.Version != 1 || (a.Decision != "allow" && a.Decision != "") || c == "" || len(a.UpdatedInput) != 1 {
		return errors.New("not a Crush rewrite")
	}
	return nil
}

func TestVerdicts(t *testing.T) {
	in := []byte(seeds[0])
	for v, want := range map[decision.Verdict]string{
		decision.AllowRewrite: `{"version":1,"decision":"allow","reason":"gotk: same command, compact output (rule git.status)","updated_input":{"command":"gotk git status"}}`,
		decision.AskRewrite:   `{"version":1,"updated_input":{"command":"gotk git status"}}`,
		decision.Deny:         ``,
		decision.Passthrough:  ``,
	} {
		if got := Handle(in, hookiotest.Stub{Verdict: v, Command: "gotk git status", Rule: "git.status"}); string(got) != want {
			t.Errorf("%v:\n got %s\nwant %s", v, got, want)
		}
	}
}

func TestRequest(t *testing.T) {
	var got decision.Request
	Handle([]byte(`{"event":"PreToolUse","cwd":"/p","tool_name":"bash","tool_input":{"command":"ls"}}`), hookiotest.Recorder(func(r decision.Request) { got = r }))
	if want := (decision.Request{Command: "ls", Cwd: "/p"}); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
