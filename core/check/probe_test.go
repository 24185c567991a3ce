package check

import (
	"strings"
	"testing"
)

// TestJudge: the rewritten command is read from each dialect's answer, the
// no-op is "", and an answer no agent could use is an error.
func TestJudge(t *testing.T) {
	for _, c := range []struct {
		agent, out, cmd, err string
	}{
		{"claude", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"gotk git status"}}}`, "gotk git status", ""},
		{"cursor", `{"permission":"ask","updated_input":{"command":"gotk git status"}}` + "\n", "gotk git status", ""},
		{"cursor", `{}`, "", ""},
		{"gemini", `{"decision":"allow"}`, "", ""},
		{"vibe", `{"hook_specific_output":{"tool_input":{"command":"gotk git status"}}}`, "gotk git status", ""},
		{"copilot", ``, "", ""},
		{"copilot", `{"permissionDecision":"allow","modifiedArgs":{"command":"gotk git status"}}`, "gotk git status", ""},
		{"droid", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"gotk git status","riskLevel":"low"}}}`, "gotk git status", ""},
		{"crush", `{"version":1,"decision":"allow","updated_input":{"command":"gotk git status"}}`, "gotk git status", ""},
		{"cline", `{"overrideInput":{"commands":["gotk git status"]}}`, "gotk git status", ""},
		{"cline", `{"overrideInput":{"commands":[]}}`, "", ""},
		{"cline", `{"overrideInput":{"commands":"gotk git status"}}`, "", ""},
		{"claude", `not json`, "", "not JSON"},
		{"claude", "{}\n{}", "", "more than one line"},
		{"claude", `{"hookSpecificOutput":{"updatedInput":{"command":7}}}`, "", "not a string"},
	} {
		cmd, err := judge(probeOf(c.agent), []byte(c.out))
		if cmd != c.cmd || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s %q: got %q, %v; want %q, %q", c.agent, c.out, cmd, err, c.cmd, c.err)
		}
	}
}

// TestWant: a rewrite is `gotk <command>`; Codex's names an executable gotk
// by absolute path.
func TestWant(t *testing.T) {
	exec := func(p string) bool { return p == "/opt/gotk/gotk" || p == "/opt/my gotk/gotk" }
	for _, c := range []struct {
		agent, cmd string
		ok         bool
	}{
		{"claude", "gotk git status", true},
		{"claude", "gotk git log", false},
		{"claude", "rtk git status", false},
		{"codex", "/opt/gotk/gotk ls", true},
		{"codex", "'/opt/my gotk/gotk' ls", true},
		{"codex", "gotk ls", false},
		{"codex", "  ", false},
		{"codex", "'unclosed ls", false},
		{"codex", "/nonexistent/gotk ls", false},
	} {
		if err := want(probeOf(c.agent), c.cmd, exec); (err == nil) != c.ok {
			t.Errorf("%s %q: %v", c.agent, c.cmd, err)
		}
	}
}
