package store

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// checkPrivate fails unless dir is 0700 and every file in it 0600 or
// stricter; it returns the names of the files it checked.
func checkPrivate(t *testing.T, dir string) []string {
	t.Helper()
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o700 {
		t.Errorf("%s: mode %o, want 700", dir, got)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, e.Name())
		if info.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: mode %o, readable by others", e.Name(), info.Mode().Perm())
		}
	}
	return names
}

func TestNewStoreIsPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	dir := filepath.Join(t.TempDir(), "gotk")
	s, err := Open(filepath.Join(dir, "gotk.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Record(run("grep API_KEY .env"), &Kept{ID: "abc123", Raw: []byte("API_KEY=secret\n"), Shown: []byte("x\n")}); err != nil {
		t.Fatal(err)
	}
	// While open, the WAL and shared-memory files exist too.
	names := checkPrivate(t, dir)
	want := map[string]bool{"gotk.db": false, "gotk.db-wal": false, "gotk.db-shm": false}
	for _, n := range names {
		if _, ok := want[n]; ok {
			want[n] = true
		}
	}
	for n, seen := range want {
		if !seen {
			t.Errorf("%s was not created (files: %v)", n, names)
		}
	}
	s.Close()
	checkPrivate(t, dir)
}

// An older gotk created the directory 0755 and the files 0644 (the
// installer's manifest and the hook audit log live there too): opening the
// store takes the other users' access away.
func TestOldStoreMadePrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	dir := filepath.Join(t.TempDir(), "gotk")
	s, err := Open(filepath.Join(dir, "gotk.db"))
	if err != nil {
		t.Fatal(err)
	}
	s.Record(run("git status"), nil)
	s.Close()
	for _, n := range []string{"gotk.db", "gotk.db-wal", "gotk.db-shm", "installed.json", "hook-audit.log", "spool-1"} {
		p := filepath.Join(dir, n)
		if _, err := os.Stat(p); err != nil {
			os.WriteFile(p, nil, 0o644)
		}
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(dir, 0o755)
	for _, open := range []func(string) (*Store, error){OpenExisting, Open} {
		s, err := open(filepath.Join(dir, "gotk.db"))
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		checkPrivate(t, dir)
		os.Chmod(dir, 0o755)
		os.Chmod(filepath.Join(dir, "gotk.db"), 0o644)
	}
}
