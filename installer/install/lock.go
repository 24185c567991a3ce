package install

import (
	"errors"
	"os"
	"path/filepath"
	"time"
)

// lock.go: one gotk-install at a time. The lock is taken only by a run that
// is about to write, on gotk's data folder itself (where the manifest
// lives), so that no lock file is left behind.

// lockWait is how long a run waits for another gotk-install.
const lockWait = 30 * time.Second

// lockData takes the install lock. It creates the data folder when it is
// missing and returns the folders it created, outermost first, so that they
// can go again when nothing is left in them.
func lockData(e *Env) (unlock func(), created []string, err error) {
	dir := e.DataDir()
	deadline := time.Now().Add(lockWait)
	for {
		// Made here, or made again after another run's uninstall removed
		// it while this one waited.
		var missing []string
		for d := dir; ; d = filepath.Dir(d) {
			if _, err := os.Stat(d); err == nil || filepath.Dir(d) == d {
				break
			}
			missing = append([]string{d}, missing...)
		}
		// The data folder also holds gotk.db (raw command output): private.
		if err := os.MkdirAll(dir, 0o700); err != nil {
			removeEmpty(created)
			return nil, nil, err
		}
		for _, d := range missing {
			if !contains(created, d) {
				created = append(created, d)
			}
		}
		unlock, ok, err := tryLockDir(dir)
		if err != nil {
			removeEmpty(created)
			return nil, nil, err
		}
		if ok {
			return unlock, created, nil
		}
		if time.Now().After(deadline) {
			removeEmpty(created)
			return nil, nil, errors.New(dir + ": another gotk-install has held the lock for 30s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// removeEmpty removes the folders that are empty, deepest first; a folder
// something else lives in stays.
func removeEmpty(dirs []string) {
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i])
	}
}
