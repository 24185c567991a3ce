//go:build unix && !linux

package proc

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Die ends gotk by signal sig, the way the program ended: see the Linux
// version. Here Go's runtime dies of a signal nobody is notified of, except
// SIGPIPE, which it drops: gotk then exits with 141 instead.
func Die(sig os.Signal) {
	s, ok := sig.(syscall.Signal)
	if !ok || s == syscall.SIGPIPE {
		return
	}
	signal.Reset(s)
	syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
	syscall.Kill(os.Getpid(), s)
	time.Sleep(100 * time.Millisecond)
}
