package fakemodel

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// post sends body to the server and returns the response body.
func post(t *testing.T, s *Server, path, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(s.URL()+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// sseData returns the JSON payloads of an SSE body, [DONE] left out.
func sseData(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "data: ") || line == "data: [DONE]" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m); err != nil {
			t.Fatalf("bad SSE data %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// dig walks a decoded JSON value by map keys and slice indexes.
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			s, _ := v.([]any)
			if k >= len(s) {
				return nil
			}
			v = s[k]
		}
	}
	return v
}

func decodeArgs(t *testing.T, s any) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s.(string)), &m); err != nil {
		t.Fatalf("arguments %v: %v", s, err)
	}
	return m
}

const bashSchema = `{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"},"timeout":{"type":"number"}},"required":["command"]}`

func TestAnthropicStreamingCallThenText(t *testing.T) {
	s := New(Script{Commands: []string{"git status"}})
	defer s.Close()

	first := `{"model":"claude-x","stream":true,"messages":[{"role":"user","content":"check status"}],
		"tools":[{"name":"Read","input_schema":{}},{"name":"Bash","input_schema":` + bashSchema + `}]}`
	code, body := post(t, s, "/v1/messages", first)
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	events := sseData(t, body)
	types := []string{}
	for _, e := range events {
		types = append(types, e["type"].(string))
	}
	want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if !reflect.DeepEqual(types, want) {
		t.Fatalf("events %v, want %v", types, want)
	}
	if got := dig(events[1], "content_block", "name"); got != "Bash" {
		t.Fatalf("tool %v, want Bash", got)
	}
	args := decodeArgs(t, dig(events[2], "delta", "partial_json"))
	if args["command"] != "git status" || args["description"] == nil {
		t.Fatalf("args %v", args)
	}
	if got := dig(events[4], "delta", "stop_reason"); got != "tool_use" {
		t.Fatalf("stop_reason %v", got)
	}

	second := `{"model":"claude-x","stream":true,"messages":[{"role":"user","content":"check status"},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2e_1","name":"Bash","input":{"command":"git status"}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e2e_1","content":[{"type":"text","text":"On branch main"}]}]}],
		"tools":[{"name":"Bash","input_schema":` + bashSchema + `}]}`
	_, body = post(t, s, "/v1/messages", second)
	events = sseData(t, body)
	if got := dig(events[2], "delta", "text"); got != "done" {
		t.Fatalf("second answer %v, want done", got)
	}
	res := s.ToolResults()
	if len(res) != 1 || res[0].Text != "On branch main" || res[0].Tool != "Bash" {
		t.Fatalf("ToolResults = %+v", res)
	}
	if s.CallsIssued() != 1 {
		t.Fatalf("CallsIssued = %d", s.CallsIssued())
	}
}

func TestAnthropicNonStreamingAndSideRequests(t *testing.T) {
	s := New(Script{Commands: []string{"ls"}})
	defer s.Close()
	// A side request without tools (titles, topic checks) gets text.
	_, body := post(t, s, "/v1/messages", `{"model":"haiku","messages":[{"role":"user","content":"title?"}]}`)
	var m map[string]any
	_ = json.Unmarshal([]byte(body), &m)
	if dig(m, "content", 0, "text") != "done" || m["stop_reason"] != "end_turn" {
		t.Fatalf("side answer %s", body)
	}
	_, body = post(t, s, "/v1/messages/count_tokens", `{"messages":[]}`)
	if !strings.Contains(body, `"input_tokens"`) {
		t.Fatalf("count_tokens: %s", body)
	}
	code, _ := post(t, s, "/v1/unknown", `{}`)
	if code != 404 {
		t.Fatalf("unknown path: %d", code)
	}
	reqs := s.Requests()
	if len(reqs) != 3 || reqs[2].Reply != "404" || reqs[0].API != Anthropic {
		t.Fatalf("recorded %+v", reqs)
	}
	if !strings.Contains(s.Summary(), "/v1/unknown") {
		t.Fatalf("summary lacks the unknown path:\n%s", s.Summary())
	}
}

func TestGemini(t *testing.T) {
	s := New(Script{Commands: []string{"git status"}})
	defer s.Close()
	tools := `"tools":[{"functionDeclarations":[{"name":"read_file","parametersJsonSchema":{}},
		{"name":"run_shell_command","parametersJsonSchema":` + bashSchema + `}]}]`

	_, body := post(t, s, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		`{"contents":[{"role":"user","parts":[{"text":"check status"}]}],`+tools+`}`)
	events := sseData(t, body)
	if len(events) != 1 {
		t.Fatalf("events: %s", body)
	}
	fc := dig(events[0], "candidates", 0, "content", "parts", 0, "functionCall")
	if dig(fc, "name") != "run_shell_command" || dig(fc, "args", "command") != "git status" {
		t.Fatalf("functionCall %v", fc)
	}

	// Gemini CLI's "who speaks next" check asks for JSON by schema.
	_, body = post(t, s, "/v1beta/models/gemini-2.5-flash:generateContent",
		`{"contents":[],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":
		{"type":"object","properties":{"reasoning":{"type":"string"},"next_speaker":{"type":"string","enum":["model","user"]}},"required":["reasoning","next_speaker"]}}}`)
	var m map[string]any
	_ = json.Unmarshal([]byte(body), &m)
	var js map[string]any
	if err := json.Unmarshal([]byte(dig(m, "candidates", 0, "content", "parts", 0, "text").(string)), &js); err != nil || js["next_speaker"] != "user" {
		t.Fatalf("structured answer %s (%v)", body, err)
	}

	// The result comes back without an ID: the shell tool's name is enough.
	_, body = post(t, s, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		`{"contents":[{"role":"user","parts":[{"text":"check status"}]},
		{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{"command":"git status"}}}]},
		{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"Output: On branch main"}}}]}],`+tools+`}`)
	if got := dig(sseData(t, body)[0], "candidates", 0, "content", "parts", 0, "text"); got != "done" {
		t.Fatalf("after result: %v", got)
	}
	if res := s.ToolResults(); len(res) != 1 || res[0].Text != "Output: On branch main" {
		t.Fatalf("ToolResults = %+v", res)
	}
	_, body = post(t, s, "/v1beta/models/gemini-2.5-flash:countTokens", `{}`)
	if !strings.Contains(body, "totalTokens") {
		t.Fatalf("countTokens: %s", body)
	}
}

func TestChatCompletionsSequence(t *testing.T) {
	s := New(Script{Commands: []string{"echo hi", "git log > out.txt"}, FinalText: "all done"})
	defer s.Close()
	tools := `"tools":[{"type":"function","function":{"name":"read","parameters":{}}},
		{"type":"function","function":{"name":"bash","parameters":{"type":"object","properties":{"command":{"type":"string"},"timeout":{"type":"number"}},"required":["command"]}}}]`

	// A title request without tools does not use up a call.
	_, body := post(t, s, "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"title"}]}`)
	if !strings.Contains(body, `"all done"`) {
		t.Fatalf("title answer %s", body)
	}

	_, body = post(t, s, "/v1/chat/completions",
		`{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"go"}],`+tools+`}`)
	if !strings.HasSuffix(strings.TrimSpace(body), "data: [DONE]") {
		t.Fatalf("stream does not end with [DONE]: %s", body)
	}
	chunks := sseData(t, body)
	tc := dig(chunks[0], "choices", 0, "delta", "tool_calls", 0)
	args := decodeArgs(t, dig(tc, "function", "arguments"))
	if dig(tc, "id") != "call_e2e_1" || dig(tc, "function", "name") != "bash" || args["command"] != "echo hi" {
		t.Fatalf("first call %v", tc)
	}
	if _, ok := args["description"]; ok {
		t.Fatalf("description sent to a tool that does not take one: %v", args)
	}
	if dig(chunks[1], "choices", 0, "finish_reason") != "tool_calls" || dig(chunks[2], "usage") == nil {
		t.Fatalf("finish/usage chunks: %v", chunks[1:])
	}

	history := `{"role":"user","content":"go"},
		{"role":"assistant","content":null,"tool_calls":[{"id":"call_e2e_1","type":"function","function":{"name":"bash","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"call_e2e_1","content":"hi\n"}`
	_, body = post(t, s, "/v1/chat/completions", `{"model":"m","messages":[`+history+`],`+tools+`}`)
	var m map[string]any
	_ = json.Unmarshal([]byte(body), &m)
	tc = dig(m, "choices", 0, "message", "tool_calls", 0)
	if dig(tc, "id") != "call_e2e_2" || decodeArgs(t, dig(tc, "function", "arguments"))["command"] != "git log > out.txt" {
		t.Fatalf("second call %s", body)
	}

	history += `,{"role":"assistant","content":null,"tool_calls":[{"id":"call_e2e_2","type":"function","function":{"name":"bash","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"call_e2e_2","content":[{"type":"text","text":""}]}`
	_, body = post(t, s, "/v1/chat/completions", `{"model":"m","messages":[`+history+`],`+tools+`}`)
	_ = json.Unmarshal([]byte(body), &m)
	if dig(m, "choices", 0, "message", "content") != "all done" {
		t.Fatalf("final answer %s", body)
	}
	res := s.ToolResults()
	if len(res) != 2 || res[0].Text != "hi\n" || res[1].Text != "" || res[1].Index != 1 {
		t.Fatalf("ToolResults = %+v", res)
	}
}

func TestResponses(t *testing.T) {
	s := New(Script{Commands: []string{"git status"}})
	defer s.Close()
	tools := `"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object","properties":{"cmd":{"type":"string"},"yield_time_ms":{"type":"number"}},"required":["cmd"]}},
		{"type":"custom","name":"apply_patch"}]`
	_, body := post(t, s, "/v1/responses", `{"model":"gpt-5-codex","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}],`+tools+`}`)
	events := sseData(t, body)
	last := events[len(events)-1]
	if last["type"] != "response.completed" || dig(last, "response", "usage", "total_tokens") == nil {
		t.Fatalf("last event %v", last)
	}
	item := dig(last, "response", "output", 0)
	if dig(item, "type") != "function_call" || dig(item, "name") != "exec_command" ||
		decodeArgs(t, dig(item, "arguments"))["cmd"] != "git status" {
		t.Fatalf("item %v", item)
	}

	_, body = post(t, s, "/v1/responses", `{"model":"gpt-5-codex","stream":true,"input":[
		{"type":"function_call","call_id":"call_e2e_1","name":"exec_command","arguments":"{}"},
		{"type":"function_call_output","call_id":"call_e2e_1","output":"Output:\nOn branch main\n"}],`+tools+`}`)
	events = sseData(t, body)
	if got := dig(events[len(events)-1], "response", "output", 0, "content", 0, "text"); got != "done" {
		t.Fatalf("second answer %v", got)
	}
	if res := s.ToolResults(); len(res) != 1 || res[0].Text != "Output:\nOn branch main\n" || res[0].Tool != "exec_command" {
		t.Fatalf("ToolResults = %+v", res)
	}
	// Model lists answer in both OpenAI's and Codex's shape.
	resp, err := http.Get(s.URL() + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"data"`) || !strings.Contains(string(b), `"models"`) {
		t.Fatalf("models: %s", b)
	}
}

func TestShellArgs(t *testing.T) {
	schema := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		name, schema string
		want         map[string]any
	}{
		{"command and description", bashSchema,
			map[string]any{"command": "ls", "description": "Run the e2e scripted command"}},
		{"cmd", `{"properties":{"cmd":{"type":"string"}}}`, map[string]any{"cmd": "ls"}},
		{"argv", `{"properties":{"command":{"type":"array","items":{"type":"string"}}}}`,
			map[string]any{"command": []string{"bash", "-lc", "ls"}}},
		{"gemini spelling and required extras", `{"type":"OBJECT","properties":{"command":{"type":"STRING"},"mode":{"type":"STRING","enum":["sync","async"]},"wait":{"type":"INTEGER","minimum":1}},"required":["command","mode","wait"]}`,
			map[string]any{"command": "ls", "mode": "sync", "wait": float64(1)}},
		{"no schema", `{}`, map[string]any{"command": "ls"}},
		{"cline run_commands", `{"type":"object","properties":{"commands":{"type":"array","items":{"type":"string"}}},"required":["commands"]}`,
			map[string]any{"commands": []string{"ls"}}},
		{"droid Execute", `{"type":"object","properties":{"summary":{"type":"string"},"command":{"type":"string"},"riskLevelReason":{"type":"string"},"riskLevel":{"type":"string","enum":["low","medium","high"]}},"required":["summary","command","riskLevelReason","riskLevel"]}`,
			map[string]any{"command": "ls", "summary": DefaultFinalText, "riskLevelReason": DefaultFinalText, "riskLevel": "low"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shellArgs(tool{Name: "x", Schema: schema(tt.schema)}, "ls")
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestShellToolPreference(t *testing.T) {
	c := &conversation{tools: []tool{{Name: "bash"}, {Name: "read"}, {Name: "exec_command"}}}
	if got := c.shellTool().Name; got != "exec_command" {
		t.Fatalf("shellTool = %q, want exec_command", got)
	}
	c = &conversation{tools: []tool{{Name: "read"}}}
	if got := c.shellTool().Name; got != "" {
		t.Fatalf("shellTool = %q, want none", got)
	}
}

func TestFlatten(t *testing.T) {
	for in, want := range map[string]string{
		`"plain"`: "plain",
		`[{"type":"text","text":"a"},{"type":"input_text","text":"b"}]`: "ab",
		`{"content":"c"}`:           "c",
		`{"output":[{"text":"d"}]}`: "d",
		`42`:                        "42",
		``:                          "",
	} {
		if got := flatten(json.RawMessage(in)); got != want {
			t.Errorf("flatten(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestScriptArgs: Script.Args adds arguments to a scripted call (Droid's
// riskLevel), over the ones built from the tool's schema.
func TestScriptArgs(t *testing.T) {
	s := New(Script{Commands: []string{"touch f"}, Args: []map[string]any{{"riskLevel": "medium"}}})
	defer s.Close()
	tools := `"tools":[{"type":"function","function":{"name":"Execute","parameters":{"type":"object","properties":{"command":{"type":"string"},"riskLevel":{"type":"string","enum":["low","medium","high"]}},"required":["command","riskLevel"]}}}]`
	_, body := post(t, s, "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"go"}],`+tools+`}`)
	var m map[string]any
	_ = json.Unmarshal([]byte(body), &m)
	args := decodeArgs(t, dig(m, "choices", 0, "message", "tool_calls", 0, "function", "arguments"))
	if args["command"] != "touch f" || args["riskLevel"] != "medium" {
		t.Fatalf("call arguments %v", args)
	}
}

// TestUsage: every wire format reports the same figures, in its own
// fields: the prompt is bytes/4 of the request, of which the last tool
// result (bytes/4) and usageUncached tokens are new, the rest cached.
func TestUsage(t *testing.T) {
	s := New(Script{Commands: []string{"ls"}})
	defer s.Close()
	result := strings.Repeat("x", 400) // the fresh part: 100 tokens
	const fresh = 100
	num := func(v any) int64 { f, _ := v.(float64); return int64(f) }
	for _, c := range []struct {
		name, path, body string
		// figures reads input (uncached), cache write, cache read and output.
		figures func(m map[string]any) (in, write, read, out int64)
	}{
		{"anthropic", "/v1/messages", `{"model":"m","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"` + result + `"}]}]}`,
			func(m map[string]any) (int64, int64, int64, int64) {
				return num(dig(m, "usage", "input_tokens")), num(dig(m, "usage", "cache_creation_input_tokens")),
					num(dig(m, "usage", "cache_read_input_tokens")), num(dig(m, "usage", "output_tokens"))
			}},
		{"responses", "/v1/responses", `{"model":"m","input":[{"type":"function_call","call_id":"c1","name":"exec_command","arguments":"{}"},` +
			`{"type":"function_call_output","call_id":"c1","output":"` + result + `"}]}`,
			func(m map[string]any) (int64, int64, int64, int64) {
				all, cached := num(dig(m, "usage", "input_tokens")), num(dig(m, "usage", "input_tokens_details", "cached_tokens"))
				return all - cached - fresh, fresh, cached, num(dig(m, "usage", "output_tokens"))
			}},
		{"chat", "/v1/chat/completions", `{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{}"}}]},` +
			`{"role":"tool","tool_call_id":"c1","content":"` + result + `"}]}`,
			func(m map[string]any) (int64, int64, int64, int64) {
				all, cached := num(dig(m, "usage", "prompt_tokens")), num(dig(m, "usage", "prompt_tokens_details", "cached_tokens"))
				return all - cached - fresh, fresh, cached, num(dig(m, "usage", "completion_tokens"))
			}},
		{"gemini", "/v1beta/models/g:generateContent", `{"contents":[{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"output":"` + result + `"}}}]}]}`,
			func(m map[string]any) (int64, int64, int64, int64) {
				all, cached := num(dig(m, "usageMetadata", "promptTokenCount")), num(dig(m, "usageMetadata", "cachedContentTokenCount"))
				return all - cached - fresh, fresh, cached, num(dig(m, "usageMetadata", "candidatesTokenCount"))
			}},
	} {
		_, body := post(t, s, c.path, c.body)
		var m map[string]any
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatalf("%s: %v: %s", c.name, err, body)
		}
		in, write, read, out := c.figures(m)
		if in != usageUncached || write != 100 || read != int64(len(c.body)/4)-usageUncached-100 || out != usageOutput {
			t.Errorf("%s: usage %d uncached, %d written, %d read, %d out; want %d, 100, %d, %d", c.name, in, write, read, out,
				usageUncached, len(c.body)/4-usageUncached-100, usageOutput)
		}
	}
}

// A subagent's conversation follows its own script with IDs of its own:
// the parent's call of the Agent tool and the subagent's Bash call are
// answered and read back apart.
func TestSubagentScript(t *testing.T) {
	s := New(Script{
		Calls:     []Call{{Tool: "Agent", Args: map[string]any{"prompt": "SUB-TASK run it"}}},
		Subagents: map[string]Script{"SUB-TASK": {Commands: []string{"git status"}, FinalText: "sub done"}},
	})
	defer s.Close()
	tools := `"tools":[{"name":"Agent","input_schema":{"type":"object","properties":{"prompt":{"type":"string"},"description":{"type":"string"}},"required":["prompt","description"]}},{"name":"Bash","input_schema":` + bashSchema + `}]`
	answer := func(body string) map[string]any {
		t.Helper()
		_, out := post(t, s, "/v1/messages", body)
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return m
	}
	m := answer(`{"model":"m","messages":[{"role":"user","content":"check status"}],` + tools + `}`)
	if dig(m, "content", 0, "name") != "Agent" || dig(m, "content", 0, "id") != "toolu_e2e_1" || dig(m, "content", 0, "input", "description") == nil {
		t.Fatalf("parent's first answer %v", m)
	}
	sub := `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"<system-reminder>x</system-reminder>"},{"type":"text","text":"SUB-TASK run it"}]}`
	m = answer(sub + `],` + tools + `}`)
	if dig(m, "content", 0, "name") != "Bash" || dig(m, "content", 0, "id") != "toolu_e2es1_1" || dig(m, "content", 0, "input", "command") != "git status" {
		t.Fatalf("subagent's first answer %v", m)
	}
	m = answer(sub + `,{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2es1_1","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e2es1_1","content":"On branch main"}]}],` + tools + `}`)
	if dig(m, "content", 0, "text") != "sub done" {
		t.Fatalf("subagent's last answer %v", m)
	}
	m = answer(`{"model":"m","messages":[{"role":"user","content":"check status"},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_e2e_1","name":"Agent","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_e2e_1","content":"sub done"}]}],` + tools + `}`)
	if dig(m, "content", 0, "text") != "done" {
		t.Fatalf("parent's last answer %v", m)
	}
	if r := s.ToolResults(); len(r) != 1 || r[0].Text != "sub done" || r[0].Tool != "Agent" {
		t.Fatalf("parent's results %+v", r)
	}
	if r := s.SubagentResults("SUB-TASK"); len(r) != 1 || r[0].Text != "On branch main" || r[0].Tool != "Bash" {
		t.Fatalf("subagent's results %+v", r)
	}
}

// TestCallIndexStrippedIDs: OpenClaw sends our call IDs back without their
// underscores; each still names its call, and only its script's.
func TestCallIndexStrippedIDs(t *testing.T) {
	for _, c := range []struct {
		id, tag string
		n       int
		ok      bool
	}{
		{"call_e2e_1", "", 0, true}, {"calle2e1", "", 0, true}, {"calle2e12", "", 11, true},
		{"call_e2es1_2", "s1", 1, true}, {"calle2es12", "s1", 1, true},
		{"call_e2es1_2", "", 0, false}, {"calle2es12", "", 0, false}, {"call_e2e_1", "s1", 0, false},
		{"calle2e", "", 0, false}, {"call_other_1", "", 0, false},
	} {
		if n, ok := callIndex(c.id, c.tag); n != c.n || ok != c.ok {
			t.Errorf("callIndex(%q, %q) = %d, %v; want %d, %v", c.id, c.tag, n, ok, c.n, c.ok)
		}
	}
}

// TestAugment drives the Augment API as Auggie does: the tenant flag that
// turns hooks on, a launch-process call completed as a model would (wait,
// the terminal's directory), its result read back from chat_history and
// nodes, usage on every answer, and {} for the calls nothing depends on.
func TestAugment(t *testing.T) {
	s := New(Script{Commands: []string{"git status", "echo hi"}})
	defer s.Close()
	_, body := post(t, s, "/augment/get-models", `{}`)
	if dig(decodeJSON(t, body), "feature_flags", "enable_hooks") != true {
		t.Fatalf("get-models: %s", body)
	}
	if code, body := post(t, s, "/augment/settings/get-mcp-user-configs", `{}`); code != 200 || strings.TrimSpace(body) != "{}" {
		t.Fatalf("side call: %d %s", code, body)
	}
	schema, _ := json.Marshal(`{"type":"object","properties":{"command":{"type":"string"},"wait":{"type":"boolean"},"max_wait_seconds":{"type":"number"},"cwd":{"type":"string"}},"required":["command","wait","max_wait_seconds","cwd"]}`)
	tools := `"tool_definitions":[{"name":"view","input_schema_json":"{}"},{"name":"launch-process","input_schema_json":` + string(schema) + `}]`
	ide := `{"id":2,"type":4,"ide_state_node":{"current_terminal":{"current_working_directory":"/w"}}}`
	first := `{"nodes":[{"id":1,"type":0,"text_node":{"content":"check status"}},` + ide + `],"chat_history":[],` + tools + `}`
	lines := func(body string) []map[string]any {
		var out []map[string]any
		for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
			out = append(out, decodeJSON(t, l))
		}
		return out
	}
	_, body = post(t, s, "/augment/chat-stream", first)
	got := lines(body)
	use, _ := dig(got[0], "nodes", 0, "tool_use").(map[string]any)
	if len(got) != 2 || use["tool_name"] != "launch-process" || dig(got[1], "stop_reason") != float64(3) {
		t.Fatalf("first answer: %s", body)
	}
	args := decodeArgs(t, use["input_json"])
	if args["command"] != "git status" || args["wait"] != true || args["cwd"] != "/w" || args["max_wait_seconds"] != float64(60) {
		t.Fatalf("call arguments: %v", args)
	}
	if dig(got[1], "nodes", 0, "token_usage", "output_tokens") != float64(usageOutput) {
		t.Fatalf("no usage: %s", body)
	}
	id, _ := use["tool_use_id"].(string)
	history := `"chat_history":[{"request_nodes":[{"id":1,"type":0,"text_node":{"content":"check status"}}],"response_nodes":[{"id":1,"type":5,"tool_use":{"tool_use_id":"` + id + `","tool_name":"launch-process"}}]}]`
	second := `{"nodes":[` + ide + `,{"id":1,"type":1,"tool_result_node":{"tool_use_id":"` + id + `","content":"<output>clean</output>"}}],` + history + `,` + tools + `}`
	_, body = post(t, s, "/augment/chat-stream", second)
	use, _ = dig(lines(body)[0], "nodes", 0, "tool_use").(map[string]any)
	if args := decodeArgs(t, use["input_json"]); args["command"] != "echo hi" {
		t.Fatalf("second answer: %s", body)
	}
	res := s.ToolResults()
	if len(res) != 1 || res[0].Text != "<output>clean</output>" || res[0].Tool != "launch-process" {
		t.Fatalf("ToolResults = %+v", res)
	}
}

func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return m
}
