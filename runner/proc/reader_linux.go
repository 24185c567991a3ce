package proc

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// readerLeft reports whether stdout is a pipe that was holding fewer bytes
// than rawStdout and whose reader goes away while what gotk wrote is
// still being read. A reader that drains the pipe and stays (an agent) is
// given readerGrace more, so a run that printed more than a pipe holds
// waits at most that long; any other run does not wait.
func readerLeft(stdout *os.File, rawStdout int64) bool {
	fi, err := stdout.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return false
	}
	fd := int(stdout.Fd())
	size, err := unix.FcntlInt(uintptr(fd), unix.F_GETPIPE_SZ, 0)
	if err != nil || rawStdout <= int64(size) {
		return false
	}
	deadline := time.Now().Add(readerWait)
	drained := time.Time{}
	for time.Now().Before(deadline) {
		// POLLERR: the write end of a pipe with no reader left
		pfd := []unix.PollFd{{Fd: int32(fd)}}
		if n, _ := unix.Poll(pfd, 2); n > 0 && pfd[0].Revents&unix.POLLERR != 0 {
			return true
		}
		if unread, err := unix.IoctlGetInt(fd, unix.TIOCINQ); err != nil || unread > 0 {
			drained = time.Time{}
			continue
		}
		if drained.IsZero() {
			drained = time.Now()
		} else if time.Since(drained) > readerGrace {
			return false
		}
	}
	return false
}

const (
	// readerWait bounds the wait for a reader of gotk's output to go.
	readerWait = 200 * time.Millisecond
	// readerGrace is how long a reader that took all of gotk's output has
	// to exit (`head` reads, prints, exits) before it counts as staying.
	readerGrace = 10 * time.Millisecond
)
