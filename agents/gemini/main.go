// Command gotk-hook-gemini is Gemini CLI's BeforeTool hook (matcher
// run_shell_command): it answers with a token-saving rewrite of the shell
// command, or {"decision":"allow"}. See Handle.
package main

import (
	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/gotk-dev/gotk/core/permission"
)

var agent = hookio.Agent{Name: "gemini", Host: permission.Gemini, NoOp: noop, Handle: Handle}

func main() { hookio.Main(agent) }
