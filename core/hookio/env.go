package hookio

import (
	"github.com/gotk-dev/gotk/core/host"

	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// OSEnv is the real environment of the process.
func OSEnv() Env {
	home, _ := os.UserHomeDir()
	return Env{
		Getenv:     os.Getenv,
		Home:       home,
		Getwd:      os.Getwd,
		Now:        time.Now,
		LookPath:   exec.LookPath,
		AppendFile: appendPrivate,
		Session: func(h *host.Def) host.Session {
			return host.ReadSession(h, host.System(), os.Getppid())
		},
	}
}

func (e Env) withDefaults() Env {
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	if e.Now == nil {
		e.Now = time.Now
	}
	if e.LookPath == nil {
		e.LookPath = func(string) (string, error) { return "", exec.ErrNotFound }
	}
	if e.Session == nil {
		e.Session = func(*host.Def) host.Session { return host.Session{} }
	}
	if e.AppendFile == nil {
		e.AppendFile = func(string, []byte) error { return errors.ErrUnsupported }
	}
	return e
}

// appendPrivate appends data to path, creating the directory (0700) and the
// file (0600) when missing, and making an existing file private again.
func appendPrivate(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	f.Chmod(0o600)
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
