package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/e2e/fakemodel"
)

// Phase 2: gotk's real binaries (make build → bin/), installed into each
// agent by the real installer. Skipped until they are built.

// gitStatusHints are lines only git's long, human-oriented status prints.
var gitStatusHints = []string{`(use "git add <file>..."`, `(use "git restore <file>..."`}

// TestGotkGitStatus: with gotk installed, the agent's `git status` runs
// through gotk and the model gets the compact form, still naming every
// changed file.
func TestGotkGitStatus(t *testing.T) {
	RequireEnabled(t)
	for _, a := range ContractAgents() {
		t.Run(a.Name, func(t *testing.T) {
			bin := RequireGotk(t, a)
			e := NewEnv(t, a, fakemodel.Script{Commands: []string{"git status"}})
			e.InstallGotk(bin)
			res := e.Run()
			res.Require(t, a.Name, 1)
			got := res.ToolResult(0)
			t.Logf("tool result: %q", got)
			for _, h := range gitStatusHints {
				if strings.Contains(got, h) {
					t.Errorf("%s: tool result is git's raw status (has %q), not gotk's compact form", a.Name, h)
				}
			}
			for _, f := range []string{"main.go", "untracked.txt"} {
				if !strings.Contains(got, f) {
					t.Errorf("%s: compact status lost %s", a.Name, f)
				}
			}
			if strings.Contains(got, "command not found") {
				t.Errorf("%s: the rewritten command could not find gotk (on the PATH the agent's shell uses)", a.Name)
			}
		})
	}
}

// TestGotkPassthrough: commands gotk has nothing to save on, and output
// redirected to a file, are exactly what they would be without gotk.
func TestGotkPassthrough(t *testing.T) {
	RequireEnabled(t)
	script := fakemodel.Script{Commands: []string{"echo hi", "git log > out.txt"}}
	for _, a := range ContractAgents() {
		t.Run(a.Name, func(t *testing.T) {
			bin := RequireGotk(t, a)

			raw := NewEnv(t, a, script)
			a.AllowWrites(raw)
			rawRes := raw.Run()
			rawRes.Require(t, a.Name+" (without gotk)", len(script.Commands))

			e := NewEnv(t, a, script)
			a.AllowWrites(e)
			e.InstallGotk(bin)
			res := e.Run()
			res.Require(t, a.Name, len(script.Commands))

			for i, cmd := range script.Commands {
				want, got := Normalize(rawRes.ToolResult(i)), Normalize(res.ToolResult(i))
				if got != want {
					t.Errorf("%s: %q with gotk gave\n%q\nwithout gotk\n%q", a.Name, cmd, got, want)
				}
			}
			out, err := os.ReadFile(filepath.Join(e.Project, "out.txt"))
			if err != nil {
				t.Fatalf("%s: `git log > out.txt` left no out.txt: %v", a.Name, err)
			}
			gitLog := exec.Command("git", "log")
			gitLog.Dir = e.Project
			gitLog.Env = e.environ()
			want, err := gitLog.Output()
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != string(want) {
				t.Errorf("%s: out.txt is not git log's raw output:\n%s\nwant:\n%s", a.Name, out, want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"Chunk ID: 2b71fb\nWall time: 0.0012 seconds\nProcess exited with code 0\nOutput:\nhi\n": "Chunk ID: X\nWall time: X\nProcess exited with code 0\nOutput:\nhi\n",
		"<untrusted_context>\nOutput: hi\nProcess Group PGID: 17853\n</untrusted_context>":       "<untrusted_context>\nOutput: hi\nProcess Group PGID: X\n</untrusted_context>",
		"hi\n<shellId: 0 completed with exit code 0>":                                            "hi\n<shellId: 0 completed with exit code 0>",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGotkWindow: a command the agent bounds itself (`git log | head -6`)
// goes through gotk with its window: the model gets gotk's compact form
// (commit headers folded), the commit the raw window showed still there.
// (The window's line bound is the runner's, tested in its scenarios.)
func TestGotkWindow(t *testing.T) {
	RequireEnabled(t)
	for _, a := range ContractAgents() {
		t.Run(a.Name, func(t *testing.T) {
			bin := RequireGotk(t, a)
			e := NewEnv(t, a, fakemodel.Script{Commands: []string{"git log 2>&1 | head -6"}})
			e.InstallGotk(bin)
			res := e.Run()
			res.Require(t, a.Name, 1)
			got := res.ToolResult(0)
			t.Logf("tool result: %q", got)
			if strings.Contains(got, "Author:") || !strings.Contains(got, "second commit") {
				t.Errorf("%s: not gotk's compact log with the window's commit: %q", a.Name, got)
			}
		})
	}
}
