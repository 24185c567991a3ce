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

// WentOnPastReader returns SIGPIPE when stdout is a pipe and the program,
// whose output as typed goes on past what the pipe's reader takes (`git
// log | head -5` on a long history), would have met the reader's closed
// end: gotk's shorter output never reaches that point itself. Else nil
// (not a pipe, or SIGPIPE ignored when gotk started).
func WentOnPastReader(stdout *os.File) os.Signal {
	if pipeSignals == nil || stdout == nil {
		return nil
	}
	if fi, err := stdout.Stat(); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return nil
	}
	return syscall.SIGPIPE
}
