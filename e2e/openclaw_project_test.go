package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/e2e/fakemodel"
)

// TestOpenClawProject: `gotk-install --agent openclaw --project` puts the
// plugin in the project's .openclaw/extensions, a workspace plugin, and
// nothing in ~/.openclaw/extensions. OpenClaw's run (whose agent
// workspace is the project, and whose config enables gotk, as the
// agent's setup writes them) loads it: `git status` comes back compact.
// Then, in a fresh run, the workspace is elsewhere and the run's task
// directory (agents.defaults.cwd) the project: OpenClaw does not find the
// plugin, so `git status` runs raw — it scans the agent's workspace, not
// the directory commands run in. Opt-in with the agent
// (GOTK_E2E_AGENTS=openclaw): each run takes minutes on a busy machine.
func TestOpenClawProject(t *testing.T) {
	RequireEnabled(t)
	if !slices.Contains(SelectedAgents(), openClawAgent) {
		t.Skip("openclaw is not selected (GOTK_E2E_AGENTS=openclaw)")
	}
	a := openClawAgent
	bin := RequireGotk(t, a)
	script := fakemodel.Script{Commands: []string{"git status"}}

	e := NewEnv(t, a, script)
	installProject(t, e, bin)
	if out, code := e.Verify(bin); code != 0 || !strings.Contains(out, "PASS  openclaw (project)") {
		t.Errorf("gotk verify (exit %d) does not pass the project install:\n%s", code, out)
	}
	res := e.Run()
	res.Require(t, a.Name, 1)
	got := res.ToolResult(0)
	t.Logf("tool result: %q", got)
	requireCompactStatus(t, a.Name, got)

	// A fresh run (a new HOME: no session to resume) where the project is
	// only the task directory and the workspace is elsewhere.
	e = NewEnv(t, a, script)
	installProject(t, e, bin)
	elsewhere := filepath.Join(e.Home, "elsewhere")
	if err := os.MkdirAll(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	e.editJSON(filepath.Join(e.Home, ".openclaw", "openclaw.json"), func(m map[string]any) {
		d := m["agents"].(map[string]any)["defaults"].(map[string]any)
		d["workspace"], d["cwd"] = elsewhere, e.Project
	})
	if out, code := e.Verify(bin); code == 0 || !strings.Contains(out, "is not OpenClaw's agent workspace") {
		t.Errorf("gotk verify (exit %d) does not say the project is not the workspace:\n%s", code, out)
	}
	res = e.Run()
	res.Require(t, a.Name, 1)
	got = res.ToolResult(0)
	t.Logf("tool result outside the workspace: %q", got)
	requireRawStatus(t, a.Name, got)
}

// installProject runs `gotk-install --agent openclaw --project` in e's
// project and checks where the plugin went.
func installProject(t *testing.T, e *Env, bin string) {
	t.Helper()
	e.ExtraPath = append([]string{bin}, e.ExtraPath...)
	e.runInstaller(filepath.Join(bin, "gotk-install"), []string{"--agent", "openclaw", "--project", "--bin-dir", bin})
	if _, err := os.Stat(filepath.Join(e.Project, ".openclaw", "extensions", "gotk", "index.ts")); err != nil {
		t.Fatalf("gotk-install --project wrote no plugin in the project: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.Home, ".openclaw", "extensions", "gotk")); err == nil {
		t.Fatal("gotk-install --project wrote a global plugin too")
	}
}
