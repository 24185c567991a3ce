package tomlfilter

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gotk-dev/gotk/core/internal/sum256"
	"github.com/gotk-dev/gotk/core/regfile"
)

// Env is what finding and trusting filter files needs from the process.
type Env struct {
	Getenv func(string) string
	Home   string
	Cwd    string
}

// SystemEnv is the process's own environment.
func SystemEnv() Env {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	return Env{Getenv: os.Getenv, Home: home, Cwd: cwd}
}

func (e Env) dir(xdg string, def ...string) string {
	if d := e.Getenv(xdg); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "gotk")
	}
	if e.Home == "" {
		return ""
	}
	return filepath.Join(append([]string{e.Home}, append(def, "gotk")...)...)
}

// ConfigDir is $XDG_CONFIG_HOME/gotk (default ~/.config/gotk).
func (e Env) ConfigDir() string { return e.dir("XDG_CONFIG_HOME", ".config") }

// DataDir is $XDG_DATA_HOME/gotk (default ~/.local/share/gotk): the trust
// pins live there.
func (e Env) DataDir() string { return e.dir("XDG_DATA_HOME", ".local", "share") }

// CacheDir is $XDG_CACHE_HOME/gotk (default ~/.cache/gotk): the hooks'
// match cache lives there.
func (e Env) CacheDir() string { return e.dir("XDG_CACHE_HOME", ".cache") }

// Scope says where a filter file comes from; its precedence is project,
// then global, then built-in.
type Scope int

// The scopes, highest precedence first.
const (
	Project Scope = iota
	Global
	BuiltIn
)

func (s Scope) String() string {
	switch s {
	case Project:
		return "project"
	case Global:
		return "global"
	}
	return "built-in"
}

// Source is one filter file gotk would read.
type Source struct {
	Path  string
	Scope Scope
}

// GlobalFiles are $XDG_CONFIG_HOME/gotk/filters.toml, then
// filters.d/*.toml in name order; only those that exist.
func GlobalFiles(e Env) []Source {
	dir := e.ConfigDir()
	if dir == "" {
		return nil
	}
	var out []Source
	if fileExists(filepath.Join(dir, "filters.toml")) {
		out = append(out, Source{filepath.Join(dir, "filters.toml"), Global})
	}
	more, _ := filepath.Glob(filepath.Join(dir, "filters.d", "*.toml"))
	sort.Strings(more)
	for _, p := range more {
		if fileExists(p) {
			out = append(out, Source{p, Global})
		}
	}
	return out
}

// ProjectFile is the project's .gotk/filters.toml: in the working
// directory, else at the top of its git work tree; "" when there is none.
func ProjectFile(e Env) string {
	if e.Cwd == "" {
		return ""
	}
	p := filepath.Join(e.Cwd, ".gotk", "filters.toml")
	if fileExists(p) {
		return p
	}
	for d := e.Cwd; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			p := filepath.Join(d, ".gotk", "filters.toml")
			if fileExists(p) {
				return p
			}
			return ""
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// Trust is the state of a project filter file.
type Trust int

// Trust states.
const (
	Untrusted Trust = iota // never trusted: ignored
	Trusted                // pinned, and its content is the pinned one
	Changed                // pinned, but its content changed since: ignored
	TooLarge               // over MaxFileSize: never read, ignored
)

func (t Trust) String() string {
	switch t {
	case Trusted:
		return "trusted"
	case Changed:
		return "changed since `gotk trust`: untrusted"
	case TooLarge:
		return fmt.Sprintf("larger than %d bytes: ignored", MaxFileSize)
	}
	return "untrusted (run `gotk trust` to use it)"
}

// MaxFileSize bounds a filter file gotk reads. Filter files are read on
// hook calls, and a project's own is read before it is known to be
// trusted: a larger one is refused after a stat, never read.
const MaxFileSize = 1 << 20

// TooLargeError is a filter file over MaxFileSize.
type TooLargeError struct {
	Path string
	Size int64
}

func (e *TooLargeError) Error() string { return e.Path + ": " + e.Reason() }

// Reason is the error without the file's name.
func (e *TooLargeError) Reason() string {
	return fmt.Sprintf("%d bytes, larger than the %d a filter file may have; its filters are ignored", e.Size, MaxFileSize)
}

// ReadFile reads a filter file of at most MaxFileSize bytes; a larger one
// is a *TooLargeError, found by its size before any of it is read (a file
// that grows while it is read too).
func ReadFile(path string) ([]byte, error) {
	f, err := regfile.Open(path) // never a FIFO or device: a hook would wait on it
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > MaxFileSize {
		return nil, &TooLargeError{path, fi.Size()}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, &TooLargeError{path, int64(len(data))}
	}
	return data, nil
}

// pins is the trust file: absolute path → pin.
type pins map[string]pin

type pin struct {
	SHA256 string `json:"sha256"`
	// Warned: the one warning for a changed file was printed.
	Warned bool `json:"warned,omitempty"`
}

// TrustFile is where the pins are kept.
func TrustFile(e Env) string {
	d := e.DataDir()
	if d == "" {
		return ""
	}
	return filepath.Join(d, "trusted-filters.json")
}

func readPins(e Env) pins {
	p := pins{}
	data, err := regfile.Read(TrustFile(e), regfile.MaxRules)
	if err == nil {
		_ = json.Unmarshal(data, &p)
	}
	return p
}

func writePins(e Env, p pins) error {
	path := TrustFile(e)
	if path == "" {
		return errors.New("cannot find the data directory: set XDG_DATA_HOME or HOME")
	}
	data, _ := json.MarshalIndent(p, "", "  ")
	return writePrivate(path, append(data, '\n'))
}

// writePrivate writes data atomically, the file 0600 in a 0700 directory.
func writePrivate(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func digest(data []byte) string {
	sum := sum256.Sum(data)
	return hex.EncodeToString(sum[:])
}

// Abs makes a filter file's path absolute against e.Cwd and resolves its
// symlinks, the form pins are keyed by.
func Abs(e Env, path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(e.Cwd, path)
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return filepath.Clean(path)
}

// CheckTrust reads the file at path and returns its trust state and, when
// trusted, its content (the bytes that were hashed, so what is used is
// exactly what was pinned). warn, when set, is the one warning line for a
// file that changed since it was trusted; it is returned once (the pin
// remembers it was said).
//
// A file over MaxFileSize is TooLarge, with a warning naming it and its
// size; an unpinned one is Untrusted without being read.
func CheckTrust(e Env, path string) (t Trust, data []byte, warn string) {
	abs := Abs(e, path)
	if fi, err := os.Stat(abs); err != nil {
		return Untrusted, nil, ""
	} else if fi.Size() > MaxFileSize {
		return TooLarge, nil, "gotk: " + (&TooLargeError{abs, fi.Size()}).Error()
	}
	p := readPins(e)
	pn, ok := p[abs]
	if !ok {
		return Untrusted, nil, ""
	}
	data, err := ReadFile(abs)
	var big *TooLargeError
	switch {
	case errors.As(err, &big):
		return TooLarge, nil, "gotk: " + big.Error()
	case err != nil:
		return Untrusted, nil, ""
	case pn.SHA256 == digest(data):
		return Trusted, data, ""
	}
	if !pn.Warned {
		pn.Warned = true
		p[abs] = pn
		_ = writePins(e, p)
		warn = "gotk: " + abs + " changed since `gotk trust`: its filters are ignored until you review it and run `gotk trust` again"
	}
	return Changed, nil, warn
}

// TrustPath pins the file's current content.
func TrustPath(e Env, path string) (abs, sum string, err error) {
	abs = Abs(e, path)
	data, err := ReadFile(abs)
	if err != nil {
		return abs, "", err
	}
	p := readPins(e)
	sum = digest(data)
	p[abs] = pin{SHA256: sum}
	return abs, sum, writePins(e, p)
}

// UntrustPath removes the file's pin; ok is false when it had none.
func UntrustPath(e Env, path string) (abs string, ok bool, err error) {
	abs = Abs(e, path)
	p := readPins(e)
	if _, ok = p[abs]; !ok {
		// a pin under the path as given (the file may be gone)
		alt := path
		if !filepath.IsAbs(alt) {
			alt = filepath.Join(e.Cwd, alt)
		}
		alt = filepath.Clean(alt)
		if _, ok = p[alt]; !ok {
			return abs, false, nil
		}
		abs = alt
	}
	delete(p, abs)
	return abs, true, writePins(e, p)
}

// Files are the filter files in force for e, highest precedence first:
// the project file when trusted, then the global files. untrusted is the
// project file found but not used (with its state), for reports.
type Files struct {
	Sources   []Source
	Data      map[string][]byte // content of trusted project files, as hashed
	Untrusted string
	State     Trust
	Warnings  []string
}

// Find lists the filter files in force for e.
func Find(e Env) Files {
	var f Files
	if p := ProjectFile(e); p != "" {
		t, data, warn := CheckTrust(e, p)
		if warn != "" {
			f.Warnings = append(f.Warnings, warn)
		}
		if t == Trusted {
			abs := Abs(e, p)
			f.Sources = append(f.Sources, Source{abs, Project})
			f.Data = map[string][]byte{abs: data}
		} else {
			f.Untrusted, f.State = Abs(e, p), t
		}
	}
	f.Sources = append(f.Sources, GlobalFiles(e)...)
	return f
}

// Read returns the content of a source found by Find (a trusted project
// file's pinned bytes).
func (f Files) Read(s Source) ([]byte, error) {
	if d, ok := f.Data[s.Path]; ok {
		return d, nil
	}
	return ReadFile(s.Path)
}

// Load parses every file in force, highest precedence first, and returns
// their filters in that order with the problems found.
func Load(e Env) (Files, []Spec, []Problem) {
	f := Find(e)
	var specs []Spec
	var problems []Problem
	for _, s := range f.Sources {
		data, err := f.Read(s)
		if err != nil {
			var big *TooLargeError
			switch {
			case errors.As(err, &big):
				problems = append(problems, Problem{File: s.Path, Msg: big.Reason()})
			case !errors.Is(err, fs.ErrNotExist):
				problems = append(problems, Problem{File: s.Path, Msg: oneLine(err.Error())})
			}
			continue
		}
		sp, pr := Parse(s.Path, data)
		specs = append(specs, sp...)
		problems = append(problems, pr...)
	}
	return f, specs, problems
}

// ScopeOf tells which scope a path loaded by Load belongs to.
func (f Files) ScopeOf(path string) Scope {
	for _, s := range f.Sources {
		if s.Path == path {
			return s.Scope
		}
	}
	if strings.HasPrefix(path, "built-in") {
		return BuiltIn
	}
	return Global
}
