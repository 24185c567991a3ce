package copilot

import (
	"strings"
)

// psAliases are PowerShell's built-in aliases among the programs gotk
// rewrites (and their neighbours): in PowerShell `ls` is Get-ChildItem, and
// `gotk ls` would run a different program.
var psAliases = func() map[string]bool {
	return map[string]bool{"ls": true, "dir": true, "cat": true, "type": true, "diff": true, "compare": true, "echo": true, "cd": true, "cp": true, "mv": true, "rm": true, "ps": true, "kill": true, "sleep": true, "sort": true, "tee": true, "curl": true, "wget": true, "man": true, "pwd": true, "where": true, "select": true, "gc": true, "gci": true, "gl": true, "h": true, "history": true, "r": true, "ni": true, "sc": true, "tree": true}
}()

// PowerShellPlain reports whether a PowerShell command is one simple command of
// plain words that bash and PowerShell split the same way (letters,
// digits, spaces and . _ / : = + -), whose program is not a PowerShell
// alias: the only PowerShell commands gotk's bash parser may rewrite.
func PowerShellPlain(cmd string) bool {
	if f := strings.Fields(cmd); len(f) == 0 || psAliases[strings.ToLower(f[0])] {
		return false
	}
	for _, r := range cmd {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r == ' ' || r == '.' || r == '_' || r == '/' || r == ':' || r == '=' || r == '+' || r == '-':
		default:
			return false
		}
	}
	return true
}
