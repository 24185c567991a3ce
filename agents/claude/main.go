// Package claude is gotk-hook-claude (its main is cmd/gotk-hook-claude),
// Claude Code's PreToolUse hook (matcher Bash): it answers with a
// token-saving rewrite of the shell command, or with nothing. See Handle for
// the dialect and the permission table.
package claude

import (
	"github.com/gotk-dev/gotk/core/hookio"
	claudehost "github.com/gotk-dev/gotk/core/hosts/claude"
)

var agent = hookio.Agent{Name: "claude", Host: claudehost.Host, Handle: Handle}

// Main runs the hook on the process's stdin and stdout, and exits 0.
func Main() { hookio.Main(agent) }
