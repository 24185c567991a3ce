package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"

	"github.com/gotk-dev/gotk/runner/store"
)

// recallRaw prints lines from..to (0, 0: all) of the raw file a streamed
// run left (store.RawPath), reading it frame by frame: a gigabyte costs
// no more memory than a line. ok is false when id has no raw file.
func (a *app) recallRaw(dbPath, id string, from, to int) (code int, ok bool) {
	path := store.RawPath(dbPath, id)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return 0, false
	}
	lo, hi := int64(from), int64(to)
	if from == 0 {
		lo, hi = 1, math.MaxInt64
	}
	_, n, err := store.SpoolLines(path, lo, hi, a.stdout)
	if err != nil {
		return a.fail("recall: %s: %v", path, err), true
	}
	if hi != math.MaxInt64 && n < hi {
		fmt.Fprintf(a.stderr, "gotk: recall: %s has %d lines kept; lines %d-%d are not there\n", id, n, max(lo, n+1), hi)
	}
	return 0, true
}

// keptRaw is what recall --list says of a streamed run's output: on disk
// in its raw file, or no longer kept.
func keptRaw(dbPath, id string) string {
	if fi, err := os.Stat(store.RawPath(dbPath, id)); err == nil {
		return fmt.Sprintf(" (streamed; raw file %d B)", fi.Size())
	}
	return " (streamed; no longer kept)"
}
