// Package vibe is gotk-hook-vibe (its main is cmd/gotk-hook-vibe), Mistral
// Vibe's pre_tool hook (before_tool on Vibe 2.20 and older, match = "bash"):
// it answers with a token-saving rewrite of the shell command, or with
// nothing. See Handle.
package vibe

import (
	"github.com/gotk-dev/gotk/core/hookio"
	vibehost "github.com/gotk-dev/gotk/core/hosts/vibe"
)

var agent = hookio.Agent{Name: "vibe", Host: vibehost.Host, Handle: Handle}

// Main runs the hook on the process's stdin and stdout, and exits 0.
func Main() { hookio.Main(agent) }
