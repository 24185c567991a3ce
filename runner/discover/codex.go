package discover

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
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
	} `json:"payload"`
}

func readCodex(path string, s *scan) {
	pending := map[string]*Call{}
	session := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	cwd, auto := "", false
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
