package droid

import (
	"errors"
	"reflect"
	"regexp"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

// seeds[0] is the benchmark's typical payload: what droid 0.225.2 sent in
// `droid exec` (e2e/testhook.go logs it).
var seeds = []string{
	`{"session_id":"825c2016","transcript_path":"/home/u/.factory/sessions/p/825c2016.jsonl","cwd":"/tmp","permission_mode":"auto-low","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"git status","riskLevel":"low","riskLevelReason":"reads","summary":"Show status"}}`,
	`{"tool_name":"Execute","permission_mode":"auto-high","tool_input":{"command":"git push && ls -la | head","riskLevel":"high"}}`,
	`{"tool_name":"Execute","permission_mode":"off","tool_input":{"command":"cat <<EOF\nx\nEOF","riskLevel":"medium"}}`,
	`{"tool_name":"Execute","tool_input":{"command":"git status","command":"ls"}}`,
}

// checkAnswer accepts only the shape gotk-hook-droid may print.
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
		return errors.New("not a Droid rewrite")
	}
	return nil
}

// TestVerdicts: a rewrite is an allow or nothing.
func TestVerdicts(t *testing.T) {
	in := []byte(`{"tool_name":"Execute","tool_input":{"command":"git status","riskLevel":"low"}}`)
	for v, want := range map[decision.Verdict]string{
		decision.AllowRewrite: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"gotk: same command, compact output (rule git.status)","updatedInput":{"command":"gotk git status","riskLevel":"low"}}}`,
		decision.AskRewrite:   ``,
		decision.Deny:         ``,
		decision.Passthrough:  ``,
	} {
		if got := Handle(in, hookiotest.Stub{Verdict: v, Command: "gotk git status", Rule: "git.status"}); string(got) != want {
			t.Errorf("%v:\n got %s\nwant %s", v, got, want)
		}
	}
}

// TestRequest pins AutoAllow: the model's risk level within the session's
// autonomy.
func TestRequest(t *testing.T) {
	for _, c := range []struct {
		mode, risk string
		auto       bool
	}{
		{"auto-low", `"low"`, true}, {"auto-low", `"medium"`, false}, {"auto-medium", `"medium"`, true},
		{"auto-medium", `"high"`, false}, {"auto-high", `"high"`, true}, {"auto-high", `" HIGH "`, true},
		{"auto-high", `null`, true}, {"auto-medium", `null`, false}, {"auto-high", `"extreme"`, true},
		{"off", `"low"`, false}, {"spec", `"low"`, false}, {"", `"low"`, false}, {"bypassPermissions", `"low"`, false},
	} {
		var got decision.Request
		Handle([]byte(`{"tool_name":"Execute","cwd":"/p","permission_mode":"`+c.mode+`","tool_input":{"command":"ls","riskLevel":`+c.risk+`}}`),
			hookiotest.Recorder(func(r decision.Request) { got = r }))
		if want := (decision.Request{Command: "ls", Cwd: "/p", AutoAllow: c.auto}); !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s: got %+v, want %+v", c.mode, c.risk, got, want)
		}
	}
}

// TestCommandRegex: the hook is called for every command gotk may
// rewrite (Go's regexp and JavaScript agree on this expression).
func TestCommandRegex(t *testing.T) {
	re := regexp.MustCompile(CommandRegex())
	for cmd, want := range map[string]bool{
		"git status": true, "timeout 5 go test ./...": true, "/usr/bin/git status": true, "npx tsc --noEmit": true,
		"python -m pytest -q": true, "cd x && cargo build": true, "FOO=1 make": true, "ls": true,
		"echo hi": false, "cargo-nextest run": true, "gotk git status": true, "pwd": false, "python x.py": false,
	} {
		if got := re.MatchString(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}
