package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/e2e/fakemodel"
)

// `gotk discover` reads the transcripts each agent really
// writes. Each agent runs the same commands twice — without gotk, then with
// gotk installed by the real installer — and the real `gotk discover
// --json` over the run's HOME must find: without gotk, the four commands
// gotk rewrites as missed, a piped `git status | wc -l` as declined (its output is parsed), seq and
// echo as unhandled; with gotk, those four as through gotk and nothing
// missed. Its session view must read the usage the agent recorded of each
// request and, with gotk, credit the four rewritten calls (checkSessions).
//
// GOTK_E2E_DISCOVER_FIXTURES=DIR also saves each run's transcripts (paths
// scrubbed) and gotk's run log under DIR/<agent>/{raw,gotk}/ with the
// runner's fixture tool: that is how runner/discover/testdata was made.

var discoverScript = []string{"git status", "git log -n 2", "git diff", "ls -la", "git status | wc -l", "seq 1 300", "echo hi"}

// discoverRewritten are the script's commands gotk's hooks rewrite.
var discoverRewritten = []string{"git status", "git log", "git diff", "ls"}

// discoverJSON is the part of the --json contract the test reads.
type discoverJSON struct {
	Missed []struct {
		Command, Rule, Estimate string
		Count                   int
		OutputTokens            int64 `json:"output_tokens"`
		EstSavedTokens          int64 `json:"est_saved_tokens"`
	} `json:"missed"`
	Declined []struct {
		Command, Rule, Reason string
		Count                 int
	} `json:"declined"`
	Through struct {
		Count       int   `json:"count"`
		ShownTokens int64 `json:"shown_tokens"`
	} `json:"through_gotk"`
	Unhandled []struct {
		Command      string `json:"command"`
		Count        int    `json:"count"`
		OutputTokens int64  `json:"output_tokens"`
	} `json:"unhandled"`
	Scanned struct {
		Files, Records, Skipped int
	} `json:"scanned"`
	Sessions struct {
		Count int `json:"count"`
		Usage struct {
			Requests   int   `json:"requests"`
			Input      int64 `json:"input"`
			CacheWrite int64 `json:"cache_write"`
			CacheRead  int64 `json:"cache_read"`
			Output     int64 `json:"output"`
		} `json:"usage"`
		ShellTokens   int64   `json:"shell_output_tokens"`
		ShellReads    int64   `json:"shell_output_reads"`
		Joined        int     `json:"joined"`
		RemovedTokens int64   `json:"removed_tokens"`
		ReadsAvoided  int64   `json:"reads_avoided"`
		RemovedPct    float64 `json:"removed_pct"`
		NoUsageCount  int     `json:"no_usage_count"`
		List          []struct {
			Agent   string `json:"agent"`
			Session string `json:"session"`
		} `json:"list"`
	} `json:"sessions"`
}

// discoverReads are the agents whose transcripts gotk discover reads.
var discoverReads = map[string]bool{"claude": true, "codex": true, "gemini": true, "copilot": true, "opencode": true, "pi": true, "auggie": true, "openclaw": true}

func TestDiscover(t *testing.T) {
	RequireEnabled(t)
	fixtures := os.Getenv("GOTK_E2E_DISCOVER_FIXTURES")
	for _, a := range SelectedAgents() {
		t.Run(a.Name, func(t *testing.T) {
			if !discoverReads[a.Name] {
				t.Skipf("gotk discover does not read %s's transcripts yet", a.Name)
			}
			bin := RequireGotk(t, a)
			for _, withGotk := range []bool{false, true} {
				e := NewEnv(t, a, fakemodel.Script{Commands: discoverScript})
				a.KeepSessions(e)
				kind := "raw"
				if withGotk {
					e.InstallGotk(bin)
					kind = "gotk"
				}
				res := e.Run()
				res.Require(t, a.Name, len(discoverScript))
				out := e.gotk(bin, "discover", "--json", "--since", "all", "--limit", "0")
				t.Logf("%s (%s): gotk discover --json:\n%s", a.Name, kind, out)
				var rep discoverJSON
				if err := json.Unmarshal([]byte(out), &rep); err != nil {
					t.Fatalf("%s: gotk discover --json: %v", a.Name, err)
				}
				checkDiscover(t, a.Name+" "+kind, rep, withGotk)
				checkSessions(t, a.Name, kind, rep, withGotk)
				if fixtures != "" {
					e.saveFixture(bin, filepath.Join(fixtures, a.Name, kind))
				}
			}
		})
	}
}

func checkDiscover(t *testing.T, run string, rep discoverJSON, withGotk bool) {
	t.Helper()
	if rep.Scanned.Files == 0 || rep.Scanned.Records == 0 {
		t.Errorf("%s: discover read no transcript: %+v", run, rep.Scanned)
	}
	missed := map[string]int{}
	for _, m := range rep.Missed {
		missed[m.Command] += m.Count
	}
	for _, c := range discoverRewritten {
		switch {
		case withGotk && missed[c] != 0:
			t.Errorf("%s: %q went through gotk, but discover counts it as missed", run, c)
		case !withGotk && missed[c] != 1:
			t.Errorf("%s: %q ran raw once; discover counts %d missed", run, c, missed[c])
		}
	}
	want := 0
	if withGotk {
		want = len(discoverRewritten)
	}
	if rep.Through.Count != want {
		t.Errorf("%s: through gotk: %d calls, want %d", run, rep.Through.Count, want)
	}
	piped := false
	for _, d := range rep.Declined {
		piped = piped || d.Command == "git status" && d.Rule == "git.status" && d.Reason != "" && d.Count == 1
	}
	if !piped {
		t.Errorf("%s: `git status | wc -l` is not declined once, with a reason: %+v", run, rep.Declined)
	}
	unhandled := map[string]int{}
	for _, u := range rep.Unhandled {
		unhandled[u.Command] = u.Count
	}
	if unhandled["seq"] != 1 || unhandled["echo"] != 1 {
		t.Errorf("%s: unhandled = %+v, want seq and echo once each", run, rep.Unhandled)
	}
}

// checkSessions: the session view of one run read the usage the agent
// recorded from the fake model (every request: 3 uncached tokens, the last
// tool result as new, the rest cached, 20 output tokens; each agent
// records them in its own fields), names the run's one session, and
// credits gotk with the four commands it ran, and only with those.
func checkSessions(t *testing.T, agent, kind string, rep discoverJSON, withGotk bool) {
	t.Helper()
	run := agent + " " + kind
	s := rep.Sessions
	u := s.Usage
	read := u.Input + u.CacheWrite + u.CacheRead
	if s.Count != 1 || s.NoUsageCount != 0 || u.Requests < len(discoverScript)+1 || u.Output < int64(20*u.Requests) || read == 0 || u.CacheRead == 0 {
		t.Errorf("%s: sessions %+v: want one session of at least %d requests, their usage recorded", run, s, len(discoverScript)+1)
	}
	if len(s.List) != 1 || s.List[0].Agent != agent || s.List[0].Session == "" {
		t.Errorf("%s: sessions list %+v: want the run's one session, named", run, s.List)
	}
	if s.ShellTokens == 0 || s.ShellReads < s.ShellTokens || s.ShellReads > read {
		t.Errorf("%s: shell output %d tokens read %d times over; the requests read %d in all", run, s.ShellTokens, s.ShellReads, read)
	}
	switch {
	case !withGotk && (s.Joined != 0 || s.RemovedTokens != 0 || s.ReadsAvoided != 0):
		t.Errorf("%s: nothing ran through gotk, yet it is credited: %+v", run, s)
	case withGotk && (s.Joined != len(discoverRewritten) || s.RemovedTokens <= 0 || s.ReadsAvoided < s.RemovedTokens || s.RemovedPct <= 0 || s.RemovedPct >= 100):
		t.Errorf("%s: %d calls joined to gotk's runs (want %d), %d tokens removed, %d reads avoided (%.1f%%)", run,
			s.Joined, len(discoverRewritten), s.RemovedTokens, s.ReadsAvoided, s.RemovedPct)
	}
}

// gotk runs gotk's own binary from bin with the run's environment, in the
// project, and returns its stdout; a failure ends the test.
func (e *Env) gotk(bin string, args ...string) string {
	e.T.Helper()
	cmd := exec.Command(filepath.Join(bin, "gotk"), args...)
	cmd.Dir = e.Project
	cmd.Env = e.environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		e.T.Fatalf("gotk %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// saveFixture copies the run's transcripts and gotk's run log, paths
// scrubbed, into dir with the runner's fixture tool
// (runner/discover/internal/fixture).
func (e *Env) saveFixture(bin, dir string) {
	e.T.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		e.T.Fatal(err)
	}
	cmd := exec.Command("go", "run", "./discover/internal/fixture", "-agent", e.Agent.Name,
		"-root", filepath.Dir(e.Project), "-bin", bin, "-out", abs)
	cmd.Dir = filepath.Join(filepath.Dir(moduleDir()), "runner")
	if out, err := cmd.CombinedOutput(); err != nil {
		e.T.Fatalf("fixture tool: %v\n%s", err, out)
	} else {
		e.T.Logf("saved the transcripts in %s:\n%s", abs, out)
	}
}

// TestDiscoverRefused: a call the agent refused to run is not counted as
// missed (it never ran), and a Copilot CLI session that asked for a
// permission was not started with --allow-all-tools, so gotk's hook would
// not have rewritten its git status there: declined, with that reason.
// Claude in -p refuses `touch x` (it needs approval); Copilot with only
// --allow-tool 'shell(git:*)' denies `touch x` and runs git status.
func TestDiscoverRefused(t *testing.T) {
	RequireEnabled(t)
	fixtures := os.Getenv("GOTK_E2E_DISCOVER_FIXTURES")
	for _, a := range SelectedAgents() {
		if a.Name != "claude" && a.Name != "copilot" {
			continue
		}
		t.Run(a.Name, func(t *testing.T) {
			bin := RequireGotk(t, a)
			e := NewEnv(t, a, fakemodel.Script{Commands: []string{"touch x", "git status"}})
			if a.Name == "copilot" {
				e.Args = slices.DeleteFunc(e.Args, func(s string) bool { return s == "--allow-all-tools" })
				e.Args = append(e.Args, "--allow-tool", "shell(git:*)")
			}
			res := e.Run()
			res.Require(t, a.Name, 2)
			if _, err := os.Stat(filepath.Join(e.Project, "x")); err == nil {
				t.Fatalf("%s ran touch x; the test needs it refused", a.Name)
			}
			out := e.gotk(bin, "discover", "--json", "--since", "all")
			t.Logf("gotk discover --json:\n%s", out)
			var rep struct {
				discoverJSON
				Agents map[string]struct {
					Calls  int `json:"calls"`
					NotRun int `json:"not_run"`
				} `json:"agents"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			if got := rep.Agents[a.Name]; got.NotRun != 1 || got.Calls != 1 {
				t.Errorf("%s: %d calls ran, %d refused; want 1 and 1", a.Name, got.Calls, got.NotRun)
			}
			switch a.Name {
			case "claude":
				if len(rep.Missed) != 1 || rep.Missed[0].Command != "git status" {
					t.Errorf("claude: missed %+v, want git status alone", rep.Missed)
				}
			case "copilot":
				if len(rep.Missed) != 0 || len(rep.Declined) != 1 || !strings.Contains(rep.Declined[0].Reason, "--allow-all-tools") {
					t.Errorf("copilot: missed %+v, declined %+v; want git status declined for the session's flags", rep.Missed, rep.Declined)
				}
			}
			if fixtures != "" {
				e.saveFixture(bin, filepath.Join(fixtures, a.Name, "refused"))
			}
		})
	}
}
