// Command gotk-hook-vibe is Mistral Vibe's pre_tool hook (before_tool on
// Vibe 2.20 and older, match = "bash"): it answers with a token-saving
// rewrite of the shell command, or with nothing. See Handle.
package main

import "github.com/gotk-dev/gotk/core/hookio"

var agent = hookio.Agent{Name: "vibe", Host: "vibe", Handle: Handle}

func main() { hookio.Main(agent) }
