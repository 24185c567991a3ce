package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
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

// A spool file reads back stream by stream, in arrival order, with the
// command it belongs to; a frame cut short by a kill is read as far as it
// goes; a spool from before the header is all stdout.
func TestSpoolRoundTrip(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gotk", "gotk.db")
	meta := SpoolMeta{Argv: []string{"go", "test"}, Ran: []string{"go", "test", "-json"}}
	sp := CreateSpool(db, "abc123", meta, 0)
	if _, err := os.Stat(SpoolPath(db, "abc123")); err != nil {
		t.Fatalf("after 0: no file at once: %v", err)
	}
	sp.Write(SpoolStdout, []byte("out 1\n"))
	sp.Write(SpoolStderr, []byte("err 1\n"))
	sp.Write(SpoolTwinStdout, []byte("typed\n"))
	sp.Write(SpoolStdout, []byte("out 2\n"))
	got, err := ReadSpool(db, "abc123")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Meta.Ran, meta.Ran) || !slices.Equal(got.Meta.Argv, meta.Argv) ||
		string(got.Streams[SpoolStdout]) != "out 1\nout 2\n" || string(got.Streams[SpoolStderr]) != "err 1\n" ||
		string(got.Streams[SpoolTwinStdout]) != "typed\n" || string(got.Combined) != "out 1\nerr 1\nout 2\n" {
		t.Fatalf("read back %+v", got)
	}
	if fi, err := os.Stat(SpoolPath(db, "abc123")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("spool file: %v %v", fi.Mode(), err)
	}

	// Cut the last frame short, as a SIGKILL mid-write would.
	path := SpoolPath(db, "abc123")
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)-3], 0o600)
	if got, _ = ReadSpool(db, "abc123"); string(got.Streams[SpoolStdout]) != "out 1\nout" {
		t.Fatalf("cut frame: %q", got.Streams[SpoolStdout])
	}
	sp.Discard()
	if _, err := os.Stat(path); err == nil {
		t.Fatal("Discard left the file")
	}

	os.WriteFile(SpoolPath(db, "old"), []byte("raw bytes\n"), 0o600)
	if got, _ = ReadSpool(db, "old"); string(got.Combined) != "raw bytes\n" || got.Meta.Argv != nil {
		t.Fatalf("old spool: %+v", got)
	}
}

// A spool made with a delay holds its frames in memory until the
// run has lasted that long, then writes them all to its file; spoolHold
// held makes the file at once; Discard leaves nothing.
func TestSpoolAfter(t *testing.T) {
	db := filepath.Join(t.TempDir(), "data", "gotk.db")
	meta := SpoolMeta{Argv: []string{"make"}, Ran: []string{"make"}}
	const after = 200 * time.Millisecond
	start := time.Now()
	sp := CreateSpool(db, "aaaaaa", meta, after)
	sp.Write(SpoolStdout, []byte("early\n"))
	_, err := os.Stat(SpoolPath(db, "aaaaaa"))
	if err == nil && time.Since(start) < after {
		t.Fatal("spool file made before the run lasted 200ms")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := os.Stat(SpoolPath(db, "aaaaaa")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("spool file never made")
		}
		time.Sleep(10 * time.Millisecond)
	}
	sp.Write(SpoolStderr, []byte("late\n"))
	got, err := ReadSpool(db, "aaaaaa")
	if err != nil || string(got.Combined) != "early\nlate\n" || got.Meta.Argv[0] != "make" {
		t.Fatalf("spool = %q %+v, %v", got.Combined, got.Meta, err)
	}
	fi, _ := os.Stat(SpoolPath(db, "aaaaaa"))
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	sp.Discard()
	if _, err := os.Stat(SpoolPath(db, "aaaaaa")); err == nil {
		t.Error("Discard left the file")
	}

	big := CreateSpool(db, "bbbbbb", meta, time.Hour)
	big.Write(SpoolStdout, make([]byte, spoolHold+1))
	if got, err := ReadSpool(db, "bbbbbb"); err != nil || len(got.Combined) != spoolHold+1 {
		t.Fatalf("spoolHold held: spool %d bytes, %v", len(got.Combined), err)
	}
	big.Discard()

	// Large frames are held up to spoolHold; the frame past it makes
	// the file, and everything reads back in order.
	frames := CreateSpool(db, "eeeeee", meta, time.Hour)
	var want []byte
	for i := range 4 {
		p := bytes.Repeat([]byte{'a' + byte(i)}, spoolHold*3/10)
		if _, err := os.Stat(SpoolPath(db, "eeeeee")); err == nil {
			t.Fatalf("spool file made with %d bytes held", len(want))
		}
		frames.Write(i/3, p) // the last one on stderr
		want = append(want, p...)
	}
	if got, err := ReadSpool(db, "eeeeee"); err != nil || !bytes.Equal(got.Combined, want) || len(got.Streams[SpoolStderr]) != spoolHold*3/10 {
		t.Fatalf("large frames: spool %d bytes (%d on stderr), want %d, %v", len(got.Combined), len(got.Streams[SpoolStderr]), len(want), err)
	}
	frames.Discard()

	quick := CreateSpool(db, "cccccc", meta, 20*time.Millisecond)
	quick.Write(SpoolStdout, []byte("x"))
	quick.Discard()
	time.Sleep(60 * time.Millisecond)
	if _, err := os.Stat(SpoolPath(db, "cccccc")); err == nil {
		t.Error("a run over before its spool was due left a file")
	}
}

// A spool many settle steps long (its write-back started and its page
// cache let go as it grows) reads back byte for byte, both streams in
// arrival order, and pages by line through SpoolLines once kept.
func TestSpoolSettledReadsBack(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gotk", "gotk.db")
	sp := CreateSpool(db, "dddddd", SpoolMeta{Argv: []string{"cat", "x"}}, 0)
	var want bytes.Buffer
	line := 0
	// Random text: S2 cannot shrink it, so the file itself grows past
	// the settle steps.
	rng := rand.New(rand.NewPCG(3, 4))
	noise := make([]byte, 5000)
	for want.Len() < 3*settleStep+12345 {
		var frame []byte
		for n := 1 + line%7; n > 0; n-- { // small and large frames
			for i := range noise[:line%5000] {
				noise[i] = byte('a' + rng.IntN(26))
			}
			frame = fmt.Appendf(frame, "line %d %s\n", line+1, noise[:line%5000])
			line++
		}
		stream := line % 3 / 2 // mostly stdout
		if err := sp.Write(stream, frame); err != nil {
			t.Fatal(err)
		}
		want.Write(frame)
	}
	if err := sp.Keep(); err != nil {
		t.Fatal(err)
	}
	path := RawPath(db, "dddddd")
	if fi, err := os.Stat(path); err != nil || fi.Size() < 3*settleStep {
		t.Fatalf("raw file %v (%v): not three settle steps long", fi.Size(), err)
	}
	all := bytes.SplitAfter(want.Bytes(), []byte("\n"))
	for _, r := range [][2]int{{1, 3}, {line / 2, line/2 + 2}, {line - 2, line}, {1, line}} {
		var got bytes.Buffer
		if _, _, err := SpoolLines(path, int64(r[0]), int64(r[1]), &got); err != nil {
			t.Fatal(err)
		}
		if w := bytes.Join(all[r[0]-1:r[1]], nil); !bytes.Equal(got.Bytes(), w) {
			t.Fatalf("lines %d-%d: got %d bytes, want %d", r[0], r[1], got.Len(), len(w))
		}
	}
}
