package discover

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAuggieOutput: the framing Auggie 0.36.0 puts around a command's
// result comes off, and its return code is the exit status; anything else
// (a refusal, a changed framing) is kept whole with no status.
func TestAuggieOutput(t *testing.T) {
	for _, tt := range []struct {
		in, out string
		exit    int
	}{
		{"Here are the results from executing the command.\n<return-code>\n0\n</return-code>\n<output>\nhi\n\n</output>", "hi\n", 0},
		{"Here are the results from executing the command.\n<return-code>\n128\n</return-code>\n<output>\nfatal: not a git repository\n\n</output>", "fatal: not a git repository\n", 128},
		{"Here are the results from executing the command.\n<return-code>\n0\n</return-code>\n<output>\n\n</output>", "", 0},
		{"Here are the results from executing the command.\n<return-code>\n0\n</return-code>\n<output>\na\n</output>\nb\n\n</output>", "a\n</output>\nb\n", 0},
		{"Tool execution denied: launch-process\n Denied by explicit rule", "Tool execution denied: launch-process\n Denied by explicit rule", -1},
	} {
		out, exit := auggieOutput(tt.in)
		if out != tt.out || exit != tt.exit {
			t.Errorf("auggieOutput(%q) = %q, %d; want %q, %d", tt.in, out, exit, tt.out, tt.exit)
		}
	}
}

// TestAuggieRefused: a call Auggie's toolPermissions refused never ran, so
// it is counted apart, never as missed; a call whose input is not JSON is
// counted malformed; results pair with their calls by id.
func TestAuggieRefused(t *testing.T) {
	home := t.TempDir()
	sess := `{"sessionId":"s1","chatHistory":[
 {"exchange":{"request_id":"r1","request_nodes":[{"type":0,"text_node":{"content":"go"}}],"response_nodes":[
  {"type":5,"tool_use":{"tool_use_id":"a","tool_name":"launch-process","input_json":"{\"command\":\"git status\",\"cwd\":\"/p\"}"}},
  {"type":5,"tool_use":{"tool_use_id":"b","tool_name":"launch-process","input_json":"{\"command\":\"git diff\",\"cwd\":\"/p\"}"}},
  {"type":5,"tool_use":{"tool_use_id":"c","tool_name":"launch-process","input_json":"not json"}},
  {"type":10,"token_usage":{"input_tokens":3,"output_tokens":20,"cache_read_input_tokens":100,"cache_creation_input_tokens":7}}]},
  "finishedAt":"2026-12-02T10:00:00Z"},
 {"exchange":{"request_id":"r2","request_nodes":[
  {"type":1,"tool_result_node":{"tool_use_id":"b","content":"Tool execution denied: launch-process\n Denied by explicit rule","is_error":true}},
  {"type":1,"tool_result_node":{"tool_use_id":"a","content":"Here are the results from executing the command.\n<return-code>\n0\n</return-code>\n<output>\n## main\n\n</output>","is_error":false}}],
  "response_nodes":[{"type":10,"token_usage":{"input_tokens":3,"output_tokens":20,"cache_read_input_tokens":110,"cache_creation_input_tokens":9}}]},
  "finishedAt":"2026-12-02T10:00:01Z"}]}`
	p := filepath.Join(home, ".augment", "sessions", "s1.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(sess), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := Scan(Options{Env: Env{Home: home, Getenv: func(string) string { return "" }}, Agents: []string{"auggie"}, Workers: 1})
	a := rep.Agents["auggie"]
	if a.Calls != 1 || a.NotRun != 1 {
		t.Errorf("calls %d, not run %d; want 1 and 1", a.Calls, a.NotRun)
	}
	if len(rep.Missed) != 1 || rep.Missed[0].Command != "git status" {
		t.Errorf("missed %+v, want git status alone", rep.Missed)
	}
	if st := rep.Scanned; st.Files != 1 || st.Malformed != 1 || st.Skipped > st.Records {
		t.Errorf("scanned %+v: want 1 file, 1 malformed record", st)
	}
}
