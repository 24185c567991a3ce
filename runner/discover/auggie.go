package discover

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/regfile"
)

// Auggie (npm @augmentcode/auggie) writes one pretty-printed JSON file per
// session: ~/.augment/sessions/<session id>.json (its --augment-cache-dir,
// default ~/.augment). Measured in Auggie 0.36.0 (e2e): {sessionId,
// created, modified, chatHistory:[{exchange:{request_id, request_nodes,
// response_nodes}, finishedAt, completed}]}. A node of type 5 in the
// model's response_nodes is a call {tool_use:{tool_use_id, tool_name:
// "launch-process", input_json:"{command, cwd, …}"}}, its result a node of
// type 1 in a later exchange's request_nodes {tool_result_node:
// {tool_use_id, content, is_error}}, content framed as "Here are the
// results from executing the command.\n<return-code>\nN\n</return-code>\n
// <output>\n…\n</output>", or "Tool execution denied: …" when Auggie's
// toolPermissions refused it. input_json is the model's command: a hook's
// rewrite is not recorded (gotk's own run log is, see gotkruns.go). A node
// of type 10 in response_nodes is the request's usage {input_tokens,
// output_tokens, cache_read_input_tokens, cache_creation_input_tokens}.

func auggieFiles(e Env) []string {
	return glob(filepath.Join(e.Home, ".augment", "sessions", "*.json"))
}

// maxAuggieSession bounds one session file: it is read whole.
const maxAuggieSession = 64 << 20

// Auggie's node types.
const (
	auggieToolResult = 1
	auggieToolUse    = 5
	auggieTokenUsage = 10
)

type auggieNode struct {
	Type    int `json:"type"`
	ToolUse *struct {
		ID        string `json:"tool_use_id"`
		Name      string `json:"tool_name"`
		InputJSON string `json:"input_json"`
	} `json:"tool_use"`
	ToolResult *struct {
		ID      string `json:"tool_use_id"`
		Content string `json:"content"`
		IsError bool   `json:"is_error"`
	} `json:"tool_result_node"`
	TokenUsage *struct {
		Input      int64 `json:"input_tokens"`
		Output     int64 `json:"output_tokens"`
		CacheRead  int64 `json:"cache_read_input_tokens"`
		CacheWrite int64 `json:"cache_creation_input_tokens"`
	} `json:"token_usage"`
	Timestamp json.RawMessage `json:"timestamp_ms"`
}

type auggieSession struct {
	SessionID   string          `json:"sessionId"`
	Created     json.RawMessage `json:"created"`
	ChatHistory []struct {
		Exchange struct {
			RequestID     string       `json:"request_id"`
			RequestNodes  []auggieNode `json:"request_nodes"`
			ResponseNodes []auggieNode `json:"response_nodes"`
		} `json:"exchange"`
		FinishedAt json.RawMessage `json:"finishedAt"`
	} `json:"chatHistory"`
}

func readAuggie(path string, s *scan) {
	b, err := regfile.Read(path, maxAuggieSession)
	if err != nil {
		s.stats.Unreadable = append(s.stats.Unreadable, oneLine(err.Error()))
		return
	}
	s.stats.Files++
	var sess auggieSession
	if len(strings.TrimSpace(string(b))) == 0 {
		return
	}
	if json.Unmarshal(b, &sess) != nil {
		s.stats.Records++
		s.malformed()
		return
	}
	session := sess.SessionID
	if session == "" {
		session = strings.TrimSuffix(filepath.Base(path), ".json")
	}
	pending := map[string]*Call{}
	for _, h := range sess.ChatHistory {
		s.stats.Records++
		ex := h.Exchange
		at := parseTime(h.FinishedAt)
		// This exchange's request carries the results of the last one's
		// calls; the model's answer to it comes after.
		for _, n := range ex.RequestNodes {
			r := n.ToolResult
			if n.Type != auggieToolResult || r == nil || pending[r.ID] == nil {
				continue
			}
			c := pending[r.ID]
			delete(pending, r.ID)
			c.End, c.Output = at, r.Content
			c.Refused = strings.HasPrefix(r.Content, "Tool execution denied")
			if r.IsError && !c.Refused {
				c.Exit = 1
			}
			s.emitCall(c)
		}
		for _, n := range ex.ResponseNodes {
			switch {
			case n.Type == auggieTokenUsage && n.TokenUsage != nil:
				u := n.TokenUsage
				s.sess.request(ex.RequestID, "", at, Usage{Input: u.Input, CacheWrite: u.CacheWrite, CacheRead: u.CacheRead, Output: u.Output})
			case n.Type == auggieToolUse && n.ToolUse != nil && n.ToolUse.Name == "launch-process":
				var in struct {
					Command string `json:"command"`
					Cwd     string `json:"cwd"`
				}
				if json.Unmarshal([]byte(n.ToolUse.InputJSON), &in) != nil {
					s.stats.Records++
					s.malformed()
					continue
				}
				pending[n.ToolUse.ID] = &Call{Session: session, Cwd: in.Cwd, Start: parseTime(n.Timestamp),
					Command: in.Command, Exit: -1, unwrap: auggieOutput}
			}
		}
	}
}

// auggieFrame is Auggie's framing of a command's result.
var auggieFrame = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\A(?:[^\n]*\n)?<return-code>\n(-?\d+)\n</return-code>\n<output>\n((?s).*?)\n?</output>\s*\z`)
})

func auggieOutput(out string) (string, int) {
	m := auggieFrame().FindStringSubmatch(out)
	if m == nil {
		return out, -1
	}
	exit, _ := strconv.Atoi(m[1])
	return m[2], exit
}
