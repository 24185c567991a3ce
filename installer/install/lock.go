package install

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// lock.go: one gotk-install at a time. The lock is taken only by a run that
// is about to write, on gotk's data folder itself (where the manifest
// lives), so that no lock file is left behind.

// lockWait is how long a run waits for another gotk-install.
const lockWait = 30 * time.Second

// errDataGone: the data folder does not exist and the run may not make it.
var errDataGone = errors.New("gotk's data folder is gone")

// lockData takes the install lock. With create, it creates the data folder
// when it is missing and returns the folders it created, outermost first,
// so that they can go again when nothing is left in them; without, a
// missing data folder is errDataGone.
func lockData(e *Env, create bool) (unlock func(), created []string, err error) {
	dir := e.DataDir()
	deadline := time.Now().Add(lockWait)
	for {
		if !create {
			if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
				removeEmpty(created)
				return nil, nil, errDataGone
			}
		}
		// Made here, or made again after another run's uninstall removed
		// it while this one waited: each level is created by one Mkdir, so
		// a folder counts as this run's exactly when its Mkdir made it.
		// The data folder also holds gotk.db (raw command output): private.
		var made []string
		var err error
		if create {
			made, err = mkdirAllTracked(dir, 0o700)
		}
		for _, d := range made {
			if !contains(created, d) {
				created = append(created, d)
			}
		}
		if err != nil {
			removeEmpty(created)
			return nil, nil, err
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

// mkdirAllTracked is os.MkdirAll that returns the folders it made,
// outermost first (a folder made meanwhile by another process is not
// counted: its Mkdir fails with ErrExist).
func mkdirAllTracked(dir string, mode os.FileMode) ([]string, error) {
	var chain []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		chain = append([]string{d}, chain...)
		if filepath.Dir(d) == d {
			break
		}
	}
	var made []string
	for _, d := range chain {
		err := os.Mkdir(d, mode)
		switch {
		case err == nil:
			made = append(made, d)
		case errors.Is(err, os.ErrExist):
			if fi, serr := os.Stat(d); serr != nil || !fi.IsDir() {
				return made, &os.PathError{Op: "mkdir", Path: d, Err: syscall.ENOTDIR}
			}
		default:
			if fi, serr := os.Stat(d); serr == nil && fi.IsDir() {
				continue // exists, though Mkdir said otherwise (a read-only parent)
			}
			return made, err
		}
	}
	return made, nil
}

// removeEmpty removes the folders that are empty, deepest first; a folder
// something else lives in stays.
// The list may join several runs' folders (the manifest keeps every run's
// that made some), in any order: longest path first is deepest first.
func removeEmpty(dirs []string) {
	sorted := slices.Clone(dirs)
	slices.SortFunc(sorted, func(a, b string) int { return len(b) - len(a) })
	for _, d := range sorted {
		_ = os.Remove(d)
	}
}
