package claude

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

// seeds[0] is the benchmark's typical payload.
var seeds = []string{
	`{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status","description":"Show working tree status"},"tool_use_id":"toolu_01ABC"}`,
	`{"tool_name":"Bash","tool_input":{"command":"git push && ls -la | head","timeout":5},"permission_mode":"bypassPermissions"}`,
	`{"tool_name":"Bash","tool_input":{"command":"cat <<EOF\nx\nEOF"}}`,
	`{"tool_name":"Bash","tool_input":{"command":"git status","command":"ls"}}`,
	`{"tool_name":"Bash","tool_input":{"command":"git log \ud800"}}`,
}

// checkAnswer accepts only the shape gotk-hook-claude may print.
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
	if c, _ := h.UpdatedInput["command"].(string); h.HookEventName != "PreToolUse" || (h.PermissionDecision != "allow" && h.PermissionDecision != "ask") || c == "" {
		return errors.New("not a Claude rewrite")
	}
	return nil
}

// TestPermissionTable pins the verdict → permissionDecision table.
func TestPermissionTable(t *testing.T) {
	in := []byte(`{"tool_name":"Bash","tool_input":{"command":"git status"}}`)
	for v, want := range map[decision.Verdict]string{
		decision.AllowRewrite: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"gotk: same command, compact output (rule git.status)","updatedInput":{"command":"gotk git status"}}}`,
		decision.AskRewrite:   `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"gotk: this command needs approval before it runs (same command, compact output, rule git.status)","updatedInput":{"command":"gotk git status"}}}`,
		decision.Deny:         ``,
		decision.Passthrough:  ``,
	} {
		if got := Handle(in, hookiotest.Stub{Verdict: v, Command: "gotk git status", Rule: "git.status"}); string(got) != want {
			t.Errorf("%v:\n got %s\nwant %s", v, got, want)
		}
	}
}

// TestRequest pins what the hook tells the engine for each permission mode.
func TestRequest(t *testing.T) {
	for mode, auto := range map[string]bool{"default": false, "plan": false, "acceptEdits": false, "dontAsk": false, "auto": false, "bypassPermissions": true, "": false} {
		var got decision.Request
		Handle([]byte(`{"tool_name":"Bash","cwd":"/p","permission_mode":"`+mode+`","tool_input":{"command":"ls"}}`), hookiotest.Recorder(func(r decision.Request) { got = r }))
		want := decision.Request{Command: "ls", Cwd: "/p", AutoAllow: auto, ReadOnlyAutoAllow: true}
		if mode == "acceptEdits" {
			want.ModeMayRun = []string{"mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("mode %q: got %+v, want %+v", mode, got, want)
		}
	}
}

// TestClassifierMode: in auto mode a classifier decides what no rule
// allows, and may review allowed shell commands too: gotk answers nothing,
// allow or ask, and Claude decides on the original.
func TestClassifierMode(t *testing.T) {
	in := []byte(`{"tool_name":"Bash","permission_mode":"auto","tool_input":{"command":"git status"}}`)
	for _, v := range []decision.Verdict{decision.AllowRewrite, decision.AskRewrite} {
		if out := Handle(in, hookiotest.Stub{Verdict: v, Command: "gotk git status", Rule: "git.status"}); len(out) != 0 {
			t.Errorf("%v in auto mode answered %s", v, out)
		}
	}
}

// TestDenyingMode: in dontAsk a rewrite that needs approval gets no answer,
// so that Claude denies the original itself; one Claude would run without
// asking is still rewritten.
func TestDenyingMode(t *testing.T) {
	for _, mode := range []string{"dontAsk", "default", "plan"} {
		in := []byte(`{"tool_name":"Bash","permission_mode":"` + mode + `","tool_input":{"command":"go test ./..."}}`)
		ask := Handle(in, hookiotest.Stub{Verdict: decision.AskRewrite, Command: "gotk go test ./...", Rule: "go.test"})
		if got, want := len(ask) == 0, mode == "dontAsk"; got != want {
			t.Errorf("%s: an ask rewrite answered %q", mode, ask)
		}
		if allow := Handle(in, hookiotest.Stub{Verdict: decision.AllowRewrite, Command: "gotk go test ./...", Rule: "go.test"}); checkAnswer(allow) != nil {
			t.Errorf("%s: an allowed rewrite answered %q", mode, allow)
		}
	}
}
