package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/gotk-dev/gotk/runner/store"
)

// recallRaw prints lines from..to (0, 0: all) of the raw file a streamed
// run left (store.RawPath), reading it frame by frame: a gigabyte costs
// no more memory than a line. ok is false when id has no raw file.
//
// The spool a killed run left is read the same way when gotk ran the
// command as typed (else recall renders it in the tool's own format,
// which needs all of it: spooledOutput).
func (a *app) recallRaw(dbPath, id string, from, to int) (code int, ok bool) {
	path := store.RawPath(dbPath, id)
	killed := false
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		path = store.SpoolPath(dbPath, strings.ToLower(id))
		meta, err := store.SpoolHeader(path)
		if err != nil || len(meta.Argv) > 0 && !slices.Equal(meta.Argv, meta.Ran) {
			return 0, false
		}
		killed = true
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
	if killed {
		fmt.Fprintf(a.stderr, "gotk: recall: %s was stopped before it ended; this is its output as it arrived\n", id)
	}
	return 0, true
}

// keptRaw is what recall --list says of a streamed run's output: on disk
// in its raw file, or no longer kept.
func keptRaw(dbPath, id string) string {
	if fi, err := os.Stat(store.RawPath(dbPath, id)); err == nil {
		return fmt.Sprintf(" (streamed; raw file %d B on disk)", fi.Size())
	}
	return " (streamed; no longer kept)"
}
