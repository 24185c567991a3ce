// Package cursor is gotk-hook-cursor (its main is cmd/gotk-hook-cursor),
// Cursor's preToolUse hook (matcher Shell), for the IDE agent and
// cursor-agent: it answers with a token-saving rewrite of the shell command,
// or `{}`. See Handle.
package cursor

import (
	"github.com/gotk-dev/gotk/core/hookio"
	cursorhost "github.com/gotk-dev/gotk/core/hosts/cursor"
)

var agent = hookio.Agent{Name: "cursor", Host: cursorhost.Host, NoOp: noop, Handle: Handle}

// Main runs the hook on the process's stdin and stdout, and exits 0.
func Main() { hookio.Main(agent) }
