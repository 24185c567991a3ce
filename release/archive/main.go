// Command archive packs release archives for `make dist`: each directory
// given becomes DIR.tar.gz (DIR.zip for a windows build), holding that
// directory as its top folder, and SHA256SUMS beside them lists every
// archive's digest in sha256sum's format. Entries are sorted and stamped
// with one time, so the same binaries make the same archives.
//
//	go run ./release/archive dist/gotk_v0.2.0_linux_amd64 dist/gotk_v0.2.0_windows_arm64 …
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// stamp is every entry's modification time (SOURCE_DATE_EPOCH's idea).
var stamp = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: archive DIR…")
		os.Exit(2)
	}
	var sums []string
	for _, dir := range os.Args[1:] {
		dir = filepath.Clean(dir)
		name := dir + ".tar.gz"
		pack := packTar
		if strings.Contains(filepath.Base(dir), "windows") {
			name, pack = dir+".zip", packZip
		}
		if err := write(name, dir, pack); err != nil {
			fmt.Fprintf(os.Stderr, "archive: %s: %v\n", name, err)
			os.Exit(1)
		}
		sum, err := digest(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "archive: %v\n", err)
			os.Exit(1)
		}
		sums = append(sums, sum+"  "+filepath.Base(name)+"\n")
		fmt.Println(name)
	}
	sort.Strings(sums)
	out := filepath.Join(filepath.Dir(filepath.Clean(os.Args[1])), "SHA256SUMS")
	if err := os.WriteFile(out, []byte(strings.Join(sums, "")), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "archive: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(out)
}

type entry struct {
	name string // slash path inside the archive, under the top folder
	path string
	mode fs.FileMode
}

func entries(dir string) ([]entry, error) {
	top := filepath.Base(dir)
	var out []entry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		mode := fs.FileMode(0o644)
		if info, err := d.Info(); err == nil && info.Mode()&0o111 != 0 {
			mode = 0o755
		}
		out = append(out, entry{top + "/" + filepath.ToSlash(rel), p, mode})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, err
}

func write(name, dir string, pack func(io.Writer, []entry) error) error {
	es, err := entries(dir)
	if err != nil {
		return err
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := pack(f, es); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func packTar(w io.Writer, es []entry) error {
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	for _, e := range es {
		data, err := os.ReadFile(e.path)
		if err != nil {
			return err
		}
		h := &tar.Header{Name: e.name, Mode: int64(e.mode), Size: int64(len(data)), ModTime: stamp, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func packZip(w io.Writer, es []entry) error {
	zw := zip.NewWriter(w)
	for _, e := range es {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: stamp}
		h.SetMode(e.mode)
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		f, err := os.Open(e.path)
		if err != nil {
			return err
		}
		_, err = io.Copy(fw, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	return zw.Close()
}

func digest(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
