package install

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// Env is everything gotk-install reads from the world outside its
// arguments. Tests build one; OSEnv reads the real one.
type Env struct {
	agentconf.Env
	ExeDir string // directory of the running gotk-install; "" if unknown
	BinDir string // --bin-dir: where the hook binaries are
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	IsTTY  bool // stdin is a terminal: ask before changing files
}

// OSEnv returns the process's environment.
func OSEnv() (*Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	e := &Env{Env: agentconf.Env{Home: home, Cwd: cwd, Getenv: os.Getenv, LookPath: exec.LookPath},
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	if exe, err := os.Executable(); err == nil {
		if r, err := filepath.EvalSymlinks(exe); err == nil {
			exe = r
		}
		e.ExeDir = filepath.Dir(exe)
	}
	e.IsTTY = isTerminal(os.Stdin) && isTerminal(os.Stdout)
	return e, nil
}

// findBin returns the absolute path of one of gotk's binaries: in --bin-dir,
// else next to gotk-install, else on PATH.
func (e *Env) findBin(name string) (string, error) {
	if e.BinDir != "" {
		p := filepath.Join(e.BinDir, name)
		if agentconf.IsExec(p) {
			return filepath.Abs(p)
		}
		return "", errors.New(name + ": not found or not executable in " + e.BinDir + " (--bin-dir)")
	}
	if e.ExeDir != "" {
		if p := filepath.Join(e.ExeDir, name); agentconf.IsExec(p) {
			return p, nil
		}
	}
	if p, err := e.LookPath(name); err == nil {
		return filepath.Abs(p)
	}
	where := "on PATH"
	if e.ExeDir != "" {
		where = "next to gotk-install (" + e.ExeDir + ") or on PATH"
	}
	return "", errors.New(name + ": not found " + where + "; install gotk's binaries first, or pass --bin-dir DIR")
}

// isTerminal reports whether f is a character device other than /dev/null.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}
