// Command gotk-hook-copilot is GitHub Copilot's pre-tool hook. One binary
// serves three hosts, told apart by the payload: VS Code Copilot Chat (and
// Copilot CLI's PascalCase PreToolUse), Copilot CLI's camelCase
// preToolUse, and JetBrains Copilot, which cannot rewrite. See Handle.
package main

import "github.com/gotk-dev/gotk/core/hookio"

var agent = hookio.Agent{Name: "copilot", Host: "copilot", Handle: Handle}

func main() { hookio.Main(agent) }
