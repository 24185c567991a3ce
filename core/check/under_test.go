package check

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRunUnderAgent: a probed hook's parent is a process named after its
// agent, as when the agent starts it (a Claude or Droid hook that finds no
// such ancestor never allows, and verify then reported a working hook as
// failing).
func TestRunUnderAgent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	hook := filepath.Join(t.TempDir(), "hook")
	// The hook prints its parent's argv[0].
	os.WriteFile(hook, []byte("#!/bin/sh\ntr '\\0' '\\n' < /proc/$PPID/cmdline | head -1\n"), 0o755)
	out, _, err := runUnder("claude", t.TempDir(), hook, nil, []string{"PATH=" + os.Getenv("PATH")})
	if err != nil || strings.TrimSpace(string(out)) != "claude" {
		t.Fatalf("parent of the probed hook: %q (%v), want claude", out, err)
	}
	out, _, _ = runUnder("", t.TempDir(), hook, nil, []string{"PATH=" + os.Getenv("PATH")})
	if strings.TrimSpace(string(out)) == "claude" {
		t.Fatalf("a probe with no agent ran under one")
	}
}
