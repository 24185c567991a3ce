// Command gotk-hook-crush is Crush's PreToolUse hook (crush.json
// hooks.PreToolUse, matcher ^bash$): it answers with a token-saving
// rewrite of the shell command, or with nothing. See Handle.
package main

import (
	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/gotk-dev/gotk/core/permission"
)

var agent = hookio.Agent{Name: "crush", Host: permission.Crush, Handle: Handle}

func main() { hookio.Main(agent) }
