package proc

import (
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Die ends gotk by signal sig, the way the program ended (or would have,
// for a closed output pipe): a shell, timeout(1) or an agent then sees the
// same death by signal it would have seen without gotk (with `set -o
// pipefail`, 141 for a SIGPIPE). The signal's action is set back to the
// default first (Go's runtime would otherwise catch SIGPIPE, and the
// signals gotk forwards), and no core is dumped: the program's crash is
// not gotk's. It returns only if the signal did not end gotk.
func Die(sig os.Signal) {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return
	}
	unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	// A zeroed kernel struct sigaction: SIG_DFL, no flags, an empty mask.
	var dfl [4]uint64
	unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(s), uintptr(unsafe.Pointer(&dfl)), 0, 8, 0, 0)
	var set unix.Sigset_t
	set.Val[(int(s)-1)/64] |= 1 << ((uint(s) - 1) % 64)
	unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, nil)
	syscall.Kill(os.Getpid(), s)
	time.Sleep(100 * time.Millisecond) // delivery is immediate; this is a bound
}
