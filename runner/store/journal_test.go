package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// pendingRecords counts the whole records waiting in the pending folder.
func pendingRecords(t *testing.T, path string) int {
	t.Helper()
	entries, _ := os.ReadDir(PendingDir(path))
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			continue
		}
		f, err := os.Open(filepath.Join(PendingDir(path), e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		readRecords(f, func(record) error { n++; return nil })
		f.Close()
	}
	return n
}

// runsIn opens the store at path (folding) and returns its runs.
func runsIn(t *testing.T, path string) []Run {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.Runs("")
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// A journaled run is what Record would have stored: every field of the
// run, the kept output byte for byte (CR, NUL, invalid UTF-8), and the
// pending file is gone once folded.
func TestJournalRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gotk.db")
	at := time.UnixMilli(time.Now().UnixMilli())
	r := Run{At: at, Project: "/p q", Command: "git 'lo g'", Rule: "git.log", Mode: "filtered",
		Measured: true, RawBytes: 1234, Shown: 56, Exit: 3, Duration: 42 * time.Millisecond}
	raw := []byte("a\r\nb\x00\xff\xfe\n")
	if _, err := Journal(path, r, &Kept{ID: "ABCDEF", Raw: raw, Shown: []byte("shown\n"), Size: 99999}); err != nil {
		t.Fatal(err)
	}
	unmeasured := Run{At: at.Add(time.Millisecond), Project: "/p", Command: "ls", Mode: "passthrough", Exit: 0}
	if _, err := Journal(path, unmeasured, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("journaling opened the database")
	}
	if n := pendingRecords(t, path); n != 2 {
		t.Fatalf("pending = %d, want 2", n)
	}
	s, err := OpenExisting(path)
	if err != nil {
		t.Fatalf("OpenExisting with pending runs and no database: %v", err)
	}
	defer s.Close()
	runs, err := s.Runs("")
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("runs = %+v", runs)
	}
	if got := runs[0]; got != r {
		t.Errorf("run = %+v\nwant %+v", got, r)
	}
	if got := runs[1]; got.Measured || got.Command != "ls" || got.Mode != "passthrough" {
		t.Errorf("unmeasured run = %+v", got)
	}
	e, err := s.Recall("abcdef")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(e.Raw, raw) || string(e.Shown) != "shown\n" || e.RawSize != 99999 || e.Exit != 3 || e.Command != r.Command {
		t.Errorf("recalled %+v", e)
	}
	if n := pendingRecords(t, path); n != 0 {
		t.Errorf("pending after fold = %d", n)
	}
}

// A fold that stopped between its commit and its deletes leaves files the
// database already has: the next fold counts them once.
func TestFoldTwiceCountsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gotk.db")
	for i := range 5 {
		if _, err := Journal(path, run(fmt.Sprint("c", i)), &Kept{ID: fmt.Sprintf("%06x", i), Raw: []byte("raw")}); err != nil {
			t.Fatal(err)
		}
	}
	dir := PendingDir(path)
	saved := map[string][]byte{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		saved[e.Name()], _ = os.ReadFile(filepath.Join(dir, e.Name()))
	}
	if n := len(runsIn(t, path)); n != 5 {
		t.Fatalf("runs = %d", n)
	}
	for name, data := range saved {
		os.WriteFile(filepath.Join(dir, name), data, 0o600)
	}
	if n := len(runsIn(t, path)); n != 5 {
		t.Fatalf("after folding the same files again: runs = %d, want 5", n)
	}
}

// Writers and folders at once (gotk runs in parallel with gain and
// recall): every run is counted exactly once, none is lost.
func TestJournalConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gotk.db")
	const writers, each, folders = 6, 25, 3
	var wg sync.WaitGroup
	errs := make(chan error, writers*each+folders*10)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				var k *Kept
				if i%2 == 0 {
					k = &Kept{ID: fmt.Sprintf("%02x%04x", w, i), Raw: bytes.Repeat([]byte("x"), rand.IntN(5000))}
				}
				if _, err := Journal(path, run(fmt.Sprintf("w%d-%d", w, i)), k); err != nil {
					errs <- err
				}
			}
		}()
	}
	for range folders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				s, err := Open(path)
				if err != nil {
					errs <- err
					continue
				}
				s.Close()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	runs := runsIn(t, path)
	seen := map[string]int{}
	for _, r := range runs {
		seen[r.Command]++
	}
	if len(runs) != writers*each || len(seen) != writers*each {
		t.Fatalf("runs = %d (%d distinct), want %d", len(runs), len(seen), writers*each)
	}
}

// Damaged records (a gotk killed in the middle of its write, garbage) are
// skipped and counted once; the records around them fold; a temporary
// file of a run still being written stays unless it is old.
func TestFoldDamaged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gotk.db")
	dir := PendingDir(path)
	os.MkdirAll(dir, 0o700)
	rec := func(cmd string, raw string) []byte {
		_, b := encodeRecord(run(cmd), &Kept{ID: NewID(), Raw: []byte(raw), Shown: []byte("s")})
		return b
	}
	var log []byte
	log = append(log, rec("first", "0123456789")...)
	cut := rec("cut", "abcdefghij")
	log = append(log, cut[:len(cut)-4]...) // killed mid-write
	log = append(log, "garbage\n"...)
	bad := rec("flipped", "klmnopqrst")
	bad[len(bad)-3] ^= 1 // fails its CRC
	log = append(log, bad...)
	log = append(log, rec("last", "gotk-run 1\n inside an output")...)
	os.WriteFile(filepath.Join(dir, segmentPrefix+"0000000000000001-aaaaaa.log"), log, 0o600)
	fresh := filepath.Join(dir, ".tmp-0000000000000003-dddddd.run")
	old := filepath.Join(dir, ".tmp-0000000000000004-eeeeee.run")
	os.WriteFile(fresh, []byte("gotk-run 1\n{"), 0o600)
	os.WriteFile(old, []byte("gotk-run 1\n{"), 0o600)
	os.Chtimes(old, time.Now().Add(-2*staleTemp), time.Now().Add(-2*staleTemp))

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if w := s.Warning(); !strings.Contains(w, "damaged pending record") {
		t.Errorf("warning = %q", w)
	}
	runs, _ := s.Runs("")
	var cmds []string
	for _, r := range runs {
		cmds = append(cmds, r.Command)
	}
	if strings.Join(cmds, " ") != "first last" {
		t.Errorf("folded %q, want first and last", cmds)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh temporary file was removed")
	}
	if _, err := os.Stat(old); err == nil {
		t.Error("a stale temporary file was kept")
	}
	if n := pendingRecords(t, path); n != 0 {
		t.Errorf("pending = %d", n)
	}
}

// Any bytes at all in the pending folder: folding never fails the store
// and never panics, and what it cannot read it skips.
func FuzzReadRecords(f *testing.F) {
	_, good := encodeRecord(run("x"), &Kept{ID: "abcdef", Raw: []byte("raw"), Shown: []byte("s")})
	f.Add(good)
	f.Add(append(append([]byte{}, good[:20]...), good...))
	f.Add([]byte("gotk-run 1\n{\"key\":\"k\",\"id\":\"a\",\"raw_len\":999999999}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		readRecords(bytes.NewReader(data), func(r record) error {
			if r.key == "" || (r.k != nil && len(r.k.Raw)+len(r.k.Shown) > len(data)) {
				t.Fatalf("record %+v out of %d bytes", r, len(data))
			}
			n++
			return nil
		})
		if n > len(data)/len(journalMagic) {
			t.Fatalf("%d records from %d bytes", n, len(data))
		}
	})
}

// Pending files are the user's raw output: private like the database.
func TestJournalPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "gotk.db")
	if _, err := Journal(path, run("x"), &Kept{ID: "aaaaaa", Raw: []byte("API_KEY=secret")}); err != nil {
		t.Fatal(err)
	}
	dir := PendingDir(path)
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("pending dir mode %v", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		info, _ := e.Info()
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v", e.Name(), info.Mode().Perm())
		}
	}
}

// An old database keeps its runs; the journal column is added.
func TestMigrateJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gotk.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Record(run("old"), nil)
	for _, q := range []string{"DROP INDEX runs_journal", "ALTER TABLE runs DROP COLUMN journal", "PRAGMA user_version = 2"} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	Journal(path, run("new"), nil)
	runs := runsIn(t, path)
	if len(runs) != 2 || runs[0].Command != "old" || runs[1].Command != "new" {
		t.Fatalf("runs = %+v", runs)
	}
}

// BenchmarkJournal is the whole cost of recording a run on the hot path.
func BenchmarkJournal(b *testing.B) {
	path := filepath.Join(b.TempDir(), "gotk.db")
	raw := bytes.Repeat([]byte("M  some/file.go\n"), 50)
	for b.Loop() {
		if _, err := Journal(path, run("git status"), &Kept{ID: NewID(), Raw: raw, Shown: raw[:100]}); err != nil {
			b.Fatal(err)
		}
	}
}

// Journal says when the pending records pass FoldAt (the runner then folds
// them), and not before.
func TestJournalFull(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gotk.db")
	raw := bytes.Repeat([]byte("x"), 256<<10)
	var total int64
	for {
		k := &Kept{ID: NewID(), Raw: raw}
		_, rec := encodeRecord(run("big"), k)
		total += int64(len(rec))
		full, err := Journal(path, run("big"), k)
		if err != nil {
			t.Fatal(err)
		}
		if full != (total > FoldAt) {
			t.Fatalf("after %d bytes: full = %v", total, full)
		}
		if full {
			break
		}
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if full, _ := Journal(path, run("small"), nil); full {
		t.Error("full right after a fold")
	}
}
