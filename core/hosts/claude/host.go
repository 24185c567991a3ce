// Package claude is what gotk knows of Claude Code: its settings files and
// rule matching, its session flags, where gotk-install puts the hook, and
// the question `gotk verify` asks it.
package claude

import (
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Claude Code.
var Host = &host.Def{
	Name: "claude", Title: "Claude Code",
	Rules:      Load,
	ReadOnly:   true,
	ModeMayRun: ModeMayRun,
	// The Agent SDK runs its bundled native binary (…/claude-agent-sdk-
	// linux-x64/claude) or, before 0.2, `node …/claude-agent-sdk/cli.js`.
	Flags: &host.Flags{
		Is:           host.IsProgram([]string{"claude", "claude.exe"}, "@anthropic-ai/claude-code", "@anthropic-ai/claude-agent-sdk"),
		Parse:        parseFlags,
		UnseenDenies: true,
	},
	Agent: &agentconf.Agent{
		Scopes: []agentconf.Scope{agentconf.Global, agentconf.Project}, HookBin: "gotk-hook-claude",
		Dirs:     func(e *agentconf.Env) []string { return []string{ConfDir(e)} },
		Programs: []string{"claude"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, b agentconf.Bins) []agentconf.Part {
			f := filepath.Join(ConfDir(e), "settings.json")
			if s == agentconf.Project {
				f = ProjectSettings(e.Cwd)
			}
			// Claude Code skips a settings file with a comment or a
			// trailing comma ("Invalid or malformed JSON";
			// anthropics/claude-code#83190).
			return []agentconf.Part{{Kind: agentconf.KindJSONHook, File: f, What: "PreToolUse hook", Syntax: agentconf.SyntaxJSON, Hook: &agentconf.HookSpec{
				Event: []string{"hooks", "PreToolUse"}, Matcher: "Bash", Tool: "Bash", CmdKey: "command", Bin: "gotk-hook-claude",
				Handler: agentconf.Obj{{K: "type", V: "command"}, {K: "command", V: b.Hook}, {K: "timeout", V: 10}},
			}}}
		},
	},
	Probe: &host.Probe{Command: "git status", Rewrites: true, Under: "claude", Answer: []string{"hookSpecificOutput", "updatedInput", "command"},
		Payload: func(cwd, cmd string) any {
			return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "permission_mode": "default", "hook_event_name": "PreToolUse",
				"tool_name": "Bash", "tool_input": map[string]any{"command": cmd, "description": "gotk verify probe"}, "tool_use_id": "gotk-verify"}
		}},
	Table: host.Row{How: "`PreToolUse` hook `gotk-hook-claude`", Proven: "yes, 2.1.328"},
}

// ConfDir is Claude Code's configuration folder for gotk-install.
func ConfDir(e *agentconf.Env) string { return filepath.Clean(Dir(e.Perm())) }
