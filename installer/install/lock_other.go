//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package install

import (
	"path/filepath"

	"github.com/gofrs/flock"
)

// tryLockDir takes the lock file install.lock in dir without waiting:
// folders cannot be locked here, so this one file stays behind.
func tryLockDir(dir string) (func(), bool, error) {
	l := flock.New(filepath.Join(dir, "install.lock"))
	ok, err := l.TryLock()
	if err != nil || !ok {
		return nil, false, err
	}
	return func() { l.Unlock() }, true, nil
}
