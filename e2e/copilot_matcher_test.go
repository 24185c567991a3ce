package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/e2e/fakemodel"
)

// TestCopilotMatcherScopesShell — Copilot CLI denies a
// tool call whose preToolUse hook errors, so gotk's entry, which had no
// matcher, let a missing or crashing gotk-hook-copilot block every tool.
// gotk-install now writes "matcher": "bash|powershell". With the hook
// binary replaced by one that crashes, the real Copilot CLI denies the
// shell call (the hook ran for it) and runs a glob (it did not).
func TestCopilotMatcherScopesShell(t *testing.T) {
	RequireEnabled(t)
	var a *Agent
	for _, x := range SelectedAgents() {
		if x.Name == "copilot" {
			a = x
		}
	}
	if a == nil {
		t.Skip("copilot is not selected")
	}
	bin := RequireGotk(t, a)
	script := fakemodel.Script{Calls: []fakemodel.Call{
		{Tool: "glob", Args: map[string]any{"pattern": "*.go"}},
		{Command: "git status"},
	}}
	e := NewEnv(t, a, script)
	dir := e.CopyGotk(bin, filepath.Join(e.Home, "gotk-bin"))
	e.InstallGotk(dir)
	hooks, err := os.ReadFile(filepath.Join(e.Home, ".copilot", "hooks", "gotk.json"))
	if err != nil || !strings.Contains(string(hooks), `"matcher": "bash|powershell"`) {
		t.Fatalf("gotk's Copilot entry has no shell matcher (%v):\n%s", err, hooks)
	}
	e.WriteFile(filepath.Join(dir, "gotk-hook-copilot"), crashScripts[0].script)
	os.Chmod(filepath.Join(dir, "gotk-hook-copilot"), 0o755)
	res := e.Run()
	res.Require(t, a.Name, 2)
	glob, shell := res.ToolResult(0), res.ToolResult(1)
	t.Logf("glob: %q", glob)
	t.Logf("bash: %q", shell)
	if o := Classify(a.Name, glob); o == Blocked || !strings.Contains(glob, "main.go") {
		t.Errorf("copilot: the glob call was not run (%s): the hook ran for a tool its matcher excludes:\n%s", o, glob)
	}
	if o := Classify(a.Name, shell); o != Blocked {
		t.Errorf("copilot: the shell call with a crashing hook was %s, want %s: the hook did not run for bash", o, Blocked)
	}
}
