package proc

import (
	"os"
	"syscall"
)

// growPipe asks for a 1 MiB pipe (Linux's default is 64 KiB): a program
// writing a large output then wakes gotk a sixteenth as often. A refusal
// (a lowered fs.pipe-max-size) keeps the default.
func growPipe(f *os.File) {
	const fSetPipeSz = 1031 // F_SETPIPE_SZ
	syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), fSetPipeSz, 1<<20)
}
