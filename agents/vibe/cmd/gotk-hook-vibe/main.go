// Command gotk-hook-vibe is Mistral Vibe's pre-tool hook: it reads the
// agent's JSON on stdin and answers with a token-saving rewrite of the shell
// command, or with the agent's no-op. The hook is package vibe; this is its
// edge.
package main

import "github.com/gotk-dev/gotk/agents/vibe"

func main() { vibe.Main() }
