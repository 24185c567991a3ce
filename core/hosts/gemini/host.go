// Package gemini is what gotk knows of Gemini CLI: its settings, policy
// files and hard-wired asks, where gotk-install puts the hook, and the
// question `gotk verify` asks it.
package gemini

import (
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Gemini CLI. It matches its allow rules on the rewritten command,
// so an original one of them allows is not rewritten: the rewrite would
// take the user's allow away.
var Host = &host.Def{
	Name: "gemini", Title: "Gemini CLI",
	Rules:   Load,
	Answers: host.Answers{KeepAllowed: true},
	// Its flags add allow rules and policy files; its process may be
	// `gemini` or node running a script of @google/gemini-cli (it
	// relaunches itself with node options). Not found, flags that deny
	// (--policy) may be in force unseen.
	Flags: &host.Flags{
		Is:           host.IsProgram([]string{"gemini"}, "@google/gemini-cli"),
		Parse:        parseFlags,
		UnseenDenies: true,
	},
	Agent: &agentconf.Agent{
		Scopes: []agentconf.Scope{agentconf.Global, agentconf.Project}, HookBin: "gotk-hook-gemini",
		Dirs:     func(e *agentconf.Env) []string { return []string{ConfDir(e)} },
		Programs: []string{"gemini"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, b agentconf.Bins) []agentconf.Part {
			f := filepath.Join(ConfDir(e), "settings.json")
			if s == agentconf.Project {
				f = ProjectSettings(e.Cwd)
			}
			// Gemini CLI strips comments, then JSON.parse: a trailing
			// comma fails the file (gemini-cli 0.61 loadSettings).
			return []agentconf.Part{{Kind: agentconf.KindJSONHook, File: f, What: "BeforeTool hook", Syntax: agentconf.SyntaxJSONComments, Hook: &agentconf.HookSpec{
				Event: []string{"hooks", "BeforeTool"}, Matcher: "run_shell_command", Tool: "run_shell_command", CmdKey: "command", Bin: "gotk-hook-gemini",
				Handler: agentconf.Obj{{K: "name", V: "gotk"}, {K: "type", V: "command"}, {K: "command", V: b.Hook}, {K: "timeout", V: 10000}},
			}}}
		},
	},
	Probe: &host.Probe{Command: "git status", Rewrites: true, Under: "gemini", Answer: []string{"hookSpecificOutput", "tool_input", "command"},
		Payload: func(cwd, cmd string) any {
			return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
				"tool_input": map[string]any{"command": cmd}}
		}},
	Table: host.Row{How: "`BeforeTool` hook `gotk-hook-gemini`", Proven: "yes, 0.61.0"},
}

// ConfDir is ~/.gemini for gotk-install (GEMINI_CLI_HOME replaces the home
// folder; gemini-cli packages/core/src/utils/paths.ts homedir()).
func ConfDir(e *agentconf.Env) string { return filepath.Clean(Dir(e.Perm())) }
