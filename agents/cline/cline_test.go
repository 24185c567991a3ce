package cline

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

// seeds[0] is the benchmark's typical payload: what Cline CLI 3.0.65 sent
// (e2e/testhook.go logs it).
var seeds = []string{
	`{"clineVersion":"","hookName":"tool_call","timestamp":"2026-12-01T00:00:00.000Z","taskId":"conv_1","workspaceRoots":["/tmp"],"userId":"u","agent_id":"agent_1","parent_agent_id":null,"iteration":1,"tool_call":{"id":"call_1","name":"run_commands","input":{"commands":["git status"]}},"preToolUse":{"toolName":"run_commands","parameters":{"commands":"[\"git status\"]"}}}`,
	`{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["git push && ls -la | head","echo hi",{"command":"git","args":["status"]}]}}}`,
	`{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["cat <<EOF","git status","EOF"]}}}`,
	`{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":"git status"}}}`,
	`{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["git status"],"commands":["ls"]}}}`,
}

// checkAnswer accepts only the shape gotk-hook-cline may print.
func checkAnswer(line []byte) error {
	var a struct {
		OverrideInput map[string]json.RawMessage `json:"overrideInput"`
	}
	if err := hookiotest.Strict(line, &a); err != nil {
		return err
	}
	c, ok := a.OverrideInput["commands"]
	if !ok {
		return errors.New("not a Cline rewrite: no overrideInput.commands")
	}
	var one string
	var list []json.RawMessage
	if json.Unmarshal(c, &one) != nil && (json.Unmarshal(c, &list) != nil || len(list) == 0) {
		return errors.New("not a Cline rewrite: commands is neither a string nor a list")
	}
	return nil
}

// fake rewrites exactly the commands in its map, each to its value.
type fake map[string]string

func (f fake) Decide(r decision.Request) decision.Decision {
	if rw, ok := f[r.Command]; ok {
		return decision.Decision{Verdict: decision.AskRewrite, Command: rw}
	}
	return decision.Decision{Verdict: decision.Passthrough, Command: r.Command}
}

var rewrites = fake{"git status": "gotk git status", "git log": "gotk git log", "cargo test": "gotk cargo test"}

func TestHandle(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"one", `{"hookName":"tool_call","workspaceRoots":["/p"],"tool_call":{"name":"run_commands","input":{"commands":["git status"]}}}`,
			`{"overrideInput":{"commands":["gotk git status"]}}`},
		{"each entry alone, the others byte for byte", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"x":1,"commands":["echo \u0041", "git status" ,{"command":"git","args":["log"]},"git log"],"z":[2]}}}`,
			`{"overrideInput":{"x":1,"commands":["echo \u0041","gotk git status",{"command":"git","args":["log"]},"gotk git log"],"z":[2]}}`},
		{"nothing to rewrite", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["echo hi","ls"]}}}`, ``},
		{"a string", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":"git status"}}}`,
			`{"overrideInput":{"commands":"gotk git status"}}`},
		{"heredoc body entries", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["cat <<EOF","git status","  EOF ","git log"]}}}`,
			`{"overrideInput":{"commands":["cat <<EOF","git status","  EOF ","gotk git log"]}}`},
		{"quoted delimiter, <<-", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["cat <<-'END' >f","git status","END"]}}}`, ``},
		{"<<< is no heredoc", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["cat <<<EOF","git status","EOF"]}}}`,
			`{"overrideInput":{"commands":["cat <<<EOF","gotk git status","EOF"]}}`},
		{"no closing delimiter", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["cat <<EOF","git status"]}}}`,
			`{"overrideInput":{"commands":["cat <<EOF","gotk git status"]}}`},
		{"a structured entry ends the run", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["cat <<EOF",{"command":"ls"},"git status","EOF"]}}}`,
			`{"overrideInput":{"commands":["cat <<EOF",{"command":"ls"},"gotk git status","EOF"]}}`},
		{"the last of duplicate keys", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["ls"],"commands":["git status"]}}}`,
			`{"overrideInput":{"commands":["gotk git status"],"commands":["gotk git status"]}}`},
		{"lone surrogate", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["git status \ud800"]}}}`, ``},
		{"other tool", `{"hookName":"tool_call","tool_call":{"name":"read_files","input":{"commands":["git status"]}}}`, ``},
		{"other hook", `{"hookName":"tool_result","tool_call":{"name":"run_commands","input":{"commands":["git status"]}}}`, ``},
		{"no commands", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"command":"git status"}}}`, ``},
		{"commands not a list", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":{"a":"git status"}}}}`, ``},
		{"input not an object", `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":["git status"]}}`, ``},
	} {
		if got := Handle([]byte(c.in), rewrites); string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestRequest pins what the hook tells the engine: each command, in the
// session's working directory (its only workspace root).
func TestRequest(t *testing.T) {
	var got []decision.Request
	Handle([]byte(`{"hookName":"tool_call","workspaceRoots":["/p","/q"],"tool_call":{"name":"run_commands","input":{"commands":["ls","git status"]}}}`),
		hookiotest.Recorder(func(r decision.Request) { got = append(got, r) }))
	want := []decision.Request{{Command: "ls", Cwd: "/p"}, {Command: "git status", Cwd: "/p"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestVerdicts(t *testing.T) {
	in := []byte(seeds[0])
	rw := `{"overrideInput":{"commands":["gotk git status"]}}`
	for v, want := range map[decision.Verdict]string{decision.AllowRewrite: rw, decision.AskRewrite: rw, decision.Deny: "", decision.Passthrough: ""} {
		if got := Handle(in, hookiotest.Stub{Verdict: v, Command: "gotk git status"}); string(got) != want {
			t.Errorf("%v:\n got %s\nwant %s", v, got, want)
		}
	}
}

func TestHeredocDelimiter(t *testing.T) {
	for s, want := range map[string]string{
		"cat <<EOF": "EOF", "cat <<-EOF": "EOF", "cat << 'A B'": "A B", `cat <<"X"`: "X", "cat <<--x": "-x",
		"cat <<<x": "", "cat <<": "", `cat <<"" <<Y`: "Y", "a<<b.c/d-e_f": "b.c/d-e_f", "cat <<$x": "",
	} {
		got, ok := heredocDelimiter(s)
		if got != want || ok != (want != "") {
			t.Errorf("%q: got %q %v, want %q", s, got, ok, want)
		}
	}
}
