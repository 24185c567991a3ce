package hookio

import (
	"path/filepath"
	"strings"
	"sync"
)

// AuditPath is $XDG_DATA_HOME/gotk/hook-audit.log, by default
// ~/.local/share/gotk/hook-audit.log.
func AuditPath(getenv func(string) string, home string) string {
	data := getenv("XDG_DATA_HOME")
	if data == "" {
		data = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(data, "gotk", "hook-audit.log")
}

// AuditLine is one audit log line, `time | agent | action | original |
// rewritten` and a newline. Every field is escaped so that no command can
// forge a separator or a line.
func AuditLine(fields ...string) string {
	esc := make([]string, len(fields))
	for i, f := range fields {
		esc[i] = auditEscaper().Replace(f)
	}
	return strings.Join(esc, " | ") + "\n"
}

var auditEscaper = sync.OnceValue(func() *strings.Replacer { return strings.NewReplacer(`\`, `\\`, `|`, `\|`, "\n", `\n`, "\r", `\r`) })
