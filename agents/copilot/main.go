// Package copilot is gotk-hook-copilot (its main is cmd/gotk-hook-copilot),
// GitHub Copilot's pre-tool hook. One binary serves three hosts, told apart
// by the payload: VS Code Copilot Chat (and Copilot CLI's PascalCase
// PreToolUse), Copilot CLI's camelCase preToolUse, and JetBrains Copilot,
// which cannot rewrite. See Handle.
package copilot

import (
	"github.com/gotk-dev/gotk/core/hookio"
	copilothost "github.com/gotk-dev/gotk/core/hosts/copilot"
)

var agent = hookio.Agent{Name: "copilot", Host: copilothost.Host, Handle: Handle}

// Main runs the hook on the process's stdin and stdout, and exits 0.
func Main() { hookio.Main(agent) }
