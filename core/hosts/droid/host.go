// Package droid is what gotk knows of Factory Droid: its rules, built-in
// allows and safeguards, session flags, where gotk-install puts the hook,
// and the question `gotk verify` asks it.
package droid

import (
	"os"
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Factory Droid: rules in settings.json, the model's risk level
// against the session's autonomy (the hook's payload says both). Droid
// checks its allow rules and its risk gate on the REWRITTEN command,
// unless a hook allows it: a rewrite is an allow or nothing.
var Host = &host.Def{
	Name: "droid", Title: "Factory Droid",
	Rules:     Load,
	Answers:   host.Answers{AllowOnly: true},
	KnownSafe: func(cmd string) (bool, bool) { return KnownSafe(cmd), true },
	Flags: &host.Flags{
		Is:           host.IsProgram([]string{"droid"}, "@factory/cli"),
		Parse:        parseFlags,
		UnseenDenies: true,
	},
	// hooks.json keyed by event; commandRegex so that Droid calls the hook
	// only for commands naming a program gotk may rewrite;
	// preserveRiskLevel so that, when gotk does not allow, the model's risk
	// level still applies.
	Agent: &agentconf.Agent{
		Scopes: []agentconf.Scope{agentconf.Global, agentconf.Project}, HookBin: "gotk-hook-droid", CommandRegex: true,
		Dirs:     func(e *agentconf.Env) []string { return []string{ConfDir(e)} },
		Programs: []string{"droid"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, b agentconf.Bins) []agentconf.Part {
			dir := ConfDir(e)
			if s == agentconf.Project {
				dir = filepath.Join(e.Cwd, ".factory")
			}
			spec := &agentconf.HookSpec{
				Event: []string{"PreToolUse"}, Matcher: "Execute", Tool: "Execute", CmdKey: "command", Bin: "gotk-hook-droid",
				Handler: agentconf.Obj{{K: "type", V: "command"}, {K: "command", V: b.Hook}, {K: "timeout", V: 10}, {K: "preserveRiskLevel", V: true}},
			}
			if b.CommandRegex != "" {
				spec.Group = agentconf.Obj{{K: "commandRegex", V: b.CommandRegex}}
			}
			f := filepath.Join(dir, "hooks.json")
			if hooksInSettings(dir) {
				// Without a hooks.json Droid reads settings.json's
				// "hooks": a new hooks.json would hide them.
				f = filepath.Join(dir, "settings.json")
				spec.Event = []string{"hooks", "PreToolUse"}
			}
			return []agentconf.Part{{Kind: agentconf.KindJSONHook, File: f, What: "PreToolUse hook", Hook: spec}}
		},
	},
	// Droid's hook rewrites only as an allow: git status is one of Droid's
	// built-in allows, at the low risk the model rates it.
	Probe: &host.Probe{Command: "git status", Rewrites: true, Under: "droid", Answer: []string{"hookSpecificOutput", "updatedInput", "command"},
		Payload: func(cwd, cmd string) any {
			return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "permission_mode": "auto-low", "hook_event_name": "PreToolUse",
				"tool_name": "Execute", "tool_input": map[string]any{"command": cmd, "riskLevel": "low", "riskLevelReason": "gotk verify probe", "summary": "gotk verify probe"}}
		}},
	Table: host.Row{How: "`PreToolUse` hook `gotk-hook-droid`", Proven: "yes, 0.225.2"},
}

// ConfDir is ~/.factory, where FACTORY_HOME_OVERRIDE replaces the home
// folder.
func ConfDir(e *agentconf.Env) string { return filepath.Clean(Home(e.Perm())) }

// hooksInSettings reports whether dir has no hooks.json and its
// settings.json has a "hooks" member: Droid then reads its hooks there.
func hooksInSettings(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, "hooks.json")); err == nil {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil {
		return false
	}
	root, err := agentconf.LoadRoot(b)
	return err == nil && root != nil && root.Get("hooks") != nil
}

// parseFlags reads Factory Droid's --skip-permissions-unsafe (every
// command runs without asking; its blocklist still applies) and --settings
// (a runtime settings file whose rules Load reads).
func parseFlags(argv []string) host.Session {
	var s host.Session
	v := host.FlagValues(argv, map[string]string{"--settings": "settings"}, nil)
	s.Rules.Settings = v["settings"]
	for _, a := range argv[1:] {
		if a == "--" {
			break
		}
		if a == "--skip-permissions-unsafe" {
			s.AllowAll = true
		}
	}
	return s
}
