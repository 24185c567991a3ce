// Package codex is gotk-hook-codex (its main is cmd/gotk-hook-codex), Codex
// CLI's PreToolUse hook (matcher Bash, Codex ≥ 0.124): it answers with a
// token-saving rewrite of the shell command, naming gotk by absolute path, or
// with nothing. See Handle and README.md for when it rewrites.
package codex

import (
	"github.com/gotk-dev/gotk/core/hookio"
	codexhost "github.com/gotk-dev/gotk/core/hosts/codex"
)

var agent = hookio.Agent{Name: "codex", Host: codexhost.Host, AbsoluteGotk: true, Handle: Handle}

// Main runs the hook on the process's stdin and stdout, and exits 0.
func Main() { hookio.Main(agent) }
