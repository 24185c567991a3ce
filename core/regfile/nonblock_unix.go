//go:build unix

package regfile

import "syscall"

// nonblock keeps open(2) from waiting for a writer should a FIFO take the
// checked name's place.
const nonblock = syscall.O_NONBLOCK
