// Command modproxy writes a file module proxy (GOPROXY=file://DIR) holding
// the repo's modules, as they are in the working tree, at one version — the
// way a release would publish them: each module's zip is what the Go module
// proxy would serve for its tag (golang.org/x/mod/zip, the proxy's own
// rules), from the files git would commit (tracked and untracked, not
// ignored), and every requirement of one of these modules on another is set
// to that version, as `make release` sets it before tagging.
//
//	go run ./release/modproxy -version v0.1.0 -out DIR core installer runner agents/claude …
//
// It refuses a go.mod with a replace directive: `go install pkg@version`
// refuses one too.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/zip"
)

func main() {
	version := flag.String("version", "", "the version every module gets (vX.Y.Z or vX.Y.Z-pre)")
	out := flag.String("out", "", "the proxy directory to write")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: modproxy -version vX.Y.Z -out DIR MODULE-DIR…")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*version, *out, flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "modproxy: %v\n", err)
		os.Exit(1)
	}
}

type mod struct {
	dir  string
	file *modfile.File
}

func run(version, out string, dirs []string) error {
	if !semver.IsValid(version) || semver.Build(version) != "" || semver.Major(version) != "v0" && semver.Major(version) != "v1" {
		return fmt.Errorf("version %q: want vX.Y.Z or vX.Y.Z-pre with X 0 or 1 (a v2 needs /v2 module paths)", version)
	}
	var mods []mod
	ours := map[string]bool{}
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err != nil {
			return err
		}
		f, err := modfile.Parse(filepath.Join(d, "go.mod"), data, nil)
		if err != nil {
			return err
		}
		if len(f.Replace) > 0 {
			r := f.Replace[0]
			return fmt.Errorf("%s/go.mod: replace %s => %s: go install refuses a module whose go.mod replaces (go.work wires the local modules)", d, r.Old.Path, r.New.Path)
		}
		mods = append(mods, mod{d, f})
		ours[f.Module.Mod.Path] = true
	}
	stamp, _ := json.Marshal(map[string]any{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	for _, m := range mods {
		path := m.file.Module.Mod.Path
		for _, r := range m.file.Require {
			if ours[r.Mod.Path] {
				if err := m.file.AddRequire(r.Mod.Path, version); err != nil {
					return err
				}
			}
		}
		m.file.Cleanup()
		gomod, err := m.file.Format()
		if err != nil {
			return err
		}
		esc, err := module.EscapePath(path)
		if err != nil {
			return err
		}
		dir := filepath.Join(out, filepath.FromSlash(esc), "@v")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		files, err := moduleFiles(m.dir, gomod)
		if err != nil {
			return err
		}
		var z bytes.Buffer
		if err := zip.Create(&z, module.Version{Path: path, Version: version}, files); err != nil {
			return fmt.Errorf("%s: %w", m.dir, err)
		}
		for name, data := range map[string][]byte{
			version + ".mod":  gomod,
			version + ".zip":  z.Bytes(),
			version + ".info": stamp,
			"list":            []byte(version + "\n"),
		} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				return err
			}
		}
		fmt.Printf("%s@%s (%d files, %d KiB)\n", path, version, len(files), z.Len()>>10)
	}
	return nil
}

// moduleFiles lists the files git would commit under dir (zip.Create drops
// those of nested modules and vendor directories), with go.mod replaced.
func moduleFiles(dir string, gomod []byte) ([]zip.File, error) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	list, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: git ls-files: %w", dir, err)
	}
	var files []zip.File
	seen := map[string]bool{}
	for _, p := range strings.Split(string(list), "\x00") {
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		full := filepath.Join(dir, filepath.FromSlash(p))
		if p == "go.mod" {
			files = append(files, memFile{p, gomod})
			continue
		}
		if _, err := os.Lstat(full); errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree, not yet in the index
		}
		files = append(files, diskFile{p, full})
	}
	return files, nil
}

type diskFile struct{ path, full string }

func (f diskFile) Path() string                 { return f.path }
func (f diskFile) Lstat() (fs.FileInfo, error)  { return os.Lstat(f.full) }
func (f diskFile) Open() (io.ReadCloser, error) { return os.Open(f.full) }

// memFile is the rewritten go.mod.
type memFile struct {
	path string
	data []byte
}

func (f memFile) Path() string                 { return f.path }
func (f memFile) Lstat() (fs.FileInfo, error)  { return memInfo(f), nil }
func (f memFile) Open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(f.data)), nil }

type memInfo memFile

func (i memInfo) Name() string       { return i.path }
func (i memInfo) Size() int64        { return int64(len(i.data)) }
func (i memInfo) Mode() fs.FileMode  { return 0o644 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
