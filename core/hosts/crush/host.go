// Package crush is what gotk knows of Crush (charmbracelet): its read-only
// list and its shell's block list, where gotk-install puts the hook, and
// the question `gotk verify` asks it.
package crush

import (
	"os"
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Crush.
var Host = &host.Def{
	Name: "crush", Title: "Crush",
	Rules:     Load,
	KnownSafe: SafeAlone,
	// hooks.PreToolUse entries carry their own name and matcher (a regex
	// on the tool name).
	Agent: &agentconf.Agent{
		Scopes: []agentconf.Scope{agentconf.Global, agentconf.Project}, HookBin: "gotk-hook-crush",
		Dirs:     func(e *agentconf.Env) []string { return []string{filepath.Dir(Config(e))} },
		Programs: []string{"crush"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, b agentconf.Bins) []agentconf.Part {
			f := Config(e)
			if s == agentconf.Project {
				// The project's crush.json, or its .crush.json when that
				// is the one it has.
				f = filepath.Join(e.Cwd, "crush.json")
				if _, err := os.Stat(f); err != nil {
					if _, err := os.Stat(filepath.Join(e.Cwd, ".crush.json")); err == nil {
						f = filepath.Join(e.Cwd, ".crush.json")
					}
				}
			}
			return []agentconf.Part{{Kind: agentconf.KindJSONHook, File: f, What: "PreToolUse hook", Hook: &agentconf.HookSpec{
				Event: []string{"hooks", "PreToolUse"}, Tool: "bash", CmdKey: "command", Bin: "gotk-hook-crush",
				Handler: agentconf.Obj{{K: "name", V: "gotk"}, {K: "matcher", V: "^bash$"}, {K: "command", V: b.Hook}, {K: "timeout", V: 10}},
			}}}
		},
	},
	Probe: &host.Probe{Command: "git status", Rewrites: true, Answer: []string{"updated_input", "command"},
		Payload: func(cwd, cmd string) any {
			return map[string]any{"event": "PreToolUse", "session_id": "gotk-verify", "cwd": cwd, "tool_name": "bash",
				"tool_input": map[string]any{"command": cmd, "description": "gotk verify probe"}}
		}},
	Table: host.Row{How: "`PreToolUse` hook `gotk-hook-crush`", Proven: "only where a `crush` is on PATH"},
}

// Config is Crush's global crush.json: in $CRUSH_GLOBAL_CONFIG, else
// $XDG_CONFIG_HOME/crush (crush internal/config GlobalConfig).
func Config(e *agentconf.Env) string {
	if d := e.Getenv("CRUSH_GLOBAL_CONFIG"); d != "" {
		return filepath.Join(filepath.Clean(d), "crush.json")
	}
	return filepath.Join(e.ConfigHome(), "crush", "crush.json")
}
