// Package assets carries, inside the gotk-install binary, the files it
// copies into agents' folders: the OpenCode, Pi and Hermes plugins and the
// rules text for agents without a rewrite hook. They are byte-for-byte
// copies of the sources under the repository's plugins/ directory, refreshed
// by installer/sync-assets.sh and checked by this package's test.
package assets

import "embed"

// FS holds the assets, by the names in Sources.
//
//go:embed opencode/gotk.ts pi/gotk.ts hermes/gotk/plugin.yaml hermes/gotk/__init__.py rules.md
var FS embed.FS

// Sources maps each asset to its source file, relative to the repository
// root. rules.md is generated from the registry (core/registry.RulesText)
// into plugins/rules/gotk.md.
var Sources = map[string]string{
	"opencode/gotk.ts":        "plugins/opencode/gotk.ts",
	"pi/gotk.ts":              "plugins/pi/gotk.ts",
	"hermes/gotk/plugin.yaml": "plugins/hermes/gotk/plugin.yaml",
	"hermes/gotk/__init__.py": "plugins/hermes/gotk/__init__.py",
	"rules.md":                "plugins/rules/gotk.md",
}

// Must returns the named asset; a missing asset is a build mistake.
func Must(name string) []byte {
	b, err := FS.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return b
}
