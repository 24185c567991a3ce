//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package install

import (
	"errors"
	"os"
	"syscall"
)

// tryLockDir takes an exclusive flock on the folder dir without waiting.
// A folder removed and made again while this run waited is not the one it
// locked: that counts as not locked, and the caller tries again.
func tryLockDir(dir string) (func(), bool, error) {
	f, err := os.Open(dir)
	if os.IsNotExist(err) {
		return nil, false, nil // removed meanwhile: made again next time
	}
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR) {
			return nil, false, nil
		}
		return nil, false, &os.PathError{Op: "lock", Path: dir, Err: err}
	}
	held, err1 := f.Stat()
	now, err2 := os.Stat(dir)
	if err1 != nil || err2 != nil || !os.SameFile(held, now) {
		f.Close()
		return nil, false, nil
	}
	return func() { f.Close() }, true, nil
}
