package e2e

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The test hook's answers are the documented rewrite forms of
// docs/e2e.md; this pins them without running any agent.
func TestTestHookAnswer(t *testing.T) {
	rw := Rewritten("git status")
	tests := []struct {
		dialect, in string
		want        string // JSON, "" = no output
	}{
		{"claude",
			`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status","description":"d"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"e2e test hook rewrite","updatedInput":{"command":` + q(rw) + `,"description":"d"}}}`},
		{"codex",
			`{"tool_name":"Bash","tool_input":{"command":"git status"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"e2e test hook rewrite","updatedInput":{"command":` + q(rw) + `}}}`},
		{"gemini",
			`{"tool_name":"run_shell_command","tool_input":{"command":"git status","description":"d"}}`,
			`{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":` + q(rw) + `,"description":"d"}}}`},
		{"copilot",
			`{"toolName":"bash","toolArgs":{"command":"git status","description":"d"}}`,
			`{"permissionDecision":"allow","permissionDecisionReason":"e2e test hook rewrite","modifiedArgs":{"command":` + q(rw) + `,"description":"d"}}`},
		{"copilot", // older builds send toolArgs as a JSON string
			`{"toolName":"bash","toolArgs":"{\"command\":\"git status\"}"}`,
			`{"permissionDecision":"allow","permissionDecisionReason":"e2e test hook rewrite","modifiedArgs":{"command":` + q(rw) + `}}`},
		{"cline",
			`{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["git status",{"command":"ls"}]}}}`,
			`{"overrideInput":{"commands":[` + q(rw) + `,{"command":"ls"}]}}`},
		{"cline", `{"hookName":"tool_result","tool_call":{"name":"run_commands","input":{"commands":["git status"]}}}`, ""},
		{"crush",
			`{"event":"PreToolUse","tool_name":"bash","tool_input":{"command":"git status","description":"d"}}`,
			`{"decision":"allow","updated_input":{"command":` + q(rw) + `}}`},
		{"claude", `{"tool_name":"Read","tool_input":{"file_path":"x"}}`, ""},
		{"claude", `not json`, ""},
		{"unknown", `{"tool_input":{"command":"ls"}}`, ""},
	}
	for _, tt := range tests {
		got := testHookAnswer(tt.dialect, []byte(tt.in))
		if tt.want == "" {
			if got != nil {
				t.Errorf("%s %s: got %s, want no output", tt.dialect, tt.in, got)
			}
			continue
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%s: bad JSON %s", tt.dialect, got)
		}
		_ = json.Unmarshal([]byte(tt.want), &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s %s:\n got %s\nwant %s", tt.dialect, tt.in, got, tt.want)
		}
	}
}

func TestRewrittenQuotes(t *testing.T) {
	if got, want := Rewritten("echo 'a b'"), `echo 'REWRITTEN:echo '\''a b'\'''`; got != want {
		t.Fatalf("Rewritten = %s, want %s", got, want)
	}
}

func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
