// Package kilo is what gotk knows of Kilo Code CLI, an OpenCode fork: its
// permission rules and agents' defaults, and where gotk-install puts the
// OpenCode plugin (which asks gotk as host kilo when it runs in Kilo).
package kilo

import (
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts/opencode"
)

// Host is Kilo Code CLI. Like OpenCode, it matches its rules on the
// REWRITTEN command.
var Host = &host.Def{
	Name: "kilo", Title: "Kilo Code",
	Rules:   Load,
	Answers: host.Answers{NoAsk: true, KeepAllowed: true},
	Agent: &agentconf.Agent{
		Scopes:   []agentconf.Scope{agentconf.Global, agentconf.Project},
		Dirs:     func(e *agentconf.Env) []string { return []string{ConfDir(e)} },
		Programs: []string{"kilo"},
		Parts:    opencode.Plugin(func(e *agentconf.Env) string { return filepath.Join(ConfDir(e), "plugin") }, filepath.Join(".kilo", "plugin")),
	},
	Table: host.Row{Name: "Kilo Code CLI", How: "the OpenCode plugin", Proven: "yes, 7.7.9"},
}

// ConfDir is $XDG_CONFIG_HOME/kilo.
func ConfDir(e *agentconf.Env) string { return filepath.Join(e.ConfigHome(), "kilo") }
