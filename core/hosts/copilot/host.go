// Package copilot is what gotk knows of GitHub Copilot CLI (and VS Code's
// Copilot, which runs the same hooks): its session flags, where
// gotk-install puts the hook, and the question `gotk verify` asks it.
package copilot

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Copilot CLI. It has no rule files gotk reads: gotk allows only
// in a session started with --allow-all-tools. Not finding its process is
// no flags, not unsure: gotk allows only on a flag it has seen, and VS
// Code's Copilot runs hooks with no CLI above them at all.
var Host = &host.Def{
	Name: "copilot", Title: "Copilot CLI",
	Flags: &host.Flags{Is: host.IsProgram([]string{"copilot"}, "@github/copilot"), Parse: parseFlags},
	Rules: Rules,
	Agent: &agentconf.Agent{
		Scopes: []agentconf.Scope{agentconf.Global, agentconf.Project}, HookBin: "gotk-hook-copilot",
		Dirs:     func(e *agentconf.Env) []string { return []string{ConfDir(e)} },
		Programs: []string{"copilot"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, b agentconf.Bins) []agentconf.Part {
			// Copilot CLI denies a tool call whose preToolUse hook fails:
			// the matcher (a regex on toolName, anchored) keeps gotk to
			// the shell tools, so a missing binary cannot block the others.
			doc := agentconf.Obj{{K: "version", V: 1}, {K: "hooks", V: agentconf.Obj{{K: "preToolUse", V: []any{agentconf.Obj{{K: "type", V: "command"}, {K: "bash", V: b.Hook}, {K: "timeoutSec", V: 10}, {K: "matcher", V: shellTools}}}}}}}
			if s == agentconf.Project {
				return []agentconf.Part{
					{Kind: agentconf.KindFile, File: filepath.Join(e.Cwd, ".github", "hooks", "gotk.json"), Doc: doc, What: "preToolUse hook file"},
					{Kind: agentconf.KindBlock, File: filepath.Join(e.Cwd, ".github", "copilot-instructions.md"), Markers: agentconf.MDMarkers, Asset: agentconf.AssetRules, What: "gotk rules block", Rules: true},
				}
			}
			return []agentconf.Part{{Kind: agentconf.KindFile, File: filepath.Join(ConfDir(e), "hooks", "gotk.json"), Doc: doc, What: "preToolUse hook file"}}
		},
		Notes: func(e *agentconf.Env, s agentconf.Scope) []string {
			return []string{"one camelCase preToolUse registration only: VS Code reads the same folder, so install gotk for Copilot in one scope, not both."}
		},
	},
	// Copilot's hook answers only in --allow-all-tools sessions.
	Probe: &host.Probe{Command: "git status", Answer: []string{"modifiedArgs", "command"},
		Payload: func(cwd, cmd string) any {
			args, _ := json.Marshal(map[string]string{"command": cmd})
			return map[string]any{"sessionId": "gotk-verify", "timestamp": 0, "cwd": cwd, "toolName": "bash", "toolArgs": string(args)}
		}},
	Table: host.Row{Name: "GitHub Copilot CLI and VS Code", How: "`preToolUse` hook `gotk-hook-copilot`", Proven: "yes, 1.0.102"},
}

// shellTools matches Copilot CLI's shell tools, the ones gotk-hook-copilot
// answers for.
const shellTools = "bash|powershell"

// ConfDir is $COPILOT_HOME or ~/.copilot.
func ConfDir(e *agentconf.Env) string { return e.DirFrom("COPILOT_HOME", ".copilot") }

// parseFlags reads Copilot CLI's --allow-all-tools (--allow-all, --yolo)
// and counts --deny-tool / --deny-url as deny rules gotk cannot apply
// itself. The options are commander.js's: `--` ends them, and an option
// that takes a value takes the next argument whatever it is (`-p --yolo`
// is the prompt "--yolo"), so an allow-all flag counts only behind an
// argument gotk knows takes no value. A deny flag counts anywhere.
func parseFlags(argv []string) host.Session {
	var s host.Session
	ended := false
	for i, a := range argv[1:] {
		name, val, hasVal := strings.Cut(a, "=")
		switch name {
		case "--":
			ended = true
		case "--allow-all-tools", "--allow-all", "--yolo":
			if !ended && !hasVal && (i == 0 || !mayTakeValue(argv[i])) {
				s.AllowAll = true
			}
		case "--deny-tool", "--deny-url":
			s.Rules.Deny = append(s.Rules.Deny, val)
		}
	}
	return s
}

// noValue are Copilot CLI options known to take no value.
var noValue = map[string]bool{"--allow-all-tools": true, "--allow-all-paths": true, "--allow-all-urls": true, "--allow-all": true, "--yolo": true,
	"--no-auto-update": true, "--disable-client-telemetry": true, "--silent": true, "-s": true, "--no-color": true, "--no-ask-user": true,
	"--disallow-temp-dir": true, "--screen-reader": true, "--banner": true, "--experimental": true, "--continue": true}

// mayTakeValue: arg is an option that may take the argument after it as
// its value.
func mayTakeValue(arg string) bool {
	return strings.HasPrefix(arg, "-") && !strings.Contains(arg, "=") && !noValue[arg]
}
