// Command gotk-hook-auggie is the Auggie agent's pre-tool hook: it reads the
// agent's JSON on stdin and answers with a token-saving rewrite of the shell
// command, or with the agent's no-op. The hook is package auggie; this is its
// edge.
package main

import "github.com/gotk-dev/gotk/agents/auggie"

func main() { auggie.Main() }
