// Package pi is what gotk knows of Pi: where gotk-install puts its
// extension (a thin delegate to `gotk rewrite --json --host pi`).
package pi

import (
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Pi. It has no rule files gotk reads.
var Host = &host.Def{
	Name: "pi", Title: "Pi",
	Agent: &agentconf.Agent{
		Scopes:   []agentconf.Scope{agentconf.Global, agentconf.Project},
		Dirs:     func(e *agentconf.Env) []string { return []string{ConfDir(e)} },
		Programs: []string{"pi"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, _ agentconf.Bins) []agentconf.Part {
			dir := filepath.Join(ConfDir(e), "extensions")
			if s == agentconf.Project {
				dir = filepath.Join(e.Cwd, ".pi", "extensions")
			}
			return []agentconf.Part{{Kind: agentconf.KindFile, File: filepath.Join(dir, "gotk.ts"), Asset: agentconf.AssetPi, What: "extension"}}
		},
	},
	Table: host.Row{How: "extension asking `gotk rewrite --json`", Proven: "yes, 0.73.1"},
}

// ConfDir is $PI_CODING_AGENT_DIR or ~/.pi/agent.
func ConfDir(e *agentconf.Env) string { return e.DirFrom("PI_CODING_AGENT_DIR", ".pi", "agent") }
