package discover

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Codex CLI writes one rollout per session:
// $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl (default
// ~/.codex; archived ones move to archived_sessions/). Each line is
// {timestamp, type, payload}. Measured in Codex 0.169.0 (e2e): the model's
// call is a response_item {type:"function_call", name:"exec_command",
// arguments:"{\"cmd\":…}", call_id}; what really ran (after a hook's
// rewrite) is an event_msg {type:"item_completed", item:{type:
// "CommandExecution", id: call_id, command:["/bin/bash","-lc",…]}}; the
// text the model got is a response_item {type:"function_call_output",
// call_id, output}. session_meta and turn_context carry the cwd, and
// turn_context the approval_policy. Older versions name the tool "shell"
// (command as an argv) or "shell_command", record the run as an event_msg
// exec_command_end, and wrap the output as {"output":…,"metadata":…}.
//
// Usage: Codex 0.169 writes a token_usage_record {response_id, usage:
// {input_tokens, cached_input_tokens, cache_write_input_tokens,
// output_tokens}} after each response's items; older versions only an
// event_msg token_count {info: {total_token_usage, last_token_usage}},
// written again on rate-limit updates (a request is a rise of the total).
// input_tokens includes the cached ones. turn_context names the model; a
// "compacted" record is a compaction.

func codexFiles(e Env) []string {
	home := e.dir("CODEX_HOME", ".codex")
	rollout := func(rel, name string) bool {
		return strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl")
	}
	return append(walk(filepath.Join(home, "sessions"), rollout), walk(filepath.Join(home, "archived_sessions"), rollout)...)
}

var codexKnown = sync.OnceValue(func() map[string]bool {
	return setOf("session_meta", "response_item", "event_msg", "turn_context", "world_state",
		"token_usage_record", "compacted", "message")
})

// codexShellTools are the names Codex versions give their shell tool.
var codexShellTools = sync.OnceValue(func() map[string]bool {
	return setOf("exec_command", "shell", "shell_command", "container.exec", "local_shell")
})

type codexLine struct {
	Timestamp json.RawMessage `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   struct {
		Type           string          `json:"type"`
		ID             string          `json:"id"`
		Cwd            string          `json:"cwd"`
		ApprovalPolicy string          `json:"approval_policy"`
		Name           string          `json:"name"`
		Arguments      json.RawMessage `json:"arguments"`
		CallID         string          `json:"call_id"`
		Output         json.RawMessage `json:"output"`
		Command        json.RawMessage `json:"command"`
		Action         *struct {
			Command json.RawMessage `json:"command"`
			Workdir string          `json:"working_directory"`
		} `json:"action"`
		Item *struct {
			Type    string          `json:"type"`
			ID      string          `json:"id"`
			Command json.RawMessage `json:"command"`
		} `json:"item"`
		Role  string      `json:"role"`
		Model string      `json:"model"`
		Usage *codexUsage `json:"usage"`
		Info  *struct {
			Total codexUsage `json:"total_token_usage"`
			Last  codexUsage `json:"last_token_usage"`
		} `json:"info"`
	} `json:"payload"`
}

type codexUsage struct {
	Input      int64 `json:"input_tokens"`
	Cached     int64 `json:"cached_input_tokens"`
	CacheWrite int64 `json:"cache_write_input_tokens"`
	Output     int64 `json:"output_tokens"`
	Total      int64 `json:"total_tokens"`
}

func (u codexUsage) usage() Usage {
	return Usage{Input: max(u.Input-u.Cached-u.CacheWrite, 0), CacheWrite: u.CacheWrite, CacheRead: u.Cached, Output: u.Output}
}

// codexRequests follows a rollout's requests: a response's first item
// opens one (its results are read by the next), its usage record closes it.
type codexRequests struct {
	model     string
	open      bool
	seq       int
	records   bool  // the rollout has token_usage_records: token_count is a repeat
	lastTotal int64 // token_count's total so far
}

func (q *codexRequests) item(s *scan, at time.Time) {
	if !q.open {
		q.open = true
		q.seq++
		s.sess.request("#"+strconv.Itoa(q.seq), q.model, at, Usage{})
	}
}

func (q *codexRequests) usage(s *scan, at time.Time, u Usage) {
	if !q.open {
		q.seq++
	}
	q.open = false
	s.sess.request("#"+strconv.Itoa(q.seq), q.model, at, u)
}

func readCodex(path string, s *scan) {
	pending := map[string]*Call{}
	session := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	cwd, auto := "", false
	var q codexRequests
	s.lines(path, func(line []byte) bool {
		var l codexLine
		if !decode(line, &l) {
			return false
		}
		if !codexKnown()[l.Type] {
			s.unknown()
			return true
		}
		p := &l.Payload
		switch {
		case l.Type == "turn_context" && p.Model != "":
			q.model = p.Model
		case l.Type == "compacted":
			s.sess.compacted()
		case l.Type == "token_usage_record" && p.Usage != nil:
			q.records = true
			q.usage(s, parseTime(l.Timestamp), p.Usage.usage())
		case l.Type == "event_msg" && p.Type == "token_count" && p.Info != nil && !q.records && p.Info.Total.Total > q.lastTotal:
			q.lastTotal = p.Info.Total.Total
			q.usage(s, parseTime(l.Timestamp), p.Info.Last.usage())
		case l.Type == "response_item" && (p.Role == "assistant" || p.Type == "reasoning" || strings.HasSuffix(p.Type, "_call")):
			q.item(s, parseTime(l.Timestamp))
		}
		switch {
		case l.Type == "session_meta" || l.Type == "turn_context":
			if p.Cwd != "" {
				cwd = p.Cwd
			}
			if p.ApprovalPolicy != "" {
				auto = p.ApprovalPolicy == "never"
			}
		case l.Type == "response_item" && (p.Type == "function_call" && codexShellTools()[p.Name] || p.Type == "local_shell_call"):
			id := p.CallID
			if id == "" {
				id = p.ID
			}
			cmd, dir := codexArgs(p.Arguments)
			if p.Action != nil {
				cmd, dir = commandValue(p.Action.Command), p.Action.Workdir
			}
			if dir == "" {
				dir = cwd
			}
			pending[id] = &Call{Session: session, Cwd: dir, Start: parseTime(l.Timestamp), Command: cmd, Exit: -1,
				AutoAllow: auto, unwrap: codexOutput}
		case l.Type == "event_msg" && p.Type == "item_completed" && p.Item != nil && p.Item.Type == "CommandExecution":
			if c := pending[p.Item.ID]; c != nil {
				c.Ran = commandValue(p.Item.Command)
			}
		case l.Type == "event_msg" && p.Type == "exec_command_end":
			if c := pending[p.CallID]; c != nil {
				c.Ran = commandValue(p.Command)
			}
		case l.Type == "response_item" && (p.Type == "function_call_output" || p.Type == "local_shell_call_output"):
			c := pending[p.CallID]
			if c == nil {
				return true
			}
			delete(pending, p.CallID)
			c.End = parseTime(l.Timestamp)
			c.Output = codexOutputText(p.Output)
			if c.Ran == c.Command {
				c.Ran = ""
			}
			s.emitCall(c)
		}
		return true
	})
}

// codexArgs reads a shell tool's arguments (a JSON object, sent as a JSON
// string): the command ("cmd" or "command", text or argv) and "workdir".
func codexArgs(raw json.RawMessage) (cmd, workdir string) {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		raw = json.RawMessage(text)
	}
	var a struct {
		Cmd     json.RawMessage `json:"cmd"`
		Command json.RawMessage `json:"command"`
		Workdir string          `json:"workdir"`
	}
	if json.Unmarshal(raw, &a) != nil {
		return "", ""
	}
	if len(a.Cmd) > 0 {
		return commandValue(a.Cmd), a.Workdir
	}
	return commandValue(a.Command), a.Workdir
}

// commandValue is a command given as text or as an argv.
func commandValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(raw, &argv) == nil {
		return shellScript(argv)
	}
	return ""
}

// codexOutputText is the text of a function_call_output: a string (which
// older versions made a JSON object {"output":…}), or content blocks.
func codexOutputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return textBlocks(raw)
	}
	if strings.HasPrefix(s, `{"output":`) {
		var o struct {
			Output string `json:"output"`
		}
		if json.Unmarshal([]byte(s), &o) == nil {
			return o.Output
		}
	}
	return s
}

// codexHeader is the framing Codex puts before a command's output
// ("Chunk ID: …\nWall time: …\nProcess exited with code 0\nOriginal token
// count: 92\nOutput:\n"; older: "Exit code: 0\nWall time: …\nOutput:\n").
var codexHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\A(?:(?:Chunk ID|Wall time|Process exited with code|Exit code|Original token count|Process running with session ID|Total output lines)[^\n]*\n)+Output:\n`)
})

var codexExit = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^(?:Process exited with code|Exit code:) (-?\d+)$`)
})

func codexOutput(out string) (string, int) {
	loc := codexHeader().FindStringIndex(out)
	if loc == nil {
		return out, -1
	}
	exit := -1
	if m := codexExit().FindStringSubmatch(out[:loc[1]]); m != nil {
		exit, _ = strconv.Atoi(m[1])
	}
	return out[loc[1]:], exit
}
