package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A read leaves its output in the files only when the program wrote
// exactly what they held, unchanged while it ran; else the reason.
func TestReadRefChecks(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("some line of text\n"), 1000)
	os.WriteFile(filepath.Join(dir, "a.txt"), data, 0o644)
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	for _, argv := range [][]string{{"cat"}, {"cat", "-n", "a.txt"}, {"cat", "-", "a.txt"}, {"cat", "d"}, {"cat", "nope"}, {"tac", "a.txt"}} {
		if newReadRef(argv, 0, dir) != nil {
			t.Errorf("%q: a reference to the files", argv)
		}
	}
	old := refAfter
	refAfter = 100
	defer func() { refAfter = old }()
	run := func(chunks ...[]byte) (*readRef, int64) {
		r := newReadRef([]string{"cat", "a.txt"}, 0, dir)
		if r == nil {
			t.Fatal("cat a.txt: no reference")
		}
		var spooled int64
		for _, c := range chunks {
			stream := 0
			if c == nil {
				stream, c = 1, []byte("cat: error\n")
			}
			if r.add(stream, c, spooled) {
				spooled += int64(len(c))
			}
		}
		return r, spooled
	}
	r, spooled := run(data[:50], data[50:7000], data[7000:])
	if ref, bad := r.ref(); bad != "" || ref.From != 50 || spooled != 50 || len(ref.Files) != 1 || ref.Files[0].Size != int64(len(data)) {
		t.Fatalf("whole read: %+v %q, spooled %d", ref, bad, spooled)
	}
	if r, _ := run(data[:50], data[50:]); r.add(0, []byte("more\n"), 50) || !strings.Contains(func() string { _, b := r.ref(); return b }(), "other than the files held") {
		t.Error("more bytes than the files: still a reference")
	}
	if r, _ := run(data[:50], data[50:], nil); !strings.Contains(func() string { _, b := r.ref(); return b }(), "stderr") {
		t.Error("stderr after the switch: still a reference")
	}
	if r, spooled := run(nil, data[:50], data[50:]); r.on || spooled != int64(len(data))+11 {
		t.Errorf("stderr first: on %v, spooled %d", r.on, spooled)
	}
	r, _ = run(data[:50], data[50:])
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "a.txt"), later, later)
	if _, bad := r.ref(); !strings.Contains(bad, "changed while it was read") {
		t.Errorf("file touched during the run: %q", bad)
	}
}
