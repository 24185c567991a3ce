// Package plugins carries gotk's in-process plugins and its rules text —
// the files in this folder, embedded from where they live, one copy each —
// for gotk-install, which copies them into agents' folders. It sits beside
// the flow: OpenCode, Pi, OpenClaw and Hermes load these plugins, which ask
// `gotk rewrite --json`; agents without a hook read the rules text.
package plugins

import "embed"

// The files, by their path in this folder.
const (
	OpenCode = "opencode/gotk.ts" // OpenCode 1.x plugin
	Pi       = "pi/gotk.ts"       // Pi coding agent extension
	OpenClaw = "openclaw/gotk.ts" // OpenClaw plugin (installed as index.ts)
	// OpenClawManifest is the OpenClaw plugin's manifest (its id and
	// activation).
	OpenClawManifest = "openclaw/openclaw.plugin.json"
	HermesManifest   = "hermes/gotk/plugin.yaml" // Hermes plugin manifest
	HermesPlugin     = "hermes/gotk/__init__.py" // Hermes plugin code
	// Rules is the prompt-level rules text, generated from core/registry
	// (RulesText; core/registry's TestRulesFile keeps it current).
	Rules = "rules/gotk.md"
)

//go:embed opencode/gotk.ts pi/gotk.ts openclaw/gotk.ts openclaw/openclaw.plugin.json hermes/gotk/plugin.yaml hermes/gotk/__init__.py rules/gotk.md
var files embed.FS

// File returns the named file (one of the constants above); any other name
// is a programming mistake and panics.
func File(name string) []byte {
	b, err := files.ReadFile(name)
	if err != nil {
		panic("plugins: " + err.Error())
	}
	return b
}
