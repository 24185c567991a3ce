package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestProcSession walks a fake /proc: hook ← sh ← node copilot ….
func TestProcSession(t *testing.T) {
	proc := t.TempDir()
	mk := func(pid, ppid int, argv ...string) {
		dir := filepath.Join(proc, strconv.Itoa(pid))
		os.MkdirAll(dir, 0o755)
		cmdline := ""
		for _, a := range argv {
			cmdline += a + "\x00"
		}
		os.WriteFile(filepath.Join(dir, "cmdline"), []byte(cmdline), 0o644)
		os.WriteFile(filepath.Join(dir, "stat"), []byte(strconv.Itoa(pid)+" (odd (name)) S "+strconv.Itoa(ppid)+" 1 1"), 0o644)
	}
	mk(40, 30, "/bin/sh", "-c", "gotk-hook-copilot")
	mk(30, 20, "node", "/usr/lib/node_modules/@github/copilot/index.js", "-p", "x", "--allow-all-tools")
	mk(20, 1, "bash")
	if s := procSession(proc, 40); !s.runsEverything() {
		t.Errorf("allow-all session: %+v", s)
	}
	mk(30, 20, "node", "/usr/bin/copilot", "--allow-all-tools", "--deny-tool", "shell(rm)")
	if s := procSession(proc, 40); !s.found || s.runsEverything() {
		t.Errorf("deny-tool session: %+v", s)
	}
	mk(30, 20, "node", "/srv/app.js")
	if s := procSession(proc, 40); s.found {
		t.Errorf("no copilot ancestor: %+v", s)
	}
	if s := procSession(filepath.Join(proc, "none"), 40); s.found {
		t.Errorf("no /proc: %+v", s)
	}
}
