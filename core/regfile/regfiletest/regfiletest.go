//go:build unix

// Package regfiletest makes the files a careless reader hangs or dies on,
// and runs a reader under a deadline, for tests of the packages that read
// files on a hook's path.
package regfiletest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Within fails t when fn has not returned after a generous deadline: a
// reader that blocks on a FIFO or streams /dev/zero never returns, and the
// test must say so rather than hang.
func Within(t testing.TB, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the read did not return: it hangs on a special file")
	}
}

// Kinds are the names Make gives its special files.
var Kinds = []string{"symlink to /dev/zero", "FIFO", "symlink to a FIFO", "directory", "device"}

// Make puts at path a special file of kind (one of Kinds), creating path's
// parent directories.
func Make(t testing.TB, kind, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	var err error
	switch kind {
	case "symlink to /dev/zero":
		err = os.Symlink("/dev/zero", path)
	case "FIFO":
		err = syscall.Mkfifo(path, 0o600)
	case "symlink to a FIFO":
		fifo := path + ".fifo"
		if err = syscall.Mkfifo(fifo, 0o600); err == nil {
			err = os.Symlink(fifo, path)
		}
	case "directory":
		err = os.Mkdir(path, 0o755)
	case "device":
		err = os.Symlink("/dev/null", path)
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	if err != nil {
		t.Fatal(err)
	}
}
