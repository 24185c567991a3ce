//go:build unix && !linux

package proc

import "os"

// readerLeft is false where a pipe's size and unread bytes cannot be
// asked: only a write that meets the closed pipe counts.
func readerLeft(stdout *os.File, rawStdout int64) bool { return false }
