// Command gotk-hook-codex is Codex CLI's PreToolUse hook (matcher Bash,
// Codex ≥ 0.124): it answers with a token-saving rewrite of the shell
// command, naming gotk by absolute path, or with nothing. See Handle and
// README.md for when it rewrites.
package main

import (
	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/gotk-dev/gotk/core/permission"
)

var agent = hookio.Agent{Name: "codex", Host: permission.Codex, AbsoluteGotk: true, Handle: Handle}

func main() { hookio.Main(agent) }
