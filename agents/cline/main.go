// Command gotk-hook-cline is Cline CLI's PreToolUse hook (the executable
// file ~/.cline/hooks/PreToolUse): it answers with a token-saving rewrite of
// the commands of a run_commands call, or with nothing. See Handle.
package main

import "github.com/gotk-dev/gotk/core/hookio"

var agent = hookio.Agent{Name: "cline", Host: "cline", Handle: Handle}

func main() { hookio.Main(agent) }
