// Package opencode is what gotk knows of OpenCode: its permission rules
// (and the wildcard Kilo shares), where gotk-install puts the plugin.
package opencode

import (
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is OpenCode. It matches its rules on the REWRITTEN command, and a
// plugin cannot answer for it: no rewrite where any rule but a catch-all
// matches.
var Host = &host.Def{
	Name: "opencode", Title: "OpenCode",
	Rules:   Load,
	Answers: host.Answers{NoAsk: true, KeepAllowed: true},
	Agent: &agentconf.Agent{
		Scopes:   []agentconf.Scope{agentconf.Global, agentconf.Project},
		Dirs:     func(e *agentconf.Env) []string { return []string{ConfDir(e)} },
		Programs: []string{"opencode"},
		Parts:    Plugin(func(e *agentconf.Env) string { return filepath.Join(ConfDir(e), "plugins") }, filepath.Join(".opencode", "plugins")),
	},
	Table: host.Row{How: "plugin asking `gotk rewrite --json`", Proven: "yes, 1.18.33"},
}

// ConfDir is $XDG_CONFIG_HOME/opencode.
func ConfDir(e *agentconf.Env) string { return filepath.Join(e.ConfigHome(), "opencode") }

// PluginFile is the name gotk-install gives gotk's plugin file; the guard
// scan (guards) skips it.
const PluginFile = "gotk.ts"

// Plugin is the part of OpenCode and of Kilo (its fork): the OpenCode
// plugin file, PluginFile, in the global plugin folder or in the project's
// (project, relative to the working directory).
func Plugin(global func(*agentconf.Env) string, project string) func(*agentconf.Env, agentconf.Scope, agentconf.Bins) []agentconf.Part {
	return func(e *agentconf.Env, s agentconf.Scope, _ agentconf.Bins) []agentconf.Part {
		dir := global(e)
		if s == agentconf.Project {
			dir = filepath.Join(e.Cwd, project)
		}
		return []agentconf.Part{{Kind: agentconf.KindFile, File: filepath.Join(dir, PluginFile), Asset: agentconf.AssetOpenCode, What: "plugin"}}
	}
}
