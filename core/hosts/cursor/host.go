// Package cursor is what gotk knows of Cursor: its CLI's permission rules,
// where gotk-install puts the hook, and the question `gotk verify` asks it.
package cursor

import (
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Cursor (its agent CLI and the editor).
var Host = &host.Def{
	Name: "cursor", Title: "Cursor",
	Rules: Load,
	Agent: &agentconf.Agent{
		Scopes: []agentconf.Scope{agentconf.Global}, HookBin: "gotk-hook-cursor",
		Dirs:     func(e *agentconf.Env) []string { return []string{Dir(e.Perm())} },
		Programs: []string{"cursor-agent", "cursor"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, b agentconf.Bins) []agentconf.Part {
			return []agentconf.Part{{Kind: agentconf.KindJSONHook, File: filepath.Join(Dir(e.Perm()), "hooks.json"), What: "preToolUse hook", Hook: &agentconf.HookSpec{
				Event: []string{"hooks", "preToolUse"}, Tool: "Shell", CmdKey: "command", Bin: "gotk-hook-cursor",
				Handler:  agentconf.Obj{{K: "command", V: b.Hook}, {K: "matcher", V: "Shell"}},
				RootKeys: agentconf.Obj{{K: "version", V: 1}},
			}}}
		},
		Notes: func(e *agentconf.Env, s agentconf.Scope) []string {
			return []string{"Cursor also runs Claude Code hooks from ~/.claude/settings.json; with both installed it runs gotk twice (harmless: a gotk command is not rewritten again)."}
		},
	},
	Probe: &host.Probe{Command: "git status", Rewrites: true, Answer: []string{"updated_input", "command"},
		Payload: func(cwd, cmd string) any {
			return map[string]any{"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": map[string]any{"command": cmd, "working_directory": cwd},
				"tool_use_id": "gotk-verify", "cwd": cwd, "workspace_roots": []string{cwd}}
		}},
	Table: host.Row{How: "`preToolUse` hook `gotk-hook-cursor`", Proven: "no offline Cursor CLI: unit and scenario tests"},
}
