//go:build unix

package proc

import (
	"os"
	"syscall"
)

// ClosedOutput returns SIGPIPE when the program, writing its rawStdout
// bytes to stdout itself, would have died of it: a write of gotk's met a
// closed pipe (gotk never prints more than the program did), or stdout is
// a pipe whose reader went away after gotk's output (`| head -1`) while
// the program's output was more than the pipe holds, so the program would
// still have been writing. Else nil (SIGPIPE ignored when gotk started:
// the program would have ignored it too).
func ClosedOutput(stdout *os.File, rawStdout int64) os.Signal {
	select {
	case <-pipeSignals:
		return syscall.SIGPIPE
	default:
	}
	if pipeSignals == nil || stdout == nil || !readerLeft(stdout, rawStdout) {
		return nil
	}
	return syscall.SIGPIPE
}
