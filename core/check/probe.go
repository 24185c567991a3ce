package check

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// probe.go: what a hook gets and should answer. Each hook is asked about
// one command its agent lets it rewrite in a clean session; a working hook
// with gotk on its PATH answers with `gotk <command>`.

// probe is one agent's question and where its answer carries the command.
type probe struct {
	command string
	payload func(cwd, command string) any
	// answer is the path of the rewritten command in the answer (an
	// index for a list element).
	answer []string
	// rewrites is false for a hook that, outside a session of its agent,
	// answers nothing by design (Copilot: only --allow-all-tools sessions).
	rewrites bool
	// absolute: the rewrite names gotk by absolute path (Codex runs
	// commands in a login shell).
	absolute bool
	// under names the agent process the hook must run beneath: a hook
	// that finds no such ancestor cannot see the session's flags, which
	// may deny, and so never allows. The probe runs it as a child of a
	// shell named so, the way the agent starts it, with no flags.
	under string
}

var probes = map[string]probe{
	"claude": {command: "git status", rewrites: true, under: "claude", answer: []string{"hookSpecificOutput", "updatedInput", "command"},
		payload: func(cwd, cmd string) any {
			return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "permission_mode": "default", "hook_event_name": "PreToolUse",
				"tool_name": "Bash", "tool_input": map[string]any{"command": cmd, "description": "gotk verify probe"}, "tool_use_id": "gotk-verify"}
		}},
	// Codex takes a rewrite only as an allow, and allows only its own
	// known-safe commands without asking: ls is one, git status is not.
	"codex": {command: "ls", rewrites: true, absolute: true, answer: []string{"hookSpecificOutput", "updatedInput", "command"},
		payload: func(cwd, cmd string) any {
			return map[string]any{"session_id": "gotk-verify", "turn_id": "gotk-verify", "cwd": cwd, "hook_event_name": "PreToolUse", "model": "gotk-verify",
				"permission_mode": "default", "tool_name": "Bash", "tool_input": map[string]any{"command": cmd}, "tool_use_id": "gotk-verify"}
		}},
	"cursor": {command: "git status", rewrites: true, answer: []string{"updated_input", "command"},
		payload: func(cwd, cmd string) any {
			return map[string]any{"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": map[string]any{"command": cmd, "working_directory": cwd},
				"tool_use_id": "gotk-verify", "cwd": cwd, "workspace_roots": []string{cwd}}
		}},
	"copilot": {command: "git status", answer: []string{"modifiedArgs", "command"},
		payload: func(cwd, cmd string) any {
			args, _ := json.Marshal(map[string]string{"command": cmd})
			return map[string]any{"sessionId": "gotk-verify", "timestamp": 0, "cwd": cwd, "toolName": "bash", "toolArgs": string(args)}
		}},
	"gemini": {command: "git status", rewrites: true, answer: []string{"hookSpecificOutput", "tool_input", "command"},
		payload: func(cwd, cmd string) any {
			return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
				"tool_input": map[string]any{"command": cmd}}
		}},
	// Droid's hook rewrites only as an allow: git status is one of Droid's
	// built-in allows, at the low risk the model rates it.
	"droid": {command: "git status", rewrites: true, under: "droid", answer: []string{"hookSpecificOutput", "updatedInput", "command"},
		payload: func(cwd, cmd string) any {
			return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "permission_mode": "auto-low", "hook_event_name": "PreToolUse",
				"tool_name": "Execute", "tool_input": map[string]any{"command": cmd, "riskLevel": "low", "riskLevelReason": "gotk verify probe", "summary": "gotk verify probe"}}
		}},
	"crush": {command: "git status", rewrites: true, answer: []string{"updated_input", "command"},
		payload: func(cwd, cmd string) any {
			return map[string]any{"event": "PreToolUse", "session_id": "gotk-verify", "cwd": cwd, "tool_name": "bash",
				"tool_input": map[string]any{"command": cmd, "description": "gotk verify probe"}}
		}},
	// Cline's shell tool takes a list of commands.
	"cline": {command: "git status", rewrites: true, answer: []string{"overrideInput", "commands", "0"},
		payload: func(cwd, cmd string) any {
			return map[string]any{"taskId": "gotk-verify", "workspaceRoots": []string{cwd}, "hookName": "tool_call",
				"tool_call": map[string]any{"id": "gotk-verify", "name": "run_commands", "input": map[string]any{"commands": []string{cmd}}}}
		}},
	"vibe": {command: "git status", rewrites: true, answer: []string{"hook_specific_output", "tool_input", "command"},
		payload: func(cwd, cmd string) any {
			return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "hook_event_name": "pre_tool", "tool_name": "bash", "tool_call_id": "gotk-verify",
				"tool_input": map[string]any{"command": cmd, "timeout": nil}}
		}},
}

// gotkMissing is what every hook says on stderr when it finds no gotk
// (core/hookio).
const gotkMissing = "gotk is not on PATH"

// judge reads a hook's answer to p: the rewritten command it carries, or an
// error saying how the answer is wrong. An empty answer is "".
func (p probe) judge(out []byte) (string, error) {
	line := strings.TrimSpace(string(out))
	if line == "" || line == "{}" {
		return "", nil
	}
	if strings.Contains(line, "\n") {
		return "", fmt.Errorf("printed more than one line: %.80q", line)
	}
	var v any
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		return "", fmt.Errorf("printed something that is not JSON: %.80q", line)
	}
	for _, k := range p.answer {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			// A list element, by its index.
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return "", nil
			}
			v = x[i]
		default:
			return "", nil
		}
	}
	if v == nil {
		return "", nil
	}
	cmd, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("answered %s that is not a string: %.80q", strings.Join(p.answer, "."), line)
	}
	return cmd, nil
}

// want checks a rewrite of p's command: `gotk <command>`, or for an
// agent whose rewrites name gotk by absolute path, an absolute path to an
// executable gotk.
func (p probe) want(cmd string, isExec func(string) bool) error {
	word := agentconf.Program(cmd)
	rest := strings.TrimSpace(cmd)
	if word == "" {
		return fmt.Errorf("rewrote %q to %q", p.command, cmd)
	}
	if q := rest[:1]; q == "'" || q == `"` {
		rest = rest[len(word)+2:]
	} else {
		rest = rest[len(word):]
	}
	rest = strings.TrimSpace(rest)
	switch {
	case rest != p.command:
		return fmt.Errorf("rewrote %q to %q, not to gotk %s", p.command, cmd, p.command)
	case p.absolute && !filepath.IsAbs(word):
		return fmt.Errorf("rewrote %q to %q: its agent needs gotk named by absolute path", p.command, cmd)
	case p.absolute && !isExec(word):
		return fmt.Errorf("rewrites %q to %q, but %s is not an executable", p.command, cmd, word)
	case !p.absolute && word != "gotk":
		return fmt.Errorf("rewrote %q to %q, not to gotk %s", p.command, cmd, p.command)
	}
	return nil
}
