package crush

import (
	"runtime"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// crushSafe are the commands Crush runs without asking
// (internal/agent/tools/safe.go, charmbracelet/crush 37f36e9).
var crushSafe = []string{"cal", "date", "df", "du", "echo", "env", "free", "groups", "hostname", "id", "kill",
	"killall", "ls", "nice", "nohup", "printenv", "ps", "pwd", "set", "time", "timeout", "top", "type", "uname",
	"unset", "uptime", "whatis", "whereis", "which", "whoami", "git blame", "git branch", "git config --get",
	"git config --list", "git describe", "git diff", "git grep", "git log", "git ls-files", "git ls-remote",
	"git remote", "git rev-parse", "git shortlog", "git show", "git status", "git tag"}

var crushSafeWindows = []string{"ipconfig", "nslookup", "ping", "systeminfo", "tasklist", "where"}

// Safe reports whether Crush's bash tool runs cmd without asking, as
// Crush decides it (internal/agent/tools/bash.go, containsCommandChaining
// and the prefix loop): it does not split the line, it looks for `;`, `|`,
// `&&`, `$(` or a backquote anywhere in the raw text, and then requires
// the command, lower-cased, to start with one of its read-only commands
// followed by its end, a blank or a dash. Crush checks the REWRITTEN
// command, which starts with gotk: where the original passes, the hook
// must allow.
func Safe(cmd string) bool {
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

// SafeAlone reports whether cmd passes Safe as ONE command: its
// text, parsed as bash, is a single simple command. Crush's check passes
// `ls -la & rm -rf /tmp/x` and `ls -la<newline>rm -rf /tmp/x`, which bash
// runs as two commands: Crush runs those without asking, but gotk does not
// put its allow on a command the check never looked at — it steps aside
// (no rewrite), and Crush decides on the original exactly as without gotk.
func SafeAlone(cmd string) (safe, alone bool) {
	if !Safe(cmd) {
		return false, true
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) != 1 {
		return true, false
	}
	st := f.Stmts[0]
	_, simple := st.Cmd.(*syntax.CallExpr)
	return true, simple && !st.Background && !st.Coprocess && !st.Negated
}
