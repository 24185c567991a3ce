// Package hermes is what gotk knows of Hermes: where gotk-install puts its
// Python plugin (a thin delegate to `gotk rewrite --json --host hermes`).
package hermes

import (
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Hermes. It has no rule files gotk reads.
var Host = &host.Def{
	Name: "hermes", Title: "Hermes",
	Agent: &agentconf.Agent{
		Scopes:   []agentconf.Scope{agentconf.Global},
		Dirs:     func(e *agentconf.Env) []string { return []string{ConfDir(e)} },
		Programs: []string{"hermes"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, _ agentconf.Bins) []agentconf.Part {
			dir := filepath.Join(ConfDir(e), "plugins", "gotk")
			return []agentconf.Part{
				{Kind: agentconf.KindFile, File: filepath.Join(dir, "plugin.yaml"), Asset: agentconf.AssetHermesManifest, What: "plugin manifest"},
				{Kind: agentconf.KindFile, File: filepath.Join(dir, "__init__.py"), Asset: agentconf.AssetHermesPlugin, What: "plugin"},
			}
		},
		Notes: func(e *agentconf.Env, s agentconf.Scope) []string {
			return []string{"Hermes plugins are off until enabled: run `hermes plugins enable gotk`."}
		},
	},
	Table: host.Row{Install: "(then `hermes plugins enable gotk`)", How: "Python plugin", Proven: "Hermes is on PyPI: unit tests against a fake gotk"},
}

// ConfDir is ~/.hermes.
func ConfDir(e *agentconf.Env) string { return filepath.Join(e.Home, ".hermes") }
