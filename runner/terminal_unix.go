//go:build unix

package runner

import (
	"os"

	"golang.org/x/sys/unix"
)

func ttyWidth(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
