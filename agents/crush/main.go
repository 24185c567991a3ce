// Package crush is gotk-hook-crush (its main is cmd/gotk-hook-crush), Crush's PreToolUse hook (crush.json
// hooks.PreToolUse, matcher ^bash$): it answers with a token-saving
// rewrite of the shell command, or with nothing. See Handle.
package crush

import (
	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/gotk-dev/gotk/core/permission"
)

var agent = hookio.Agent{Name: "crush", Host: permission.Crush, Handle: Handle}

// Main runs the hook on the process's stdin and stdout, and exits 0.
func Main() { hookio.Main(agent) }
