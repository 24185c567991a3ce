// Package agentconf is gotk's knowledge of the agents' configuration files:
// where gotk's hook entry, plugin or rules text goes for each agent and
// scope (the agent table), the manifest of what gotk-install wrote
// ($XDG_DATA_HOME/gotk/installed.json), and how to find gotk's entries in
// those files — JSON with comments, TOML, marker blocks — without changing
// a byte.
//
// It sits beside the flow, below both edges that touch an installation:
// gotk-install (module installer) plans its edits on what this package
// reads, and `gotk verify` / `gotk doctor` (core/check, wired by the gotk
// runner) inspect an installation with it. Nothing here writes a file.
package agentconf
