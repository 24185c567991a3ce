package proc

import (
	"bytes"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestSpawnPaths: a program with file stdio is forked directly, one with
// another writer through os/exec; both give the same exit codes, and a
// signal reaches the program and is read back as what ended it.
func TestSpawnPaths(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for _, files := range []bool{true, false} {
		mk := func(script string) *exec.Cmd {
			cmd := exec.Command("sh", "-c", script)
			if files {
				cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
			} else {
				cmd.Stdin, cmd.Stdout, cmd.Stderr = null, &bytes.Buffer{}, null
			}
			return cmd
		}
		p, err := spawn(mk("exit 3"))
		if err != nil {
			t.Fatal(err)
		}
		if _, raw := p.(*rawProcess); raw != files {
			t.Fatalf("files %v: spawned %T", files, p)
		}
		if code, died, err := p.wait(); code != 3 || died != nil || err != nil {
			t.Fatalf("files %v: exit %d, %v; want 3", files, code, err)
		}
		p, err = spawn(mk("exec sleep 30"))
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
		t0 := time.Now()
		p.signal(syscall.SIGTERM)
		if code, died, err := p.wait(); code != 128+int(syscall.SIGTERM) || died != syscall.SIGTERM || err != nil || time.Since(t0) > 10*time.Second {
			t.Fatalf("files %v: exit %d (%v), %v after SIGTERM", files, code, died, err)
		}
		p.signal(syscall.SIGTERM) // after the exit: nothing to signal, no panic
	}
}

// TestSpawnExecError: an exec failure reads as os/exec words it
// (fork/exec PATH: reason), so StartError is the same on both paths.
func TestSpawnExecError(t *testing.T) {
	f := t.TempDir() + "/not-a-program"
	os.WriteFile(f, []byte{0x7f, 'E', 'L', 'F', 0, 0, 0, 0}, 0o755)
	null, _ := os.Open(os.DevNull)
	defer null.Close()
	for _, files := range []bool{true, false} {
		cmd := exec.Command(f)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
		if !files {
			cmd.Stdout = &bytes.Buffer{}
		}
		_, err := spawn(cmd)
		if err == nil || err.Error() != "fork/exec "+f+": exec format error" {
			t.Fatalf("files %v: %v", files, err)
		}
	}
}

// TestSpawnTextBusy: a script still open for writing (ETXTBSY) is started
// once the writer lets go, on the direct path as through os/exec.
func TestSpawnTextBusy(t *testing.T) {
	null, _ := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	defer null.Close()
	for _, files := range []bool{true, false} {
		path := t.TempDir() + "/busy.sh"
		w, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		w.WriteString("#!/bin/sh\nexit 7\n")
		go func() { time.Sleep(30 * time.Millisecond); w.Close() }()
		cmd := exec.Command(path)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
		if !files {
			cmd.Stdout = &bytes.Buffer{}
		}
		p, err := spawn(cmd)
		if err != nil {
			t.Fatalf("files %v: %v", files, err)
		}
		if code, _, err := p.wait(); code != 7 || err != nil {
			t.Fatalf("files %v: exit %d, %v; want 7", files, code, err)
		}
	}
}
