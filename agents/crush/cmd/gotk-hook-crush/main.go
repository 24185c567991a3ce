// Command gotk-hook-crush is the crush agent's pre-tool hook: it reads the
// agent's JSON on stdin and answers with a token-saving rewrite of the shell
// command, or with the agent's no-op. The hook is package crush; this is its
// edge.
package main

import "github.com/gotk-dev/gotk/agents/crush"

func main() { crush.Main() }
