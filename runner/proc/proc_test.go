package proc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestCaptureStreams(t *testing.T) {
	var out, errw bytes.Buffer
	o, res, err := Capture([]string{"sh", "-c", "echo a; sleep 0.02; echo b >&2; sleep 0.02; echo c; exit 3"}, Options{Limit: 1 << 20, Stdout: &out, Stderr: &errw})
	if err != nil {
		t.Fatal(err)
	}
	if res.Exit != 3 || string(o.Stdout) != "a\nc\n" || string(o.Stderr) != "b\n" || o.Total != 6 || o.Overflow {
		t.Fatalf("got exit %d, %+v", res.Exit, o)
	}
	// Combined is in arrival order: each stream's bytes in their own order.
	// Across the two pipes the order is the scheduler's (a loaded machine
	// may read b first), so only the interleaving of lines is checked.
	if c := string(o.Combined); len(c) != 6 || strings.Replace(c, "b\n", "", 1) != "a\nc\n" {
		t.Fatalf("combined %q: not an interleaving of %q and %q", c, o.Stdout, o.Stderr)
	}
	if out.Len()+errw.Len() != 0 {
		t.Fatalf("captured output was written: %q %q", out.String(), errw.String())
	}
}

// Past the limit, what was held and everything after is written through,
// each byte exactly once.
func TestCaptureOverflow(t *testing.T) {
	var out, errw bytes.Buffer
	o, res, err := Capture([]string{"sh", "-c", "i=0; while [ $i -lt 2000 ]; do echo line $i; i=$((i+1)); done; echo oops >&2"}, Options{Limit: 4096, Stdout: &out, Stderr: &errw})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Overflow || o.Stdout != nil || o.Combined != nil || res.Exit != 0 {
		t.Fatalf("overflow %v, held %d", o.Overflow, len(o.Stdout))
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2000 || lines[0] != "line 0" || lines[1999] != "line 1999" || errw.String() != "oops\n" {
		t.Fatalf("passed through %d lines (%q … %q), stderr %q", len(lines), lines[0], lines[len(lines)-1], errw.String())
	}
	if o.Total != int64(out.Len()+errw.Len()) {
		t.Fatalf("total %d, written %d", o.Total, out.Len()+errw.Len())
	}
}

// An output held in several chunks comes back whole and in order: each
// stream's bytes, and both interleaved (the second stream's first bytes
// arriving after the first stream's first chunks); past the limit each
// byte is written through exactly once, in order.
func TestCaptureChunks(t *testing.T) {
	big := "i=0; while [ $i -lt 40000 ]; do echo line $i of a long output; i=$((i+1)); done"
	script := big + "; sleep 0.05; echo oops >&2; sleep 0.05; " + big
	var want strings.Builder
	for range 2 {
		for i := range 40000 {
			fmt.Fprintf(&want, "line %d of a long output\n", i)
		}
	}
	var out, errw bytes.Buffer
	o, _, err := Capture([]string{"sh", "-c", script}, Options{Limit: 16 << 20, Stdout: &out, Stderr: &errw})
	if err != nil {
		t.Fatal(err)
	}
	if o.Overflow || string(o.Stdout) != want.String() || string(o.Stderr) != "oops\n" {
		t.Fatalf("held %d bytes of stdout (want %d), stderr %q, overflow %v", len(o.Stdout), want.Len(), o.Stderr, o.Overflow)
	}
	if c := string(o.Combined); len(c) != want.Len()+5 || strings.Replace(c, "oops\n", "", 1) != want.String() {
		t.Fatalf("combined (%d bytes) is not an interleaving of stdout and stderr", len(c))
	}
	o, _, err = Capture([]string{"sh", "-c", script}, Options{Limit: 3 << 20, Stdout: &out, Stderr: &errw})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Overflow || out.String() != want.String() || errw.String() != "oops\n" {
		t.Fatalf("overflow %v: wrote %d bytes of stdout (want %d), stderr %q", o.Overflow, out.Len(), want.Len(), errw.String())
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   int
	}{
		{"exit 0", 0}, {"exit 1", 1}, {"exit 42", 42}, {"kill -INT $$", 130}, {"kill -TERM $$", 143},
	} {
		res, err := Run([]string{"sh", "-c", tc.script})
		if err != nil || res.Exit != tc.want {
			t.Errorf("%s: exit %d, %v; want %d", tc.script, res.Exit, err, tc.want)
		}
	}
}

func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		prog, reason string
		code         int
	}{
		{"gotk-no-such-program", "command not found", 127},
		{dir + "/missing", "no such file or directory", 127},
		{dir, "is a directory", 126},
	} {
		_, err := Run([]string{tc.prog})
		var se *StartError
		if !errors.As(err, &se) || se.Reason != tc.reason || se.Code != tc.code || se.Program != tc.prog {
			t.Errorf("%s: %v", tc.prog, err)
		}
	}
}

// A background process that keeps the output pipe open does not hold
// gotk past the program's own exit.
func TestBackgroundHolder(t *testing.T) {
	var out, errw bytes.Buffer
	t0 := time.Now()
	o, res, err := Capture([]string{"sh", "-c", "echo started; sleep 5 & exit 0"}, Options{Limit: 1 << 20, Stdout: &out, Stderr: &errw})
	if err != nil || res.Exit != 0 || string(o.Stdout) != "started\n" {
		t.Fatalf("%v %d %q", err, res.Exit, o.Stdout)
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Fatalf("waited %v for a background holder", d)
	}
}

// A program still running after LiveAfter goes live: GoLive gets what was
// held, and what follows reaches its writer while the program still runs
// (the program waits until the writer has seen "b").
func TestCaptureLive(t *testing.T) {
	seen := t.TempDir() + "/seen"
	var out, errw bytes.Buffer
	var held string
	live := &signalWriter{mark: "b\n", file: seen}
	script := `echo a; sleep 0.3; echo b; i=0; while [ ! -f "$1" ]; do sleep 0.02; i=$((i+1)); [ $i -gt 250 ] && { echo "not live"; exit 1; }; done; echo c >&2; exit 4`
	o, res, err := Capture([]string{"sh", "-c", script, "sh", seen}, Options{
		Limit: 1 << 20, Stdout: &out, Stderr: &errw,
		LiveAfter: 100 * time.Millisecond,
		GoLive: func(h Output) (io.Writer, io.Writer) {
			held = string(h.Combined)
			return live, live
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if held != "a\n" || live.b.String() != "b\nc\n" || res.Exit != 4 {
		t.Fatalf("held %q, live %q, exit %d", held, live.b.String(), res.Exit)
	}
	if !o.Live || o.Cut || string(o.Combined) != "a\nb\nc\n" || string(o.Stdout) != "a\nb\n" || string(o.Stderr) != "c\n" {
		t.Fatalf("output %+v", o)
	}
	if out.Len()+errw.Len() != 0 {
		t.Fatalf("written past the limit: %q %q", out.String(), errw.String())
	}
}

// A program that ends before LiveAfter never goes live.
func TestCaptureNotLive(t *testing.T) {
	called := false
	o, _, err := Capture([]string{"sh", "-c", "echo a"}, Options{
		Limit: 1 << 20, Stdout: io.Discard, Stderr: io.Discard, LiveAfter: time.Second,
		GoLive: func(Output) (io.Writer, io.Writer) { called = true; return io.Discard, io.Discard },
	})
	if err != nil || called || o.Live || string(o.Stdout) != "a\n" {
		t.Fatalf("%v: live %v %v, %q", err, called, o.Live, o.Stdout)
	}
}

// signalWriter keeps what it gets and creates file once mark arrived.
type signalWriter struct {
	b          bytes.Buffer
	mark, file string
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.b.Write(p)
	if strings.Contains(w.b.String(), w.mark) {
		os.WriteFile(w.file, nil, 0o600)
	}
	return len(p), nil
}

// Stop closes the pipes it names: the program meets a closed pipe on its
// next write there (dies of SIGPIPE, as under head) and what it wrote
// after is never read; a stream Stop does not name is read to its end.
func TestCaptureStop(t *testing.T) {
	dir := t.TempDir()
	// stderr's line comes first, then stdout's: Stop closes stdout once
	// both were read; the script then writes there again.
	script := `echo err >&2; sleep 0.1; echo one; sleep 0.1; echo two >&2; echo three; touch ` + dir + `/after`
	var seen atomic.Int32
	o, res, err := Capture([]string{"sh", "-c", script}, Options{Limit: 1 << 20, Stop: func() (bool, bool) {
		return seen.Add(1) >= 2, false
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Stopped || string(o.Stdout) != "one\n" {
		t.Fatalf("stopped %v, stdout %q", o.Stopped, o.Stdout)
	}
	if string(o.Stderr) != "err\ntwo\n" {
		t.Fatalf("stderr %q: read to its end", o.Stderr)
	}
	if res.Exit != 128+13 {
		t.Fatalf("exit %d, want 141 (SIGPIPE)", res.Exit)
	}
	if _, err := os.Stat(dir + "/after"); err == nil {
		t.Fatal("the program ran past its closed pipe")
	}
	// Never asked to stop: read to the end.
	o, res, err = Capture([]string{"sh", "-c", "echo a; echo b >&2"}, Options{Limit: 1 << 20, Stop: func() (bool, bool) { return false, false }})
	if err != nil || o.Stopped || string(o.Stdout) != "a\n" || string(o.Stderr) != "b\n" || res.Exit != 0 {
		t.Fatalf("%v %+v exit %d", err, o, res.Exit)
	}
}
