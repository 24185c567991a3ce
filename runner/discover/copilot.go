package discover

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// GitHub Copilot CLI writes one events.jsonl per session:
// $COPILOT_HOME/session-state/<session id>/events.jsonl (default
// ~/.copilot). Measured in Copilot CLI 1.0.102 (e2e): each line is {type,
// data, id, timestamp}; session.start has data.context.cwd; a shell call is
// tool.execution_start {toolCallId, toolName:"bash", arguments:{command}}
// and tool.execution_complete {toolCallId, success, result:{content} or
// error:{message, code}, shellExecution:{exitCode}}; code "denied" means
// the command did not run. The transcript does not
// record a preToolUse hook's rewrite (gotk's own run log does: see
// gotkruns.go), nor the session's flags. A call the session had to ask
// about leaves permission.requested; a session that asked about none of
// its shell calls is taken as started with --allow-all-tools, the only
// sessions where gotk's hook rewrites (Copilot re-checks its rules on the
// rewritten command).
//
// Each model request leaves session.usage_record {usage:{model,
// inputTokens (cached and cache writes included), outputTokens,
// cacheReadTokens, cacheWriteTokens, apiCallId}}: the CLI's own accounting
// takes inputTokens − cacheReadTokens − cacheWriteTokens as the uncached
// input. An event of a sub-agent carries agentId: its requests are another
// context. session.compaction_complete {success} and
// session.context_cleared end a context.

func copilotFiles(e Env) []string {
	return glob(filepath.Join(e.dir("COPILOT_HOME", ".copilot"), "session-state", "*", "events.jsonl"))
}

// copilotKnown are the families of Copilot CLI's event types.
var copilotKnown = []string{"session.", "user.", "assistant.", "system.", "tool.", "hook.", "permission.",
	"subagent.", "skill.", "abort", "pending_messages.", "elicitation.", "exit_plan_mode.", "command.", "model."}

type copilotLine struct {
	Type      string          `json:"type"`
	Timestamp json.RawMessage `json:"timestamp"`
	AgentID   string          `json:"agentId"`
	Data      struct {
		SessionID string `json:"sessionId"`
		Usage     *struct {
			Model      string `json:"model"`
			Input      int64  `json:"inputTokens"`
			Output     int64  `json:"outputTokens"`
			CacheRead  int64  `json:"cacheReadTokens"`
			CacheWrite int64  `json:"cacheWriteTokens"`
			APICallID  string `json:"apiCallId"`
		} `json:"usage"`
		Context struct {
			Cwd string `json:"cwd"`
		} `json:"context"`
		ToolCallID string `json:"toolCallId"`
		ToolName   string `json:"toolName"`
		Arguments  struct {
			Command string `json:"command"`
		} `json:"arguments"`
		Success bool `json:"success"`
		Result  *struct {
			Content string `json:"content"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
			Code    string `json:"code"`
		} `json:"error"`
		ShellExecution *struct {
			ExitCode *int `json:"exitCode"`
		} `json:"shellExecution"`
	} `json:"data"`
}

func readCopilot(path string, s *scan) {
	allowAll := !copilotAsked(path)
	pending := map[string]*Call{}
	session, cwd := filepath.Base(filepath.Dir(path)), ""
	s.lines(path, func(line []byte) bool {
		var l copilotLine
		if !decode(line, &l) {
			return false
		}
		if !knownFamily(l.Type, copilotKnown) {
			s.unknown()
			return true
		}
		d := &l.Data
		s.context(l.AgentID, session)
		switch l.Type {
		case "session.usage_record":
			if u := d.Usage; u != nil {
				s.sess.request(u.APICallID, u.Model, parseTime(l.Timestamp), Usage{Input: max(u.Input-u.CacheRead-u.CacheWrite, 0),
					CacheWrite: u.CacheWrite, CacheRead: u.CacheRead, Output: u.Output})
			}
		case "session.compaction_complete":
			if d.Success {
				s.sess.compacted()
			}
		case "session.context_cleared":
			s.sess.compacted()
		case "session.start", "session.resume":
			if d.Context.Cwd != "" {
				cwd = d.Context.Cwd
			}
			if d.SessionID != "" {
				session = d.SessionID
			}
			s.sess.note(session, cwd, parseTime(l.Timestamp))
		case "tool.execution_start":
			if d.ToolName == "bash" || d.ToolName == "powershell" {
				pending[d.ToolCallID] = &Call{Session: session, Cwd: cwd, Start: parseTime(l.Timestamp),
					Command: d.Arguments.Command, Exit: -1, AllowAll: allowAll, unwrap: copilotOutput}
			}
		case "tool.execution_complete":
			c := pending[d.ToolCallID]
			if c == nil {
				return true
			}
			delete(pending, d.ToolCallID)
			c.End = parseTime(l.Timestamp)
			switch {
			case d.Result != nil:
				c.Output = d.Result.Content
			case d.Error != nil:
				c.Output = d.Error.Message
				c.Refused = d.Error.Code == "denied"
			}
			if d.ShellExecution != nil && d.ShellExecution.ExitCode != nil {
				c.Exit = *d.ShellExecution.ExitCode
			}
			s.emitCall(c)
		}
		return true
	})
}

// copilotAsked reports whether the session asked for a permission for a
// shell command (a first, cheap pass: no JSON is decoded but the matches).
func copilotAsked(path string) bool {
	asked := false
	s := &scan{}
	s.lines(path, func(line []byte) bool {
		if !asked && bytes.Contains(line, []byte(`"permission.requested"`)) {
			var l struct {
				Type string `json:"type"`
				Data struct {
					PermissionRequest struct {
						Kind string `json:"kind"`
					} `json:"permissionRequest"`
				} `json:"data"`
			}
			if decode(line, &l) && l.Type == "permission.requested" && l.Data.PermissionRequest.Kind == "shell" {
				asked = true
			}
		}
		return true
	})
	return asked
}

func knownFamily(t string, families []string) bool {
	for _, f := range families {
		if strings.HasPrefix(t, f) {
			return true
		}
	}
	return false
}

// copilotTrailer is the line Copilot CLI appends to a command's output.
var copilotTrailer = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<shellId: [^>]* completed with exit code (-?\d+)>\s*\z`)
})

func copilotOutput(out string) (string, int) {
	m := copilotTrailer().FindStringSubmatchIndex(out)
	if m == nil {
		return out, -1
	}
	exit, _ := strconv.Atoi(out[m[2]:m[3]])
	return out[:m[0]], exit
}
