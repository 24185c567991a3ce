// Package windsurf is what gotk knows of Windsurf: it has no hook gotk can
// rewrite through, so gotk-install gives it a rules text asking the model
// to prefix `gotk`.
package windsurf

import (
	"os"
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// Host is Windsurf.
var Host = &host.Def{
	Name: "windsurf", Title: "Windsurf",
	RulesOnly: true,
	Agent: &agentconf.Agent{
		Scopes: []agentconf.Scope{agentconf.Project},
		Dirs: func(e *agentconf.Env) []string {
			return []string{filepath.Join(e.Cwd, ".windsurf"), filepath.Join(e.Cwd, ".windsurfrules")}
		},
		Programs: []string{"windsurf"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, _ agentconf.Bins) []agentconf.Part {
			legacy := agentconf.Part{Kind: agentconf.KindBlock, File: filepath.Join(e.Cwd, ".windsurfrules"), Markers: agentconf.MDMarkers, Asset: agentconf.AssetRules, What: "gotk rules block"}
			dir := filepath.Join(e.Cwd, ".windsurf", "rules")
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				return []agentconf.Part{legacy}
			}
			// Windsurf's current rules: one Markdown file per rule in
			// .windsurf/rules/, its activation in front matter.
			legacy.Legacy = true
			return []agentconf.Part{{Kind: agentconf.KindFile, File: filepath.Join(dir, "gotk.md"), Prefix: "---\ntrigger: always_on\n---\n\n", Asset: agentconf.AssetRules, What: "rules file"}, legacy}
		},
	},
	Table: host.Row{How: "a rules text asking the model to prefix `gotk`", Proven: "—"},
}
