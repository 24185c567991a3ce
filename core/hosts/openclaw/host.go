// Package openclaw is what gotk knows of OpenClaw (npm openclaw): its exec
// policy, which decides whether gotk may rewrite at all, and where
// gotk-install puts its plugin (a thin delegate to
// `gotk rewrite --json --host openclaw`, plugins/openclaw).
package openclaw

import (
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
)

// The plugin's files in module plugins: its code, which OpenClaw loads as
// index.ts, and its manifest.
const (
	AssetPlugin   = "openclaw/gotk.ts"
	AssetManifest = "openclaw/openclaw.plugin.json"
)

// Host is OpenClaw.
var Host = &host.Def{
	Name: "openclaw", Title: "OpenClaw",
	Rules: Load,
	// A plugin folder in OpenClaw's global extensions directory, or with
	// --project in <project>/.openclaw/extensions, the workspace root
	// OpenClaw scans when the project is its agent's workspace. OpenClaw
	// discovers either without a config entry: openclaw.json (JSON5, the
	// one config, for both) is never edited; `openclaw plugins enable gotk`
	// (OpenClaw's own command) then lets agent runs load it. The
	// manifest's activation marks it a hook plugin.
	Agent: &agentconf.Agent{
		Scopes:   []agentconf.Scope{agentconf.Global, agentconf.Project},
		Dirs:     func(e *agentconf.Env) []string { return []string{Dir(e)} },
		Programs: []string{"openclaw"},
		Parts: func(e *agentconf.Env, s agentconf.Scope, _ agentconf.Bins) []agentconf.Part {
			dir := filepath.Join(Dir(e), "extensions", "gotk")
			if s == agentconf.Project {
				dir = filepath.Join(e.Cwd, ".openclaw", "extensions", "gotk")
			}
			return []agentconf.Part{
				{Kind: agentconf.KindFile, File: filepath.Join(dir, "openclaw.plugin.json"), Asset: AssetManifest, What: "plugin manifest"},
				{Kind: agentconf.KindFile, File: filepath.Join(dir, "index.ts"), Asset: AssetPlugin, What: "plugin"},
			}
		},
		Inactive: Inactive,
		Notes: func(e *agentconf.Env, s agentconf.Scope) []string {
			enable := "OpenClaw loads a discovered plugin into agent runs only once enabled: run `openclaw plugins enable gotk` (then `openclaw gateway restart` for a running Gateway)."
			if s == agentconf.Project && outsideWorkspace(e) {
				return []string{"OpenClaw looks for workspace plugins only in its agent's workspace, not in the directory it runs in, and this project is not it: set agents.defaults.workspace (or the agent's workspace) in " + Config(e.Perm()) + " to " + e.Cwd + ".", enable}
			}
			return []string{enable}
		},
	},
	Table: host.Row{Install: "(then `openclaw plugins enable gotk`)", How: "plugin `before_tool_call` asking `gotk rewrite --json`; rewrites only where its exec policy checks no command",
		Proven: "yes, 2026.9.6 (`agent --local`)"},
}

// Dir is OpenClaw's state directory: $OPENCLAW_STATE_DIR, else ~/.openclaw.
func Dir(e *agentconf.Env) string {
	return StateDir(e.Perm())
}
