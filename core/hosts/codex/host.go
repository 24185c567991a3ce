// Package codex is what gotk knows of Codex CLI: its execpolicy rules, its
// known-safe commands, where gotk-install puts the hook, and the question
// `gotk verify` asks it.
package codex

import (
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Codex CLI. It accepts a rewrite only as an allow, so an ask
// rewrite is no rewrite.
var Host = &host.Def{
	Name: "codex", Title: "Codex CLI",
	Rules:     Load,
	Answers:   host.Answers{AllowOnly: true, KeepRuleAllowed: true},
	KnownSafe: func(cmd string) (bool, bool) { return KnownSafe(cmd), true },
	Agent: &agentconf.Agent{
		Scopes: []agentconf.Scope{agentconf.Global}, HookBin: "gotk-hook-codex",
		Dirs:     func(e *agentconf.Env) []string { return []string{ConfDir(e)} },
		Programs: []string{"codex"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, b agentconf.Bins) []agentconf.Part {
			return []agentconf.Part{
				// Codex reads hooks.json with serde_json: plain JSON.
				{Kind: agentconf.KindJSONHook, File: filepath.Join(ConfDir(e), "hooks.json"), What: "PreToolUse hook", Syntax: agentconf.SyntaxJSON, Hook: &agentconf.HookSpec{
					Event: []string{"hooks", "PreToolUse"}, Matcher: "Bash", Tool: "Bash", CmdKey: "command", Bin: "gotk-hook-codex",
					Handler: agentconf.Obj{{K: "type", V: "command"}, {K: "command", V: b.Hook}, {K: "timeout", V: 10}},
				}},
				{Kind: agentconf.KindBlock, File: filepath.Join(ConfDir(e), "AGENTS.md"), Markers: agentconf.MDMarkers, Body: Note(b.Gotk), What: "gotk note", Rules: true},
			}
		},
		Notes: func(e *agentconf.Env, s agentconf.Scope) []string {
			return []string{"Codex runs new hooks only once trusted: start codex and run /hooks to review and trust gotk's."}
		},
	},
	// Codex takes a rewrite only as an allow, and gotk allows only Codex's
	// known-safe commands (KnownSafe): ls is one, git status is not.
	Probe: &host.Probe{Command: "ls", Rewrites: true, Absolute: true, Answer: []string{"hookSpecificOutput", "updatedInput", "command"},
		Payload: func(cwd, cmd string) any {
			return map[string]any{"session_id": "gotk-verify", "turn_id": "gotk-verify", "cwd": cwd, "hook_event_name": "PreToolUse", "model": "gotk-verify",
				"permission_mode": "default", "tool_name": "Bash", "tool_input": map[string]any{"command": cmd}, "tool_use_id": "gotk-verify"}
		}},
	Table: host.Row{Install: "(then trust it once with `/hooks`)", How: "`PreToolUse` hook `gotk-hook-codex`", Proven: "yes, 0.169.0"},
}

// ConfDir is $CODEX_HOME or ~/.codex, for gotk-install.
func ConfDir(e *agentconf.Env) string { return filepath.Clean(Home(e.Perm())) }

// Note is the note Codex gets in AGENTS.md. Its hook already rewrites
// commands; the model only needs to know what the compact output is and how
// to get the rest. It names gotk by absolute path: Codex runs commands in a
// login shell, whose PATH may not have gotk.
func Note(gotk string) string {
	if gotk == "" {
		gotk = "gotk"
	}
	return "A hook runs some shell commands through gotk (" + gotk + "), which prints a compact form of their\n" +
		"output with the same exit code and failures in full. When it says output was cut, run the\n" +
		"`" + gotk + " recall <id>` it names, or `" + gotk + " --raw <command>`.\n"
}
