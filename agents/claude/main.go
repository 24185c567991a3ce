// Command gotk-hook-claude is Claude Code's PreToolUse hook (matcher Bash):
// it answers with a token-saving rewrite of the shell command, or with
// nothing. See Handle for the dialect and the permission table.
package main

import (
	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/gotk-dev/gotk/core/permission"
)

var agent = hookio.Agent{Name: "claude", Host: permission.Claude, Handle: Handle}

func main() { hookio.Main(agent) }
