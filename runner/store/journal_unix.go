//go:build unix

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// On Unix every run appends its record to one log file, under a shared
// flock: appending to a file costs a few microseconds where creating one
// costs most of a millisecond on some file systems (measured here: 11 µs
// against 770 µs). A fold renames the log to a segment and takes an
// exclusive lock on it, which waits for the writers still in it; a writer
// that then gets its lock finds the log renamed and starts a new one.

// logName is the file runs append to; a fold renames it to a segment.
const (
	logName       = "log"
	segmentPrefix = "segment-"
)

// appendRecord appends rec to the log in dir, in one write, and returns
// the log's size after it.
func appendRecord(dir, _ string, rec []byte) (int64, error) {
	path := filepath.Join(dir, logName)
	for range 10 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, fileMode)
		if err != nil {
			return 0, err
		}
		fd := int(f.Fd())
		if err := flock(fd, syscall.LOCK_SH); err != nil {
			f.Close()
			return 0, err
		}
		// Still the log, not a segment a fold renamed it to meanwhile?
		var mine, named syscall.Stat_t
		if syscall.Fstat(fd, &mine) == nil && syscall.Stat(path, &named) == nil &&
			mine.Dev == named.Dev && mine.Ino == named.Ino {
			_, err = f.Write(rec)
			size := mine.Size + int64(len(rec)) // at least: others may have appended too
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return size, err
		}
		f.Close()
	}
	return 0, errors.New("the pending log keeps being renamed under this run")
}

// claimLog renames the log in dir to a new segment for a fold to read.
func claimLog(dir string) error {
	seg := fmt.Sprintf("%s%016x-%s.log", segmentPrefix, time.Now().UnixNano(), NewID())
	err := os.Rename(filepath.Join(dir, logName), filepath.Join(dir, seg))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// waitWriters waits until no run is still writing to the segment at path.
func waitWriters(path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	flock(int(f.Fd()), syscall.LOCK_EX)
	f.Close()
}

// flock is syscall.Flock, again when a signal interrupts it.
func flock(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
