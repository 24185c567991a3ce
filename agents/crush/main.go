// Package crush is gotk-hook-crush (its main is cmd/gotk-hook-crush), Crush's PreToolUse hook (crush.json
// hooks.PreToolUse, matcher ^bash$): it answers with a token-saving
// rewrite of the shell command, or with nothing. See Handle.
package crush

import (
	"github.com/gotk-dev/gotk/core/hookio"
	crushhost "github.com/gotk-dev/gotk/core/hosts/crush"
)

var agent = hookio.Agent{Name: "crush", Host: crushhost.Host, Handle: Handle}

// Main runs the hook on the process's stdin and stdout, and exits 0.
func Main() { hookio.Main(agent) }
