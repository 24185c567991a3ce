// Package vibe is what gotk knows of Mistral Vibe: its bash tool
// permissions, where gotk-install puts the hook, and the question
// `gotk verify` asks it.
package vibe

import (
	"path/filepath"
	"strings"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Mistral Vibe. It checks its rules on the REWRITTEN command, where
// an ask rule of the original would no longer match, so an original an ask
// rule matches is not rewritten.
var Host = &host.Def{
	Name: "vibe", Title: "Mistral Vibe",
	Rules:   Load,
	Answers: host.Answers{NoAsk: true},
	Agent: &agentconf.Agent{
		Scopes: []agentconf.Scope{agentconf.Global}, HookBin: "gotk-hook-vibe",
		Dirs:     func(e *agentconf.Env) []string { return []string{ConfDir(e)} },
		Programs: []string{"vibe"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, b agentconf.Bins) []agentconf.Part {
			fields := []string{`name = "gotk"`, `type = "pre_tool"`, `match = "bash"`,
				"command = " + agentconf.TOMLString(b.Hook), "timeout = 10.0", "strict = false"}
			body := "[[hooks]]\n" + strings.Join(fields, "\n")
			// The same hook as an inline table, for a hooks.toml whose
			// hooks are an inline array.
			inline := "{ " + strings.Join(fields, ", ") + " }"
			return []agentconf.Part{
				{Kind: agentconf.KindBlock, File: filepath.Join(ConfDir(e), "hooks.toml"), Markers: agentconf.TOMLMarkers, Body: body, Inline: inline, IsTOML: true, What: "pre_tool hook"},
				{Kind: agentconf.KindTOMLFlag, File: filepath.Join(ConfDir(e), "config.toml"), Flag: "enable_experimental_hooks", What: "enable_experimental_hooks = true"},
			}
		},
		Notes: func(e *agentconf.Env, s agentconf.Scope) []string {
			return []string{`Vibe <= 2.20 calls the event "before_tool"; gotk writes "pre_tool" (Vibe >= 2.21).`}
		},
	},
	Probe: &host.Probe{Command: "git status", Rewrites: true, Answer: []string{"hook_specific_output", "tool_input", "command"},
		Payload: func(cwd, cmd string) any {
			return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "hook_event_name": "pre_tool", "tool_name": "bash", "tool_call_id": "gotk-verify",
				"tool_input": map[string]any{"command": cmd, "timeout": nil}}
		}},
	Table: host.Row{How: "`pre_tool` hook `gotk-hook-vibe`", Proven: "Vibe is on PyPI (unreachable here): unit and scenario tests"},
}

// ConfDir is $VIBE_HOME or ~/.vibe, for gotk-install.
func ConfDir(e *agentconf.Env) string { return filepath.Clean(Home(e.Perm())) }
