// Command gotk-hook-cursor is Cursor's preToolUse hook (matcher Shell), for
// the IDE agent and cursor-agent: it answers with a token-saving rewrite of
// the shell command, or `{}`. See Handle.
package main

import (
	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/gotk-dev/gotk/core/permission"
)

var agent = hookio.Agent{Name: "cursor", Host: permission.Cursor, NoOp: noop, Handle: Handle}

func main() { hookio.Main(agent) }
