package runner

import (
	"strings"

	"github.com/gotk-dev/gotk/core/shell"
)

// commandLine renders argv as a shell would read it back, for records and
// hints: plain words stay bare, others are single-quoted.
func commandLine(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(shell.Quote(a))
	}
	return b.String()
}
