package agentconf

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gotk-dev/gotk/core/permission"
)

// Env is what reading an installation needs from the outside world; tests
// build one.
type Env struct {
	Home     string
	Cwd      string
	Getenv   func(string) string
	LookPath func(string) (string, error)
}

// OSEnv returns the process's environment.
func OSEnv() Env {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	return Env{Home: home, Cwd: cwd, Getenv: os.Getenv, LookPath: exec.LookPath}
}

// DirFrom returns $name when set, else the home-relative default, cleaned.
func (e *Env) DirFrom(name string, def ...string) string {
	return filepath.Clean(e.Perm().DirFrom(name, def...))
}

// DataDir is gotk's data folder: $XDG_DATA_HOME/gotk, or
// ~/.local/share/gotk when XDG_DATA_HOME is unset or not absolute (as the
// XDG spec says, and as the runner's store reads it).
func (e *Env) DataDir() string {
	if x := e.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(filepath.Clean(x), "gotk")
	}
	return filepath.Join(e.Home, ".local", "share", "gotk")
}

// ConfigHome is $XDG_CONFIG_HOME or ~/.config.
func (e *Env) ConfigHome() string { return e.DirFrom("XDG_CONFIG_HOME", ".config") }

// IsExec reports whether p is a regular file someone may execute.
func IsExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// Perm is e as the permission rules' readers take it: each agent's folder
// is defined once, beside the reader of its rules (core/hosts/<name>).
func (e *Env) Perm() permission.Env { return permission.Env{Getenv: e.Getenv, Home: e.Home} }
