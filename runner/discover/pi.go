package discover

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
)

// Pi writes one JSONL file per session:
// $PI_CODING_AGENT_DIR/sessions/--<cwd with / as ->--/<time>_<id>.jsonl
// (default ~/.pi/agent; nothing with --no-session). Measured in Pi 0.73.1
// (e2e): the first line is {type:"session", id, cwd}; a call is a
// "message" line whose message {role:"assistant", content:[{type:
// "toolCall", id, name:"bash", arguments:{command}}]}, its result a later
// message {role:"toolResult", toolCallId, content:[{type:"text", text}],
// isError}. An extension's rewrite (gotk's tool_call handler) is not
// recorded; gotk's own run log is (see gotkruns.go). An assistant message
// carries its request's usage {input (uncached), output, cacheRead,
// cacheWrite} and model; a "compaction" line is a compaction.

func piFiles(e Env) []string {
	return glob(filepath.Join(e.dir("PI_CODING_AGENT_DIR", ".pi", "agent"), "sessions", "*", "*.jsonl"))
}

var piKnown = sync.OnceValue(func() map[string]bool {
	return setOf("session", "message", "model_change", "thinking_level_change", "compaction",
		"branch_summary", "custom", "custom_message", "label", "session_info")
})

type piLine struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Cwd       string          `json:"cwd"`
	Timestamp json.RawMessage `json:"timestamp"`
	Message   *struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"toolCallId"`
		IsError    bool            `json:"isError"`
		// Details is a tool's own result: OpenClaw's exec gives its exit
		// code and directory (see piDetails); other tools, anything.
		Details json.RawMessage `json:"details"`
		Model   string          `json:"model"`
		Usage   *struct {
			Input      int64 `json:"input"`
			Output     int64 `json:"output"`
			CacheRead  int64 `json:"cacheRead"`
			CacheWrite int64 `json:"cacheWrite"`
		} `json:"usage"`
	} `json:"message"`
}

func readPi(path string, s *scan) {
	r := newPiReader(s, "bash", strings.TrimSuffix(filepath.Base(path), ".jsonl"))
	s.lines(path, r.line)
}

// piReader reads Pi's session entries, one at a time: Pi's JSONL lines,
// and OpenClaw's transcript rows (its sessions are Pi's format).
type piReader struct {
	s *scan
	// tool is the shell tool's name: Pi's bash, OpenClaw's exec.
	tool         string
	session, cwd string
	pending      map[string]*Call
}

func newPiReader(s *scan, tool, session string) *piReader {
	return &piReader{s: s, tool: tool, session: session, pending: map[string]*Call{}}
}

// line reads one entry; false when it is not one (malformed).
func (r *piReader) line(line []byte) bool {
	s := r.s
	var l piLine
	if !decode(line, &l) {
		return false
	}
	if !piKnown()[l.Type] {
		s.unknown()
		return true
	}
	if l.Type == "session" {
		r.session, r.cwd = l.ID, l.Cwd
		return true
	}
	if l.Type == "compaction" {
		s.sess.compacted()
	}
	m := l.Message
	if l.Type != "message" || m == nil {
		return true
	}
	switch m.Role {
	case "assistant":
		if u := m.Usage; u != nil {
			s.sess.request(l.ID, m.Model, parseTime(l.Timestamp),
				Usage{Input: u.Input, CacheWrite: u.CacheWrite, CacheRead: u.CacheRead, Output: u.Output})
		}
		var blocks []struct {
			Type      string `json:"type"`
			ID        string `json:"id"`
			Name      string `json:"name"`
			Arguments struct {
				Command string `json:"command"`
			} `json:"arguments"`
		}
		if len(m.Content) == 0 || m.Content[0] != '[' {
			return true
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			return false
		}
		for _, b := range blocks {
			if b.Type == "toolCall" && b.Name == r.tool {
				r.pending[b.ID] = &Call{Session: r.session, Cwd: r.cwd, Start: parseTime(l.Timestamp),
					Command: b.Arguments.Command, Exit: -1}
			}
		}
	case "toolResult":
		c := r.pending[m.ToolCallID]
		if c == nil {
			return true
		}
		delete(r.pending, m.ToolCallID)
		c.End = parseTime(l.Timestamp)
		c.Output = textBlocks(m.Content)
		if m.IsError {
			c.Exit = 1
		}
		var d piDetails
		if len(m.Details) > 0 && json.Unmarshal(m.Details, &d) == nil {
			if d.ExitCode != nil {
				c.Exit = *d.ExitCode
			}
			if d.Cwd != "" && filepath.IsAbs(d.Cwd) {
				c.Cwd = d.Cwd
			}
		}
		s.emitCall(c)
	}
	return true
}

// piDetails is what OpenClaw's exec records of a run beside its output.
type piDetails struct {
	ExitCode *int   `json:"exitCode"`
	Cwd      string `json:"cwd"`
}
