package install

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Env is everything gotk-install reads from the world outside its
// arguments. Tests build one; OSEnv reads the real one.
type Env struct {
	Home     string
	Cwd      string
	Getenv   func(string) string
	LookPath func(string) (string, error)
	ExeDir   string // directory of the running gotk-install; "" if unknown
	BinDir   string // --bin-dir: where the hook binaries are
	Stdin    io.Reader
	Stdout   io.Writer
	Stderr   io.Writer
	IsTTY    bool // stdin is a terminal: ask before changing files
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
	e := &Env{Home: home, Cwd: cwd, Getenv: os.Getenv, LookPath: exec.LookPath,
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

// dirFrom returns $name when set, else the home-relative default.
func (e *Env) dirFrom(name string, def ...string) string {
	if v := e.Getenv(name); v != "" {
		return filepath.Clean(v)
	}
	return filepath.Join(append([]string{e.Home}, def...)...)
}

func (e *Env) dataDir() string {
	return filepath.Join(e.dirFrom("XDG_DATA_HOME", ".local", "share"), "gotk")
}
func (e *Env) configHome() string { return e.dirFrom("XDG_CONFIG_HOME", ".config") }

// findBin returns the absolute path of one of gotk's binaries: in --bin-dir,
// else next to gotk-install, else on PATH.
func (e *Env) findBin(name string) (string, error) {
	if e.BinDir != "" {
		p := filepath.Join(e.BinDir, name)
		if isExec(p) {
			return filepath.Abs(p)
		}
		return "", errors.New(name + ": not found or not executable in " + e.BinDir + " (--bin-dir)")
	}
	if e.ExeDir != "" {
		if p := filepath.Join(e.ExeDir, name); isExec(p) {
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

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// StandardLoginPATH is the PATH a Debian login shell builds from
// /etc/profile: what Codex's commands see.
var StandardLoginPATH = []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}

// LoginPATH returns the PATH of a login shell started with a clean
// environment (only HOME set), the way Codex starts one for each command.
// When bash cannot be run it returns StandardLoginPATH and false.
func LoginPATH(home string) ([]string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-lc", `printf %s "$PATH"`)
	cmd.Env = []string{"HOME=" + home}
	cmd.Dir = home
	out, err := cmd.Output()
	if err != nil || len(out) == 0 {
		return StandardLoginPATH, false
	}
	return filepath.SplitList(strings.TrimSpace(string(out))), true
}

// OnLoginPATH reports whether a login shell finds bin (an absolute path) by
// its base name, and where.
func OnLoginPATH(bin, home string) (string, []string) {
	dirs, _ := LoginPATH(home)
	for _, d := range dirs {
		p := filepath.Join(d, filepath.Base(bin))
		if isExec(p) {
			return p, dirs
		}
	}
	return "", dirs
}
