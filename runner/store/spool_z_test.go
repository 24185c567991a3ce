package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// zFrames writes a run's worth of frames to a new spool: paths that
// repeat their neighbours (written compressed), random text (written as
// it is), frames under zMin, on stdout, stderr and the twin. It returns
// the spool and what each stream and both together should read back.
func zFrames(t *testing.T, db, id string) (sp *Spool, streams [4][]byte, combined []byte) {
	t.Helper()
	sp = CreateSpool(db, id, SpoolMeta{Argv: []string{"find", "/"}}, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	line := 0
	for i := range 300 {
		var frame []byte
		switch i % 5 {
		case 0, 1, 2: // a listing
			for range 1 + rng.IntN(900) {
				frame = fmt.Appendf(frame, "/usr/share/doc/package-%d/examples/file-%07d.txt\n", line/50, line)
				line++
			}
		case 3: // noise
			frame = make([]byte, rng.IntN(40000))
			for j := range frame {
				frame[j] = byte(' ' + rng.IntN(95))
			}
		case 4: // small
			frame = fmt.Appendf(nil, "warning %d\n", i)
		}
		stream := []int{SpoolStdout, SpoolStdout, SpoolStderr, SpoolTwinStdout}[i%4]
		if err := sp.Write(stream, frame); err != nil {
			t.Fatal(err)
		}
		streams[stream] = append(streams[stream], frame...)
		if stream <= SpoolStderr {
			combined = append(combined, frame...)
		}
	}
	return sp, streams, combined
}

// Frames that compress are written as S2 blocks, and every reader gives
// back the bytes written, stream by stream and in arrival order, and any
// range of lines.
func TestSpoolCompressedFrames(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gotk", "gotk.db")
	sp, streams, combined := zFrames(t, db, "eeeeee")
	fi, err := os.Stat(SpoolPath(db, "eeeeee"))
	if err != nil {
		t.Fatal(err)
	}
	written := len(combined) + len(streams[SpoolTwinStdout])
	if fi.Size() > int64(written)/2 {
		t.Errorf("spool file is %d bytes for %d written: the listing was not compressed", fi.Size(), written)
	}
	got, err := ReadSpool(db, "eeeeee")
	if err != nil {
		t.Fatal(err)
	}
	for s := range streams {
		if !bytes.Equal(got.Streams[s], streams[s]) {
			t.Errorf("stream %d: read back %d bytes, want %d", s, len(got.Streams[s]), len(streams[s]))
		}
	}
	if !bytes.Equal(got.Combined, combined) {
		t.Errorf("combined: read back %d bytes, want %d", len(got.Combined), len(combined))
	}
	if err := sp.Keep(); err != nil {
		t.Fatal(err)
	}
	all := bytes.SplitAfter(combined, []byte("\n"))
	n := len(all) - 1 // combined ends in a newline: the last split is empty
	for _, r := range [][2]int{{1, 1}, {1, 40}, {n / 3, n/3 + 700}, {n / 2, n / 2}, {n - 5, n}, {1, n}} {
		var out bytes.Buffer
		_, lines, err := SpoolLines(RawPath(db, "eeeeee"), int64(r[0]), int64(r[1]), &out)
		if err != nil {
			t.Fatal(err)
		}
		if want := bytes.Join(all[r[0]-1:r[1]], nil); !bytes.Equal(out.Bytes(), want) {
			t.Errorf("lines %d-%d: got %d bytes, want %d", r[0], r[1], out.Len(), len(want))
		}
		if r == [2]int{1, n} && lines != int64(n) {
			t.Errorf("counted %d lines, want %d", lines, n)
		}
	}
}

// A spool cut anywhere (a kill mid-write, a full disk) reads back as a
// prefix of what was written, without an error; a block whose length
// claims more than a frame can hold is an error, not a gigabyte of
// memory.
func TestSpoolCompressedCut(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gotk", "gotk.db")
	sp, _, combined := zFrames(t, db, "ffffff")
	sp.Keep()
	path := RawPath(db, "ffffff")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(filepath.Dir(path), "raw-cut")
	for at := len(data) - 1; at > len(spoolMagic); at -= 1 + at/97 {
		os.WriteFile(cut, data[:at], 0o600)
		var out bytes.Buffer
		if _, _, err := SpoolLines(cut, 1, 1<<40, &out); err != nil {
			t.Fatalf("cut at %d: %v", at, err)
		}
		if !bytes.HasPrefix(combined, out.Bytes()) {
			t.Fatalf("cut at %d: %d bytes read back are not what was written", at, out.Len())
		}
	}

	// A compressed frame whose block claims 1 GiB.
	head := fmt.Appendf([]byte(spoolMagic), "{}\n")
	bad := append(head, SpoolStdout|spoolZ, 6, 0x80, 0x80, 0x80, 0x80, 0x04, 0)
	os.WriteFile(cut, bad, 0o600)
	if _, _, err := SpoolLines(cut, 1, 10, &bytes.Buffer{}); err == nil {
		t.Error("a block claiming 1 GiB read without an error")
	}
}
