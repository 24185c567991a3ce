// Package cline is gotk-hook-cline (its main is cmd/gotk-hook-cline), Cline CLI's PreToolUse hook (the executable
// file ~/.cline/hooks/PreToolUse): it answers with a token-saving rewrite of
// the commands of a run_commands call, or with nothing. See Handle.
package cline

import (
	"github.com/gotk-dev/gotk/core/hookio"
	clinehost "github.com/gotk-dev/gotk/core/hosts/cline"
)

var agent = hookio.Agent{Name: "cline", Host: clinehost.Host, Handle: Handle}

// Main runs the hook on the process's stdin and stdout, and exits 0.
func Main() { hookio.Main(agent) }
