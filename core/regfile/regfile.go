// Package regfile opens and reads the files gotk finds on disk on a hook's
// path (rule files, settings, transcripts), where any name may be a symlink
// to /dev/zero, a FIFO nobody writes to, a device or a directory. Only a
// regular file (after following symlinks) is opened, without blocking, and
// Read reads at most a fixed number of bytes; anything else is an error
// that wraps ErrNotRegular or ErrTooLarge.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular: the path names something other than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge: the file holds more than the reader's limit.
var ErrTooLarge = errors.New("file too large")

// MaxRules is the size limit of a rule or settings file: far above any
// real one, small enough to read in milliseconds.
const MaxRules = 4 << 20

// Open opens path for reading if it is a regular file. The name is checked
// before opening (opening a device can have effects of its own, opening a
// FIFO blocks) and the open file again after, in case it was replaced.
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(path, fi.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, notRegular(path, fi.Mode())
	}
	return f, nil
}

// Read returns the content of the regular file path, or an error wrapping
// ErrTooLarge when it holds more than max bytes. A missing file is an
// error for which errors.Is(err, fs.ErrNotExist) holds, as with os.ReadFile.
func Read(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(data)) > max {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)}
	}
	return data, nil
}

// Skipped reports whether err is one of this package's refusals (a
// non-regular file, a file too large), as against a missing or unreadable
// one.
func Skipped(err error) bool {
	return errors.Is(err, ErrNotRegular) || errors.Is(err, ErrTooLarge)
}

func notRegular(path string, m fs.FileMode) error {
	kind := "special file"
	switch {
	case m.IsDir():
		kind = "directory"
	case m&fs.ModeNamedPipe != 0:
		kind = "FIFO"
	case m&fs.ModeSocket != 0:
		kind = "socket"
	case m&fs.ModeDevice != 0:
		kind = "device"
	}
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (a %s)", ErrNotRegular, kind)}
}

// ReadDir is os.ReadDir for a name that may be anything: a directory
// (after following symlinks) is listed; a FIFO or device, which os.ReadDir
// would open and wait on, is an error wrapping ErrNotRegular.
func ReadDir(path string) ([]fs.DirEntry, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: path, Err: fmt.Errorf("%w (not a directory)", ErrNotRegular)}
	}
	return os.ReadDir(path)
}
