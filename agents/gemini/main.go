// Package gemini is gotk-hook-gemini (its main is cmd/gotk-hook-gemini),
// Gemini CLI's BeforeTool hook (matcher run_shell_command): it answers with a
// token-saving rewrite of the shell command, or {"decision":"allow"}. See
// Handle.
package gemini

import (
	"github.com/gotk-dev/gotk/core/hookio"
	geminihost "github.com/gotk-dev/gotk/core/hosts/gemini"
)

var agent = hookio.Agent{Name: "gemini", Host: geminihost.Host, NoOp: noop, Handle: Handle}

// Main runs the hook on the process's stdin and stdout, and exits 0.
func Main() { hookio.Main(agent) }
