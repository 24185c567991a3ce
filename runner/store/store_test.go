package store

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "gotk", "gotk.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func run(cmd string) Run {
	return Run{At: time.Now(), Project: "/p", Command: cmd, Rule: "git.status", Mode: "filtered",
		Measured: true, RawBytes: 100, Shown: 10, Duration: 3 * time.Millisecond}
}

func TestMigrateFromEmpty(t *testing.T) {
	s := openTemp(t)
	var v int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != SchemaVersion {
		t.Fatalf("user_version = %d, %v; want %d", v, err, SchemaVersion)
	}
	var mode string
	s.db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal_mode = %q, want wal", mode)
	}
	// Opening again is a no-op migration and keeps the data.
	if err := s.Record(run("git status"), nil); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	runs, err := s2.Runs("")
	if err != nil || len(runs) != 1 || runs[0].Command != "git status" || !runs[0].Measured {
		t.Fatalf("runs = %+v, %v", runs, err)
	}
	// Closing keeps an empty WAL file: the next run neither creates it
	// nor has a log to replay.
	s.Close()
	s2.Close()
	if fi, err := os.Stat(s.Path() + "-wal"); err != nil || fi.Size() != 0 {
		t.Fatalf("after close: %v, %v", fi, err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	s := openTemp(t)
	s.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion+1))
	s.Close()
	if _, err := Open(s.Path()); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("err = %v, want a 'newer schema' error", err)
	}
}

func TestNotADatabase(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gotk.db")
	os.WriteFile(p, []byte(strings.Repeat("this is not a database\n", 100)), 0o600)
	_, err := Open(p)
	if err == nil || !strings.Contains(err.Error(), "not a gotk database") {
		t.Fatalf("err = %v", err)
	}
}

func TestOpenExistingMissing(t *testing.T) {
	if _, err := OpenExisting(filepath.Join(t.TempDir(), "none.db")); !errors.Is(err, ErrNoDatabase) {
		t.Fatalf("err = %v, want ErrNoDatabase", err)
	}
}

func TestCompressionRoundTrip(t *testing.T) {
	s := openTemp(t)
	raw := bytes.Repeat([]byte("line of output\n"), 10000)
	if err := s.Record(run("git log"), &Kept{ID: "ABC123", Raw: raw, Shown: []byte("short\n")}); err != nil {
		t.Fatal(err)
	}
	e, err := s.Recall("abc123")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(e.Raw, raw) || string(e.Shown) != "short\n" || e.RawSize != int64(len(raw)) || e.KeptSize != e.RawSize {
		t.Fatalf("round trip lost data: %d/%d bytes, shown %q", len(e.Raw), len(raw), e.Shown)
	}
	var size int
	s.db.QueryRow("SELECT length(raw) FROM outputs").Scan(&size)
	if size >= len(raw)/10 {
		t.Errorf("stored %d bytes for %d: not compressed", size, len(raw))
	}
	if _, err := s.Recall("ffffff"); !errors.Is(err, ErrUnknownID) {
		t.Errorf("unknown id: err = %v", err)
	}
}

func TestEntryCap(t *testing.T) {
	s := openTemp(t)
	s.SetLimits(256<<10, 64<<20)
	raw := make([]byte, 2<<20) // random: does not compress
	rand.Read(raw)
	if err := s.Record(run("cat big"), &Kept{ID: "aaaaaa", Raw: raw}); err != nil {
		t.Fatal(err)
	}
	e, err := s.Recall("aaaaaa")
	if err != nil {
		t.Fatal(err)
	}
	if e.RawSize != int64(len(raw)) || e.KeptSize >= e.RawSize || !bytes.Equal(e.Raw, raw[:e.KeptSize]) {
		t.Fatalf("raw %d kept %d (%d read)", e.RawSize, e.KeptSize, len(e.Raw))
	}
	var size int
	s.db.QueryRow("SELECT length(raw) FROM outputs").Scan(&size)
	if size > 256<<10 {
		t.Errorf("compressed entry %d bytes, cap %d", size, 256<<10)
	}
}

func TestEviction(t *testing.T) {
	s := openTemp(t)
	s.SetLimits(1<<20, 300<<10)
	for i := range 5 {
		raw := make([]byte, 100<<10)
		rand.Read(raw)
		r := run(fmt.Sprint("cmd ", i))
		r.At = time.Unix(1000+int64(i), 0)
		if err := s.Record(r, &Kept{ID: fmt.Sprintf("00000%d", i), Raw: raw}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range list {
		ids = append(ids, e.ID)
	}
	if got := strings.Join(ids, " "); got != "000004 000003" {
		t.Fatalf("kept %q, want the two newest", got)
	}
	checkTotal(t, s)
	// Runs are never evicted: gain keeps its history.
	if runs, _ := s.Runs(""); len(runs) != 5 {
		t.Fatalf("%d runs, want 5", len(runs))
	}
}

func TestSameIDReplaces(t *testing.T) {
	s := openTemp(t)
	s.Record(run("one"), &Kept{ID: "abcdef", Raw: []byte("one")})
	s.Record(run("two"), &Kept{ID: "abcdef", Raw: []byte("two")})
	e, err := s.Recall("abcdef")
	if err != nil || string(e.Raw) != "two" {
		t.Fatalf("recall = %q, %v", e.Raw, err)
	}
	checkTotal(t, s)
}

// checkTotal asserts the maintained total equals the sum it stands for.
func checkTotal(t *testing.T, s *Store) {
	t.Helper()
	var total, sum int64
	if err := s.db.QueryRow("SELECT size FROM totals WHERE id = 1").Scan(&total); err != nil {
		t.Fatal(err)
	}
	s.db.QueryRow("SELECT COALESCE(SUM(size), 0) FROM outputs").Scan(&sum)
	if total != sum {
		t.Fatalf("totals.size = %d, but the kept outputs sum to %d", total, sum)
	}
}

// The total stays exact through inserts, replacements and evictions.
func TestTotalMaintained(t *testing.T) {
	s := openTemp(t)
	s.SetLimits(1<<20, 200<<10)
	for i := range 40 {
		raw := make([]byte, (i%7+1)<<10*5)
		rand.Read(raw)
		if err := s.Record(run("c"), &Kept{ID: fmt.Sprintf("%06x", i%9), Raw: raw, Shown: raw[:10]}); err != nil {
			t.Fatal(err)
		}
		checkTotal(t, s)
	}
}

// A version-1 database (before totals) keeps its outputs, and its total
// starts at their sum.
func TestMigrateTotals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gotk.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Record(run("a"), &Kept{ID: "aaaaaa", Raw: []byte("first output")})
	s.Record(run("b"), &Kept{ID: "bbbbbb", Raw: []byte("second output")})
	// Back to version 1, as a gotk from before the migration left it.
	for _, q := range []string{"DROP TRIGGER outputs_added", "DROP TRIGGER outputs_dropped", "DROP TABLE totals",
		"DROP INDEX runs_journal", "ALTER TABLE runs DROP COLUMN journal", "PRAGMA user_version = 1"} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkTotal(t, s)
	var total int64
	s.db.QueryRow("SELECT size FROM totals").Scan(&total)
	if total == 0 {
		t.Fatal("migrated total is 0 with two outputs kept")
	}
	if e, err := s.Recall("aaaaaa"); err != nil || string(e.Raw) != "first output" {
		t.Fatalf("recall after migration = %q, %v", e.Raw, err)
	}
}

// Concurrent gotk processes each open their own connection; none may fail.
func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gotk.db")
	const writers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				s, err := Open(path) // the first ones race to create and migrate
				if err != nil {
					errs <- err
					return
				}
				err = s.Record(run(fmt.Sprint(w, i)), &Kept{ID: NewID(), Raw: []byte("x")})
				s.Close()
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if runs, _ := s.Runs(""); len(runs) != writers*each {
		t.Fatalf("%d runs, want %d", len(runs), writers*each)
	}
}

func TestDefaultPath(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	get := func(k string) string { return env[k] }
	if p, _ := DefaultPath(get); p != filepath.Join("/home/u", ".local", "share", "gotk", "gotk.db") {
		t.Errorf("default: %s", p)
	}
	env["XDG_DATA_HOME"] = "relative/ignored"
	if p, _ := DefaultPath(get); !strings.HasPrefix(p, "/home/u/") {
		t.Errorf("relative XDG_DATA_HOME must be ignored: %s", p)
	}
	env["XDG_DATA_HOME"] = "/data"
	if p, _ := DefaultPath(get); p != filepath.Join("/data", "gotk", "gotk.db") {
		t.Errorf("xdg: %s", p)
	}
}

// BenchmarkRecord is what one gotk run pays to be recorded: open the
// database, insert the run and a small kept output, close.
// BenchmarkRecord is what one gotk run pays to record itself: open,
// record a run with its kept output, close; on a new database and on one
// that already keeps 20,000 outputs (the cost must not grow with it).
func BenchmarkRecord(b *testing.B) {
	raw := bytes.Repeat([]byte("some output line\n"), 200)
	for _, kept := range []int{0, 20000} {
		b.Run(fmt.Sprintf("kept=%d", kept), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "gotk.db")
			s, err := Open(path)
			if err != nil {
				b.Fatal(err)
			}
			if kept > 0 {
				s.Record(run("seed"), &Kept{ID: "000000", Raw: raw, Shown: raw[:100]})
				// Copies of that row, in one statement (20,000 Records
				// would take longer than the benchmark).
				if _, err := s.db.Exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < ?)
					INSERT INTO outputs (id, run, at, raw, raw_size, kept_size, shown, size)
					SELECT printf('%06x', i), o.run, o.at, o.raw, o.raw_size, o.kept_size, o.shown, o.size FROM n, outputs o WHERE o.id = '000000'`, kept-1); err != nil {
					b.Fatal(err)
				}
			}
			s.Close()
			for b.Loop() {
				s, err := Open(path)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Record(run("git status"), &Kept{ID: NewID(), Raw: raw, Shown: raw[:100]}); err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
		})
	}
}
