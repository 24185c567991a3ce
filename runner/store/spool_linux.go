package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// settle starts the write-back of the spool's bytes in [from, to) and
// lets the page cache drop [dropFrom, dropTo), written back a step ago: a
// long output then takes pages the kernel just freed instead of new ones,
// which on some machines (a VM whose host backs a guest page on its first
// touch) cost ten times the copy. Neither call waits for the disk; a page
// not yet written back stays cached (the kernel skips it).
func settle(f *os.File, from, to, dropFrom, dropTo int64) {
	fd := int(f.Fd())
	unix.SyncFileRange(fd, from, to-from, unix.SYNC_FILE_RANGE_WRITE)
	if dropTo > dropFrom {
		unix.Fadvise(fd, dropFrom, dropTo-dropFrom, unix.FADV_DONTNEED)
	}
}
