// Package auggie is what gotk knows of Augment's Auggie CLI: its
// toolPermissions, where gotk-install puts the hook, and the question
// `gotk verify` asks it.
package auggie

import (
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Auggie. Its PreToolUse hook's updatedInput replaces the whole
// input of the launch-process tool, and Auggie then checks its
// toolPermissions on the REWRITTEN input; a hook's "allow" skips no
// prompt. So gotk never answers allow, and rewrites only where every rule
// of the user's matches the rewritten command as it matches the original
// (Load).
var Host = &host.Def{
	Name: "auggie", Title: "Auggie",
	Rules: Load,
	Agent: &agentconf.Agent{
		Scopes: []agentconf.Scope{agentconf.Global, agentconf.Project}, HookBin: "gotk-hook-auggie",
		Dirs:     func(e *agentconf.Env) []string { return []string{ConfDir(e)} },
		Programs: []string{"auggie"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, b agentconf.Bins) []agentconf.Part {
			f := filepath.Join(ConfDir(e), "settings.json")
			if s == agentconf.Project {
				f = filepath.Join(e.Cwd, ".augment", "settings.json")
			}
			// The matcher is a regular expression on the tool's name;
			// Auggie's timeout is in milliseconds.
			return []agentconf.Part{{Kind: agentconf.KindJSONHook, File: f, What: "PreToolUse hook", Hook: &agentconf.HookSpec{
				Event: []string{"hooks", "PreToolUse"}, Matcher: "^launch-process$", Tool: "launch-process", CmdKey: "command", Bin: "gotk-hook-auggie",
				Handler: agentconf.Obj{{K: "type", V: "command"}, {K: "command", V: b.Hook}, {K: "timeout", V: 10000}},
			}}}
		},
	},
	Probe: &host.Probe{Command: "git status", Rewrites: true, Absolute: true, Answer: []string{"hookSpecificOutput", "updatedInput", "command"},
		Payload: func(cwd, cmd string) any {
			return map[string]any{"hook_event_name": "PreToolUse", "conversation_id": "gotk-verify", "workspace_roots": []string{cwd},
				"tool_name": "launch-process", "tool_input": map[string]any{"command": cmd, "wait": true, "max_wait_seconds": 600, "cwd": cwd},
				"tool_error": nil, "is_mcp_tool": false}
		}},
	Table: host.Row{How: "`PreToolUse` hook `gotk-hook-auggie` (never an allow: Auggie's own rules decide)", Proven: "yes, 0.36.0 (against a fake of Augment's API)"},
}

// ConfDir is ~/.augment (Auggie's default --augment-cache-dir).
func ConfDir(e *agentconf.Env) string { return filepath.Join(e.Home, ".augment") }
