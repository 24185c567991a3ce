package discover

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
)

// Claude Code writes one JSONL file per session under
// $CLAUDE_CONFIG_DIR/projects/<project path with / as ->/<session>.jsonl
// (default ~/.claude; subagents' sessions sit in <session>/subagents/).
// Measured in Claude Code 2.1.328 (e2e): a Bash call is an "assistant"
// record with a tool_use block {id, name:"Bash", input:{command}}; its
// result is a later "user" record with a tool_result block {tool_use_id,
// content, is_error}. A PreToolUse hook that changed the command leaves an
// "attachment" record {type:"hook_success", toolUseID, stdout} in between,
// whose stdout is the hook's answer (hookSpecificOutput.updatedInput). User
// records carry the session's permissionMode, and a result record its
// permissionDecision: {"decision":"reject"} when Claude refused to run
// the command (it needed an approval nobody gave). Each assistant record
// carries its request's model and usage {input_tokens (uncached),
// cache_creation_input_tokens, cache_read_input_tokens, output_tokens},
// repeated on every record of one message id; a system record of subtype
// compact_boundary is a compaction.

func claudeFiles(e Env) []string {
	roots := []string{e.dir("CLAUDE_CONFIG_DIR", ".claude")}
	if x := e.get("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		roots = append(roots, filepath.Join(x, "claude"))
	} else {
		roots = append(roots, filepath.Join(e.Home, ".config", "claude"))
	}
	var out []string
	seen := map[string]bool{}
	for _, r := range roots {
		for _, f := range walk(filepath.Join(r, "projects"), func(rel, name string) bool {
			return strings.HasSuffix(name, ".jsonl")
		}) {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// claudeKnown are the record types of Claude Code's transcripts; only user,
// assistant and attachment records matter here.
var claudeKnown = sync.OnceValue(func() map[string]bool {
	return setOf("user", "assistant", "attachment", "system", "summary", "queue-operation",
		"file-history-snapshot", "progress", "api-request", "api-request-blob", "api-request-shape",
		"atis-latch", "last-prompt", "tools-used", "cost-state", "custom-title", "ai-title", "agent-name",
		"tag", "pr-link", "mode", "worktree-state", "permission-mode")
})

type claudeLine struct {
	Type           string          `json:"type"`
	Subtype        string          `json:"subtype"`
	Timestamp      json.RawMessage `json:"timestamp"`
	Cwd            string          `json:"cwd"`
	SessionID      string          `json:"sessionId"`
	PermissionMode string          `json:"permissionMode"`
	Decision       *struct {
		Decision string `json:"decision"`
	} `json:"permissionDecision"`
	Message *struct {
		ID      string          `json:"id"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
		Usage   *struct {
			Input      int64 `json:"input_tokens"`
			CacheWrite int64 `json:"cache_creation_input_tokens"`
			CacheRead  int64 `json:"cache_read_input_tokens"`
			Output     int64 `json:"output_tokens"`
		} `json:"usage"`
	} `json:"message"`
	Attachment *struct {
		Type      string `json:"type"`
		ToolUseID string `json:"toolUseID"`
		Stdout    string `json:"stdout"`
	} `json:"attachment"`
}

type claudeBlock struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Name  string `json:"name"`
	Input struct {
		Command string `json:"command"`
	} `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

func readClaude(path string, s *scan) {
	pending := map[string]*Call{}
	mode := ""
	s.lines(path, func(line []byte) bool {
		var l claudeLine
		if !decode(line, &l) {
			return false
		}
		if !claudeKnown()[l.Type] {
			s.unknown()
			return true
		}
		if l.PermissionMode != "" {
			mode = l.PermissionMode
		}
		if l.Type == "assistant" && l.Message != nil && l.Message.Usage != nil && l.Message.Model != "<synthetic>" {
			u := l.Message.Usage
			s.sess.request(l.Message.ID, l.Message.Model, parseTime(l.Timestamp),
				Usage{Input: u.Input, CacheWrite: u.CacheWrite, CacheRead: u.CacheRead, Output: u.Output})
		}
		if l.Type == "system" && l.Subtype == "compact_boundary" {
			s.sess.compacted()
		}
		switch {
		case l.Type == "attachment" && l.Attachment != nil && l.Attachment.Type == "hook_success":
			if c := pending[l.Attachment.ToolUseID]; c != nil {
				if ran := hookCommand(l.Attachment.Stdout); ran != "" {
					c.Ran = ran
				}
			}
		case (l.Type == "assistant" || l.Type == "user") && l.Message != nil && len(l.Message.Content) > 0 && l.Message.Content[0] == '[':
			var blocks []claudeBlock
			if json.Unmarshal(l.Message.Content, &blocks) != nil {
				return false
			}
			for _, b := range blocks {
				switch {
				case b.Type == "tool_use" && b.Name == "Bash":
					pending[b.ID] = &Call{Session: l.SessionID, Cwd: l.Cwd, Start: parseTime(l.Timestamp),
						Command: b.Input.Command, Exit: -1, AutoAllow: mode == "bypassPermissions"}
				case b.Type == "tool_result":
					c := pending[b.ToolUseID]
					if c == nil {
						continue
					}
					delete(pending, b.ToolUseID)
					c.End = parseTime(l.Timestamp)
					c.Output = textBlocks(b.Content)
					if b.IsError {
						c.Exit = 1
					}
					c.Refused = l.Decision != nil && l.Decision.Decision == "reject"
					s.emitCall(c)
				}
			}
		}
		return true
	})
}

// hookCommand is the command a PreToolUse hook's answer replaced the
// original with ("" when it changed none).
func hookCommand(stdout string) string {
	var a struct {
		HookSpecificOutput struct {
			UpdatedInput struct {
				Command string `json:"command"`
			} `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(stdout)), &a) != nil {
		return ""
	}
	return a.HookSpecificOutput.UpdatedInput.Command
}

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
