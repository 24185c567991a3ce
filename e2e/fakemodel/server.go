// Package fakemodel is a scripted stand-in for the model APIs that coding
// agents call, served on 127.0.0.1 so the real agent CLIs run fully offline.
//
// It sits at the far end of the e2e flow: the agent sends its conversation
// here, gets back one call of its own shell tool per scripted command, runs
// it (through its hooks, which is what gotk's e2e tests are about), and sends
// the tool's output back in its next request. The server records every
// request, so ToolResults gives a test the oracle of what really ran.
//
// Five wire formats are served:
//
//	Anthropic Messages      POST /v1/messages                     (SSE when "stream")
//	Gemini                  POST /v1beta/models/M:streamGenerateContent?alt=sse, :generateContent
//	OpenAI Chat Completions POST /v1/chat/completions             (SSE when "stream")
//	OpenAI Responses        POST /v1/responses                    (SSE when "stream")
//	Augment (Auggie)        POST /augment/chat-stream             (NDJSON; augment.go)
//
// plus the side requests agents make on the way (model lists, token counts,
// structured "which speaker is next" checks, titles), answered so they do not
// hang or fail.
package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// API names one wire format.
type API string

// The wire formats the server speaks.
const (
	Anthropic       API = "anthropic"
	Gemini          API = "gemini"
	ChatCompletions API = "chat"
	Responses       API = "responses"
)

// DefaultFinalText is what the model says once every scripted command ran.
const DefaultFinalText = "done"

// Script says what the model does in one test.
type Script struct {
	// Commands are run one at a time: a request that offers a shell tool and
	// already carries the results of the first k scripted calls gets a call
	// of Commands[k]; once all have results, the model answers FinalText.
	Commands []string
	// Calls, when set, are used instead of Commands: each is a call of the
	// shell tool running Command, or, with Tool set, of that tool (if the
	// request offers it) with Args, completed from the tool's schema.
	Calls []Call
	// FinalText is the plain answer after the last command ("" = "done").
	FinalText string
	// Args, when set, add arguments to scripted call i (Args[i]) over the
	// ones built from the tool's schema: Droid's riskLevel, for example.
	Args []map[string]any
	// Subagents are the scripts of the conversations the agent starts for
	// its subagents (Claude Code's Agent tool): a model request whose first
	// user message contains a key follows that key's script instead of
	// this one. Their calls get IDs of their own, so that no conversation
	// counts another's results; SubagentResults reads them back.
	Subagents map[string]Script
}

// conversationOf is the key of the subagent script request c follows, ""
// for the main script. The longest matching key wins, so that one key may
// contain another.
func (s Script) conversationOf(c *conversation) string {
	best := ""
	for k := range s.Subagents {
		if k != "" && len(k) > len(best) && strings.Contains(c.firstUser, k) {
			best = k
		}
	}
	return best
}

// idTag sets the call IDs of the script followed under key apart: "" for
// the main script, "s1", "s2", … for the subagents' in the keys' order.
func (s Script) idTag(key string) string {
	if key == "" {
		return ""
	}
	keys := make([]string, 0, len(s.Subagents))
	for k := range s.Subagents {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return "s" + strconv.Itoa(slices.Index(keys, key)+1)
}

// followed returns the script followed under key.
func (s Script) followed(key string) Script {
	if key == "" {
		return s
	}
	sub := s.Subagents[key]
	if sub.FinalText == "" {
		sub.FinalText = DefaultFinalText
	}
	return sub
}

// Call is one scripted tool call.
type Call struct {
	Command string
	Tool    string
	Args    map[string]any
}

// calls returns the script as calls.
func (s Script) calls() []Call {
	if len(s.Calls) > 0 {
		return s.Calls
	}
	var cs []Call
	for _, c := range s.Commands {
		cs = append(cs, Call{Command: c})
	}
	return cs
}

// ShellToolNames are the shell tools the server recognises, in order of
// preference when a request offers several: Claude Code's Bash, Gemini CLI's
// run_shell_command, Codex's exec_command (unified exec) or shell /
// shell_command, the bash tool of OpenCode, Kilo, Pi and Copilot CLI,
// Factory Droid's Execute, Cline's run_commands (a list of commands),
// OpenClaw's exec and Auggie's launch-process.
var ShellToolNames = []string{"Bash", "run_shell_command", "exec_command", "shell_command", "shell", "bash", "Execute", "run_commands", "exec", "launch-process"}

// Request is one recorded HTTP request and how it was answered.
type Request struct {
	Seq      int
	Time     time.Time
	Method   string
	Path     string
	RawQuery string
	Header   http.Header
	Body     []byte
	// API is the wire format of a model request, "" for side requests.
	API API
	// ShellTool is the shell tool the request offered, "" if none.
	ShellTool string
	// Subagent is the key of the subagent script the request followed, ""
	// for the main script.
	Subagent string
	// Reply says in a few words how the server answered.
	Reply string
}

// ToolResult is what an agent sent back for one scripted call.
type ToolResult struct {
	// Index is the scripted call (0 = Commands[0]).
	Index int
	// Tool is the shell tool that was called.
	Tool string
	// Text is the result as the agent worded it for the model.
	Text string
}

// Server is a running fake model endpoint.
type Server struct {
	script Script
	hs     *httptest.Server

	mu   sync.Mutex
	reqs []Request
}

// New starts a server on 127.0.0.1 with a random port. Close it when done.
func New(s Script) *Server {
	if s.FinalText == "" {
		s.FinalText = DefaultFinalText
	}
	srv := &Server{script: s}
	srv.hs = httptest.NewServer(http.HandlerFunc(srv.serve))
	return srv
}

// URL is the server's base URL, "http://127.0.0.1:PORT" (no path).
func (s *Server) URL() string { return s.hs.URL }

// Close stops the server, cutting any open streams.
func (s *Server) Close() {
	s.hs.CloseClientConnections()
	s.hs.Close()
}

// Requests returns a copy of every request so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// CallsIssued counts the model requests the server answered with a call.
func (s *Server) CallsIssued() int {
	n := 0
	for _, r := range s.Requests() {
		if strings.HasPrefix(r.Reply, "call ") {
			n++
		}
	}
	return n
}

// ToolResults returns the result of each scripted call that came back, in
// call order, as found in the most complete request the agent sent.
func (s *Server) ToolResults() []ToolResult { return s.SubagentResults("") }

// SubagentResults is ToolResults for the conversations that followed the
// subagent script under key ("" = the main script).
func (s *Server) SubagentResults(key string) []ToolResult {
	var best []ToolResult
	tag := s.script.idTag(key)
	for _, r := range s.Requests() {
		if r.API == "" || r.Subagent != key {
			continue
		}
		c, err := parse(r.API, r.Body)
		if err != nil {
			continue
		}
		if res := ours(c, r.ShellTool, tag); len(res) > len(best) {
			best = res
		}
	}
	return best
}

// Summary is a readable list of the requests, for a failing test's log.
func (s *Server) Summary() string {
	var b strings.Builder
	reqs := s.Requests()
	for _, r := range reqs {
		q := ""
		if r.RawQuery != "" {
			q = "?" + r.RawQuery
		}
		fmt.Fprintf(&b, "#%d +%.1fs %s %s%s [%s] tool=%q -> %s (%d bytes)\n",
			r.Seq, r.Time.Sub(reqs[0].Time).Seconds(), r.Method, r.Path, q, r.API, r.ShellTool, r.Reply, len(r.Body))
	}
	return b.String()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	rec := Request{
		Time: time.Now(), Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
		Header: r.Header.Clone(), Body: body,
	}
	rec.API, rec.ShellTool, rec.Subagent, rec.Reply = s.answer(w, r, body)
	s.mu.Lock()
	rec.Seq = len(s.reqs) + 1
	s.reqs = append(s.reqs, rec)
	s.mu.Unlock()
}

// answer routes one request. Paths are matched by suffix so that a base URL
// with or without /v1 works.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, body []byte) (API, string, string, string) {
	p := r.URL.Path
	switch {
	case r.Header.Get("Upgrade") != "":
		// Codex can try a WebSocket transport first; make it fall back to HTTP.
		http.Error(w, "fake model server: no websockets", http.StatusNotImplemented)
		return "", "", "", "501 websocket"
	case r.Method == http.MethodPost && strings.HasPrefix(p, augmentPrefix):
		return s.augment(w, r, body)
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 10})
		return "", "", "", "count_tokens"
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/messages"):
		return s.model(w, Anthropic, body, false)
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/chat/completions"):
		return s.model(w, ChatCompletions, body, false)
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/responses"):
		return s.model(w, Responses, body, false)
	case r.Method == http.MethodPost && strings.Contains(p, "/models/") && strings.HasSuffix(p, ":streamGenerateContent"):
		return s.model(w, Gemini, body, true)
	case r.Method == http.MethodPost && strings.Contains(p, "/models/") && strings.HasSuffix(p, ":generateContent"):
		return s.model(w, Gemini, body, false)
	case r.Method == http.MethodPost && strings.HasSuffix(p, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 10})
		return "", "", "", "countTokens"
	case r.Method == http.MethodPost && strings.HasSuffix(p, ":embedContent"):
		writeJSON(w, map[string]any{"embedding": map[string]any{"values": []float64{0, 0, 0}}})
		return "", "", "", "embedContent"
	case r.Method == http.MethodGet && strings.HasSuffix(p, "/models"):
		writeJSON(w, modelList(strings.Contains(p, "v1beta")))
		return "", "", "", "model list"
	case r.Method == http.MethodGet && strings.Contains(p, "/models/"):
		id := p[strings.LastIndex(p, "/")+1:]
		writeJSON(w, map[string]any{"id": id, "object": "model", "name": "models/" + id, "owned_by": "e2e"})
		return "", "", "", "model " + id
	case (r.Method == http.MethodGet || r.Method == http.MethodHead) && (p == "/" || p == ""):
		w.WriteHeader(http.StatusOK)
		return "", "", "", "root"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprintf(w, `{"error":{"type":"not_found_error","message":"fake model server: no handler for %s %s"}}`, r.Method, p)
	return "", "", "", "404"
}

// model answers one model request of any wire format.
func (s *Server) model(w http.ResponseWriter, api API, body []byte, gemStream bool) (API, string, string, string) {
	c, err := parse(api, body)
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":{"type":"invalid_request_error","message":%q}}`, "fake model server: "+err.Error())
		return api, "", "", "400 " + err.Error()
	}
	key := s.script.conversationOf(c)
	script, tag := s.script.followed(key), s.script.idTag(key)
	if api == Gemini {
		c.stream = gemStream
	}
	shell := c.shellTool()
	tool := shell
	var reply output
	done := len(ours(c, shell.Name, tag))
	steps := script.calls()
	var args map[string]any
	if done < len(steps) {
		if st := steps[done]; st.Tool != "" {
			tool = c.tool(st.Tool)
			args = toolArgs(tool, st.Args)
		} else {
			args = shellArgs(shell, st.Command)
		}
		if api == Augment && tool.Name == "launch-process" {
			augmentLaunchArgs(c, args)
		}
	}
	switch {
	case tool.Name != "" && shell.Name != "" && done < len(steps):
		if done < len(script.Args) {
			for k, v := range script.Args[done] {
				args[k] = v
			}
		}
		reply = output{call: &call{ID: callID(api, tag, done+1), Tool: tool, Args: args}}
	case c.jsonSchema != nil:
		out, _ := json.Marshal(sample(c.jsonSchema))
		reply = output{text: string(out)}
	default:
		reply = output{text: script.FinalText}
	}
	writeReply(w, api, c, reply)
	if reply.call != nil {
		return api, tool.Name, key, fmt.Sprintf("call %s #%d%s", tool.Name, done+1, tag)
	}
	if c.jsonSchema != nil {
		return api, tool.Name, key, "json " + reply.text
	}
	return api, tool.Name, key, "text"
}

// callID is the ID of call n of the script tagged tag (see idTag).
func callID(api API, tag string, n int) string {
	if api == Anthropic {
		return fmt.Sprintf("toolu_e2e%s_%d", tag, n)
	}
	return fmt.Sprintf("call_e2e%s_%d", tag, n)
}

// callIndex turns one of our call IDs of the script tagged tag back into
// its script index. OpenClaw strips the underscores from the IDs it is
// given (call_e2e_1 comes back as calle2e1).
func callIndex(id, tag string) (int, bool) {
	mark := "e2e" + tag
	i := strings.Index(id, mark)
	if i < 0 {
		return 0, false
	}
	var n int
	if _, err := fmt.Sscanf(strings.TrimPrefix(id[i+len(mark):], "_"), "%d", &n); err != nil || n < 1 {
		return 0, false
	}
	return n - 1, true
}

// ours keeps the results of our own calls, one per scripted index, in order.
// Gemini CLI may drop call IDs, so there a result of the shell tool with no
// ID counts as the next call.
func ours(c *conversation, shellTool, tag string) []ToolResult {
	byIndex := map[int]ToolResult{}
	next := 0
	for _, r := range c.results {
		idx, ok := callIndex(r.CallID, tag)
		if !ok {
			if r.CallID != "" || shellTool == "" || r.Name != shellTool {
				continue
			}
			idx = next
		}
		if _, seen := byIndex[idx]; !seen {
			byIndex[idx] = ToolResult{Index: idx, Tool: r.Name, Text: r.Text}
		}
		next = idx + 1
	}
	var out []ToolResult
	for i := 0; ; i++ {
		r, ok := byIndex[i]
		if !ok {
			return out
		}
		out = append(out, r)
	}
}

func modelList(gemini bool) any {
	ids := []string{"fake-model", "gpt-4o", "gpt-5-codex", "gemini-2.5-flash", "gemini-2.5-pro", "claude-sonnet-4-5"}
	if gemini {
		var ms []any
		for _, id := range ids {
			ms = append(ms, map[string]any{
				"name": "models/" + id, "displayName": id,
				"supportedGenerationMethods": []string{"generateContent", "countTokens"},
				"inputTokenLimit":            1000000, "outputTokenLimit": 65536,
			})
		}
		return map[string]any{"models": ms}
	}
	var data []any
	for _, id := range ids {
		data = append(data, map[string]any{"id": id, "object": "model", "created": 1700000000, "owned_by": "e2e"})
	}
	// "models" is Codex's own list shape; "data" is OpenAI's.
	return map[string]any{"object": "list", "data": data, "models": []any{}}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes one server-sent event; event may be "".
func sse(w io.Writer, event string, v any) {
	var b bytes.Buffer
	if event != "" {
		fmt.Fprintf(&b, "event: %s\n", event)
	}
	data, _ := json.Marshal(v)
	fmt.Fprintf(&b, "data: %s\n\n", data)
	_, _ = w.Write(b.Bytes())
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
