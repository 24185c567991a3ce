// Package cline is what gotk knows of Cline: its CLI's plan-mode guard,
// where gotk-install puts the hook script (or, for the extension, a rules
// text), and the question `gotk verify` asks it.
package cline

import (
	"os"
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Cline. Cline CLI approves per tool (its run_commands tool as a
// whole), whatever the command; its plan-mode guard checks the REWRITTEN
// command (an ask rule of Load), where `gotk git commit` is no longer
// refused.
var Host = &host.Def{
	Name: "cline", Title: "Cline",
	Rules:   Load,
	Answers: host.Answers{NoAsk: true},
	// Cline CLI 3.x runs the file named after the event in its hooks
	// folder: a short script that execs gotk-hook-cline. --project keeps
	// the rules text (.clinerules) for the Cline extension.
	Agent: &agentconf.Agent{
		Scopes: []agentconf.Scope{agentconf.Global, agentconf.Project}, HookBin: "gotk-hook-cline",
		Dirs: func(e *agentconf.Env) []string {
			return []string{ConfDir(e), filepath.Join(e.Cwd, ".clinerules")}
		},
		Programs: []string{"cline"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, b agentconf.Bins) []agentconf.Part {
			if s == agentconf.Global {
				return []agentconf.Part{{Kind: agentconf.KindFile, File: filepath.Join(ConfDir(e), "hooks", "PreToolUse"), Body: HookScript(b.Hook), Script: HookScript,
					ScriptWas: []func(string) string{hookScriptV1}, What: "PreToolUse hook file"}}
			}
			f := filepath.Join(e.Cwd, ".clinerules")
			if fi, err := os.Stat(f); err == nil && fi.IsDir() {
				// .clinerules may be a folder of rule files.
				return []agentconf.Part{{Kind: agentconf.KindFile, File: filepath.Join(f, "gotk.md"), Asset: agentconf.AssetRules, What: "rules file"}}
			}
			return []agentconf.Part{{Kind: agentconf.KindBlock, File: f, Markers: agentconf.MDMarkers, Asset: agentconf.AssetRules, What: "gotk rules block"}}
		},
		Notes: func(e *agentconf.Env, s agentconf.Scope) []string {
			if s != agentconf.Global {
				return nil
			}
			return []string{"Cline runs its sessions (and their hooks) in a background hub that keeps the environment it was started with: if gotk is not on that PATH, stop the hub once (cline hub stop) after installing."}
		},
	},
	// Cline's shell tool takes a list of commands.
	Probe: &host.Probe{Command: "git status", Rewrites: true, Answer: []string{"overrideInput", "commands", "0"},
		Payload: func(cwd, cmd string) any {
			return map[string]any{"taskId": "gotk-verify", "workspaceRoots": []string{cwd}, "hookName": "tool_call",
				"tool_call": map[string]any{"id": "gotk-verify", "name": "run_commands", "input": map[string]any{"commands": []string{cmd}}}}
		}},
	Table: host.Row{Name: "Cline CLI", Install: "(`cline --project`: a rules text for the Cline extension)", How: "`PreToolUse` hook script running `gotk-hook-cline`", Proven: "yes, 3.0.65"},
}

// ConfDir is $CLINE_DIR or ~/.cline (@cline/shared: its hooks are in
// hooks/ there).
func ConfDir(e *agentconf.Env) string { return e.DirFrom("CLINE_DIR", ".cline") }

// HookScript is the hook file gotk-install writes for Cline: Cline runs a
// file without extension as a program when its first line is a shebang.
// When the hook is gone (gotk moved or uninstalled by hand) the script
// exits 0 with nothing on stdout, which Cline 3.0.65 takes as no answer
// (runHookCommand reads only the hook's JSON on stdout): the tool call goes
// ahead unchanged, and no "not found" exit 127 is left to any Cline that
// would read it as a failure.
func HookScript(hook string) string {
	return "#!/bin/sh\n# gotk-install: Cline runs this file before each tool call; gotk-hook-cline answers.\n" +
		"# Without it, the tool call goes ahead unchanged.\ncommand -v " + hook + " >/dev/null 2>&1 || exit 0\nexec " + hook + "\n"
}

// hookScriptV1 is HookScript before it stepped aside for a missing hook.
func hookScriptV1(hook string) string {
	return "#!/bin/sh\n# gotk-install: Cline runs this file before each tool call; gotk-hook-cline answers.\nexec " + hook + "\n"
}
