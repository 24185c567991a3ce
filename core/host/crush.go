package host

import (
	"runtime"
	"strings"
)

// crushSafe are the commands Crush runs without asking
// (internal/agent/tools/safe.go, charmbracelet/crush 37f36e9).
var crushSafe = []string{"cal", "date", "df", "du", "echo", "env", "free", "groups", "hostname", "id", "kill",
	"killall", "ls", "nice", "nohup", "printenv", "ps", "pwd", "set", "time", "timeout", "top", "type", "uname",
	"unset", "uptime", "whatis", "whereis", "which", "whoami", "git blame", "git branch", "git config --get",
	"git config --list", "git describe", "git diff", "git grep", "git log", "git ls-files", "git ls-remote",
	"git remote", "git rev-parse", "git shortlog", "git show", "git status", "git tag"}

var crushSafeWindows = []string{"ipconfig", "nslookup", "ping", "systeminfo", "tasklist", "where"}

// CrushSafe reports whether Crush's bash tool runs cmd without asking, as
// Crush decides it: no `;`, `|`, `&&`, `$(` or backquote anywhere, and the
// command, lower-cased, starts with one of its read-only commands followed
// by its end, a blank or a dash. Crush checks the REWRITTEN command, which
// starts with gotk: where the original passes, the hook must allow.
func CrushSafe(cmd string) bool {
	for _, c := range []string{";", "|", "&&", "$(", "`"} {
		if strings.Contains(cmd, c) {
			return false
		}
	}
	lower := strings.ToLower(cmd)
	list := crushSafe
	if runtime.GOOS == "windows" {
		list = append(append([]string{}, crushSafe...), crushSafeWindows...)
	}
	for _, safe := range list {
		if strings.HasPrefix(lower, safe) && (len(lower) == len(safe) || lower[len(safe)] == ' ' || lower[len(safe)] == '-') {
			return true
		}
	}
	return false
}
