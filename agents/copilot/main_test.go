package copilot

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) { hookiotest.Main(m, "gotk-hook-copilot", Main) }

// TestScripts runs testdata/*.txtar against the real binary.
// A scenario runs the hook as Copilot CLI does, as a child of a process
// named copilot whose flags say what the session allows:
// `exec copilot --allow-all-tools` (core/host reads them).
func TestScripts(t *testing.T) {
	// Written once, before any scenario forks: a script written while
	// another goroutine forks can fail to exec ("text file busy").
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "copilot"), []byte(fakeCopilot), 0o755); err != nil {
		t.Fatal(err)
	}
	hookiotest.ScriptsWith(t, func(e *testscript.Env) error {
		e.Setenv("PATH", dir+string(os.PathListSeparator)+e.Getenv("PATH"))
		return nil
	})
}

// fakeCopilot runs the hook as its child (not exec: the hook must find it
// among its ancestors).
const fakeCopilot = "#!/bin/sh\ngotk-hook-copilot\nstatus=$?\nexit $status\n"

// FuzzHandle: any stdin → no panic, and stdout empty or a valid answer.
func FuzzHandle(f *testing.F) { hookiotest.Fuzz(f, agent, seeds, checkAnswer) }

// BenchmarkHook times the built binary on a typical payload against the
// `{}` floor (make bench).
func BenchmarkHook(b *testing.B) {
	hookiotest.Bench(b, "./cmd/gotk-hook-copilot", []byte(seeds[0]))
}

// TestStories runs the stories every hook shares (hookiotest/stories) on
// this hook, in VS Code's dialect (outside a Copilot CLI session, the CLI
// dialect has no answer to check), and generated bash through it.
func TestStories(t *testing.T) {
	hookiotest.Stories(t, agent, `{"tool_name":"run_in_terminal","tool_input":{"command":"git status","explanation":"e"}}`, checkAnswer)
}
