package shell

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Where each command's output and errors lead, as bash applies the
// redirects: those around it first, then the pipe, then its own, left to
// right.
func TestStreams(t *testing.T) {
	for line, want := range map[string][2]string{
		"go test":                         {SinkStdout, SinkStderr},
		"go test 2>&1":                    {SinkStdout, SinkStdout},
		"go test >/dev/null":              {SinkNull, SinkStderr},
		"go test >/dev/null 2>&1":         {SinkNull, SinkNull},
		"go test 2>&1 >/dev/null":         {SinkNull, SinkStdout},
		"go test &>/dev/null":             {SinkNull, SinkNull},
		"go test 2>/dev/null":             {SinkStdout, SinkNull},
		"go test >&2":                     {SinkStderr, SinkStderr},
		"go test 1>&-":                    {SinkClosed, SinkStderr},
		"go test 2>&1 | tail":             {SinkPipe, SinkPipe},
		"go test |& tail":                 {SinkPipe, SinkPipe},
		"go test >&2 |& tail":             {SinkStderr, SinkStderr},
		"go test 2>&- 3>&2":               {unknownFD, unknownFD},
		"go test | tail":                  {SinkPipe, SinkStderr},
		"go test 2>&1 >/dev/null | tail":  {SinkNull, SinkPipe},
		"go test 3>&1 1>&2 2>&3 | tail":   {SinkStderr, SinkPipe},
		"go test 1>&2 | tail -3":          {SinkStderr, SinkStderr},
		"go test 2>&3":                    {SinkStdout, "fd3"},
		"{ go test; } >/dev/null":         {SinkNull, SinkStderr},
		"{ go test 2>&1; } >/dev/null":    {SinkNull, SinkNull},
		"( go test ) 2>&1":                {SinkStdout, SinkStdout},
		"go test 1</dev/null":             {unknownFD, SinkStderr},
		"go test {fd}>/dev/null":          {SinkStdout, SinkStderr},
		"time go test 2>/dev/null":        {SinkStdout, SinkNull},
		"cd x && go test 2>&1 >/dev/null": {SinkStdout, SinkStderr}, // cd
		"go test | tail -3 |& cat":        {SinkPipe, SinkStderr},
	} {
		s, err := Parse(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		c := s.Commands[0]
		if got := [2]string{c.Out, c.Err}; got != want {
			t.Errorf("%q: output to %s, errors to %s; want %s, %s", line, got[0], got[1], want[0], want[1])
		}
	}
	s, _ := Parse("cd x && go test 2>&1 >/dev/null | tail")
	if c := s.Commands[1]; c.Out != SinkNull || c.Err != SinkPipe {
		t.Errorf("second command: output to %s, errors to %s", c.Out, c.Err)
	}
}

// TestStreamsAsBashRuns: random redirects, around a command, on it and
// across a pipe, run by bash: where a line written to each stream
// arrives is where Out and Err say it leads.
func TestStreamsAsBashRuns(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	prog := filepath.Join(dir, "p")
	os.WriteFile(prog, []byte("#!/bin/sh\necho OUT-MARK\necho ERR-MARK >&2\n"), 0o755)
	redirs := []string{">/dev/null", "2>/dev/null", "2>&1", ">&2", "1>&2", "&>/dev/null", "3>&1", "1>&3", "2>&3", "3>&2", ">&-", "2>&-", "1<>/dev/null", "2>>/dev/null"}
	shapes := []string{"p R", "p R | cat", "p R |& cat", "{ p R; } S", "( p R ) S", "{ p R | cat; } S"}
	rng := rand.New(rand.NewSource(11))
	for iter := 0; iter < 400; iter++ {
		pick := func() string {
			var rs []string
			for range rng.Intn(4) {
				rs = append(rs, redirs[rng.Intn(len(redirs))])
			}
			return strings.Join(rs, " ")
		}
		line := strings.NewReplacer("R", pick(), "S", pick()).Replace(shapes[rng.Intn(len(shapes))])
		s, err := Parse(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		c := s.Commands[0]
		// the harness: what the pipe's reader gets, the line's stdout and
		// stderr, and descriptor 3, each in its own file
		line = strings.Replace(line, "| cat", "| cat >pipe.txt", 1)
		line = strings.Replace(line, "|& cat", "|& cat >pipe.txt", 1)
		cmd := exec.Command(bash, "-c", "exec 3>fd3.txt; "+line)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
		for _, f := range []string{"out.txt", "err.txt", "pipe.txt", "fd3.txt"} {
			os.Remove(filepath.Join(dir, f))
		}
		o, _ := os.Create(filepath.Join(dir, "out.txt"))
		e, _ := os.Create(filepath.Join(dir, "err.txt"))
		cmd.Stdout, cmd.Stderr = o, e
		cmd.Run()
		o.Close()
		e.Close()
		where := func(mark string) string {
			found := []string{}
			for f, sink := range map[string]string{"out.txt": SinkStdout, "err.txt": SinkStderr, "pipe.txt": SinkPipe, "fd3.txt": "fd3"} {
				b, _ := os.ReadFile(filepath.Join(dir, f))
				if strings.Contains(string(b), mark) {
					found = append(found, sink)
				}
			}
			if len(found) == 1 {
				return found[0]
			}
			return fmt.Sprint(found)
		}
		for _, k := range []struct{ mark, model string }{{"OUT-MARK", c.Out}, {"ERR-MARK", c.Err}} {
			got := where(k.mark)
			want := k.model
			if Discarded(want) {
				want = "[]"
			}
			if want == unknownFD {
				continue // the model does not follow it
			}
			if got != want {
				t.Errorf("%q: %s arrived at %s; the model says %s", line, k.mark, got, k.model)
			}
		}
	}
}

// exec without a program keeps its redirects for the rest of the shell:
// every later command's output leads elsewhere, so nothing on the line
// is rewritten. exec with a program is that program with its redirects.
func TestBareExecRedirects(t *testing.T) {
	for line, unsafe := range map[string]bool{
		"exec >/dev/null; go test ./...":     true,
		"exec 2>&1; go test ./... | tail -3": true,
		"command exec 1>&2; go test":         true,
		"exec -- 3>&1; go test":              true,
		"exec $X >/dev/null; go test":        true,
		"exec </dev/null; go test":           true,
		"exec go test ./... 2>&1 | tail -3":  false,
		"exec; go test":                      false,
		"echo exec >/dev/null; go test":      false,
		"exec env FOO=1 go test >/dev/null":  false,
	} {
		s, err := Parse(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if got := len(s.Unsafe) > 0; got != unsafe {
			t.Errorf("%q: unsafe %v (%q), want %v", line, got, s.Unsafe, unsafe)
		}
	}
}
