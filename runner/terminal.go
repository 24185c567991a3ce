package runner

import (
	"os"
	"strconv"

	"github.com/mattn/go-isatty"
)

// terminal reports whether stdout is a terminal.
func (a *app) terminal() (*os.File, bool) {
	f, ok := a.stdout.(*os.File)
	return f, ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// color reports whether gotk may colour its own output: stdout is a
// terminal, NO_COLOR is unset or empty (no-color.org), and TERM is not
// dumb. A program's output passes through as it came.
func (a *app) color() bool {
	if a.getenv("NO_COLOR") != "" || a.getenv("TERM") == "dumb" {
		return false
	}
	_, tty := a.terminal()
	return tty
}

// termWidth is the width to draw in: $COLUMNS, else the terminal's, else 80.
func (a *app) termWidth() int {
	if n, err := strconv.Atoi(a.getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, tty := a.terminal(); tty {
		if n := ttyWidth(f); n > 0 {
			return n
		}
	}
	return 80
}
