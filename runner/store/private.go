package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// The store holds raw command output (a grep of a .env file, a failing
// test printing a token), so the data directory and everything in it are
// private to the user: the directory 0700, each file 0600. SQLite creates
// gotk.db-wal and gotk.db-shm with the mode of gotk.db, so creating the
// database file 0600 first is enough for new files; makePrivate fixes
// what an older gotk (or a looser umask) left readable.

const (
	dirMode  fs.FileMode = 0o700
	fileMode fs.FileMode = 0o600
)

// privateDir creates dir (0700) if needed and takes group and other
// permissions away from it: what a run does before it writes a file there
// (each file it writes is created 0600).
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return os.Chmod(dir, dirMode)
	}
	return nil
}

// makePrivate is privateDir, and it takes group and other permissions
// away from every file directly in dir too (what an older gotk, or a
// looser umask, left readable): done when the database is opened.
func makePrivate(dir string) error {
	if err := privateDir(dir); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		if info.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(filepath.Join(dir, e.Name()), info.Mode().Perm()&fileMode); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// createPrivate creates path empty with mode 0600 unless it exists.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, fileMode)
	if err != nil {
		return err
	}
	return f.Close()
}

// SpoolPath is where a running command's raw output is spooled as it
// arrives, next to the database at dbPath: a run whose gotk was killed
// before it could record the output leaves it there for `gotk recall`.
func SpoolPath(dbPath, id string) string {
	return filepath.Join(filepath.Dir(dbPath), "spool-"+id)
}

// Spooled lists the ids of spool files left by runs that were never
// recorded (their gotk was killed).
func Spooled(dbPath string) []string {
	m, _ := filepath.Glob(filepath.Join(filepath.Dir(dbPath), "spool-*"))
	ids := make([]string, 0, len(m))
	for _, p := range m {
		ids = append(ids, filepath.Base(p)[len("spool-"):])
	}
	return ids
}
