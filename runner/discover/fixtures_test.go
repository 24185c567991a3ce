package discover

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/runner/store"
)

var update = flag.Bool("update", false, "rewrite the fixtures' expected reports (report.json, report.txt)")

// The fixtures in testdata/<agent>/{raw,gotk}/ are what the real agent CLIs
// wrote in e2e's TestDiscover (GOTK_E2E_DISCOVER_FIXTURES), paths scrubbed:
// each ran `git status`, `git log -n 2`, `git diff`, `ls -la`,
// `git status | tail -3` (or `| wc -l`: see tailPiped), `seq 1 300` and
// `echo hi` — raw/ without gotk,
// gotk/ with gotk installed by gotk-install. gotk-runs.json is gotk's run
// log of that run; report.json and report.txt are the expected reports
// (go test -run TestFixtures -update rewrites them; review the diff).

var fixtureAgents = []string{"claude", "codex", "gemini", "copilot", "opencode", "pi", "auggie", "openclaw"}

// rewritten are the script's commands gotk's hooks rewrite.
var rewritten = []string{"git status", "git log", "git diff", "ls"}

// tailPiped are the agents whose fixtures were recorded when the script
// piped git status into tail -3, before gotk fitted its output to a
// window: it ran raw in both runs and gotk rewrites it today, so it is one
// more missed git status. The others were recorded with today's script,
// git status | wc -l, which gotk declines (wc reads the text itself).
var tailPiped = map[string]bool{"claude": true, "codex": true}

// pipedMissed is how many of the fixture's piped git status count as missed.
func pipedMissed(agent string) int {
	if tailPiped[agent] {
		return 1
	}
	return 0
}

func fixtureRuns(t *testing.T, dir string) []store.Run {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "gotk-runs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var runs []store.Run
	if err := json.Unmarshal(b, &runs); err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return runs
}

// scanFixture scans one fixture home, as if it were the user's, with an
// empty environment.
func scanFixture(t *testing.T, agent, dir string, runs []store.Run, show bool) *Report {
	t.Helper()
	home, err := filepath.Abs(filepath.Join(dir, "home"))
	if err != nil {
		t.Fatal(err)
	}
	return Scan(Options{Env: Env{Home: home, Getenv: func(string) string { return "" }},
		Agents: []string{agent}, Runs: runs, Workers: 2, ShowOutput: show})
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestFixtures -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the scan (go test -run TestFixtures -update rewrites it; review the diff):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestFixtures: each real transcript gives its expected report, and the
// report says what the run did: without gotk the four rewritable commands
// are missed and nothing went through gotk; with gotk those four went
// through gotk and none is missed; in both, the piped git status is
// declined with a reason and seq and echo are unhandled.
func TestFixtures(t *testing.T) {
	for _, agent := range fixtureAgents {
		for _, kind := range []string{"raw", "gotk"} {
			t.Run(agent+"/"+kind, func(t *testing.T) {
				dir := filepath.Join("testdata", agent, kind)
				rep := scanFixture(t, agent, dir, fixtureRuns(t, dir), false)
				var js, txt bytes.Buffer
				if err := rep.JSON(&js); err != nil {
					t.Fatal(err)
				}
				rep.Text(&txt, "all projects")
				golden(t, filepath.Join(dir, "report.json"), js.Bytes())
				golden(t, filepath.Join(dir, "report.txt"), txt.Bytes())
				checkRun(t, agent, rep, kind == "gotk")
				if rep.Scanned.Files != 1 || rep.Scanned.Skipped != 0 {
					t.Errorf("scanned %+v: want 1 file, nothing skipped", rep.Scanned)
				}
			})
		}
	}
}

func checkRun(t *testing.T, agent string, rep *Report, withGotk bool) {
	t.Helper()
	missed := map[string]int{}
	for _, m := range rep.Missed {
		missed[m.Command] += m.Count
	}
	for _, c := range rewritten {
		piped := 0
		if c == "git status" {
			piped = pipedMissed(agent)
		}
		switch {
		case withGotk && missed[c] != piped:
			t.Errorf("%q went through gotk, but is counted as missed", c)
		case !withGotk && missed[c] != 1+piped:
			t.Errorf("%q ran raw once, and once piped; %d missed", c, missed[c])
		}
	}
	want := 0
	if withGotk {
		want = len(rewritten)
	}
	if rep.Through.Count != want {
		t.Errorf("through gotk: %d, want %d", rep.Through.Count, want)
	}
	switch {
	case tailPiped[agent] && len(rep.Declined) != 0:
		t.Errorf("declined = %+v, want none (the piped git status is rewritten with its window)", rep.Declined)
	case !tailPiped[agent] && (len(rep.Declined) != 1 || rep.Declined[0].Command != "git status" || rep.Declined[0].Count != 1):
		t.Errorf("declined = %+v, want git status | wc -l once", rep.Declined)
	}
	unhandled := map[string]int{}
	for _, u := range rep.Unhandled {
		unhandled[u.Command] = u.Count
	}
	if len(unhandled) != 2 || unhandled["seq"] != 1 || unhandled["echo"] != 1 {
		t.Errorf("unhandled = %+v, want seq and echo once each", rep.Unhandled)
	}
	if a := rep.Agents; len(a) != 1 {
		t.Errorf("agents = %+v, want the one scanned", a)
	}
}

// TestThroughGotkNotMissed: a run that went through gotk is not counted
// as missed. Claude, Codex, Gemini and OpenCode record the rewrite in the
// transcript, so the transcript alone proves it; Copilot CLI, Pi, Auggie
// and OpenClaw do not, and there gotk's run log is what proves it —
// without the log their gotk runs look raw, and are reported so, never
// guessed.
func TestThroughGotkNotMissed(t *testing.T) {
	for _, agent := range fixtureAgents {
		dir := filepath.Join("testdata", agent, "gotk")
		rep := scanFixture(t, agent, dir, nil, false)
		recorded := agent != "copilot" && agent != "pi" && agent != "auggie" && agent != "openclaw"
		piped := pipedMissed(agent)
		switch {
		case recorded && (rep.Through.Count != 4 || rep.MissedTotal.Count != piped):
			t.Errorf("%s: from the transcript alone: %d through gotk, %d missed; want 4 and %d (the piped git status)", agent, rep.Through.Count, rep.MissedTotal.Count, piped)
		case !recorded && (rep.Through.Count != 0 || rep.MissedTotal.Count != 4+piped):
			t.Errorf("%s: without gotk's run log: %d through gotk, %d missed; want 0 and %d", agent, rep.Through.Count, rep.MissedTotal.Count, 4+piped)
		}
		rep = scanFixture(t, agent, dir, fixtureRuns(t, dir), false)
		if want := 100 * 4 / float64(4+piped); rep.Through.Count != 4 || rep.MissedTotal.Count != piped || rep.Through.AdoptionPct != want {
			t.Errorf("%s: with gotk's run log: %d through gotk (%.1f%%), %d missed; want 4 (%.1f%%) and %d (the piped git status ran raw)", agent, rep.Through.Count, rep.Through.AdoptionPct, rep.MissedTotal.Count, want, piped)
		}
	}
}

// TestEstimates: gotk's filter runs on the recorded output where it reads
// the command's own text (git diff, ls); git status and git log ask for
// another format, so their estimate is a measured share — the user's own
// runs of the rule when there are some, else the corpus.
func TestEstimates(t *testing.T) {
	dir := filepath.Join("testdata", "claude", "raw")
	byCmd := func(rep *Report) map[string]Row {
		m := map[string]Row{}
		for _, r := range rep.Missed {
			m[r.Command] = r
		}
		return m
	}
	m := byCmd(scanFixture(t, "claude", dir, nil, false))
	for cmd, want := range map[string]string{"git diff": ByFilter, "ls": ByFilter, "git status": ByCorpus, "git log": ByCorpus} {
		if r := m[cmd]; r.Estimate != want || r.EstSavedTokens <= 0 || r.EstSavedTokens >= r.OutputTokens {
			t.Errorf("%s: estimate %q, %d of %d tokens; want %q, some but not all", cmd, r.Estimate, r.EstSavedTokens, r.OutputTokens, want)
		}
	}
	// gotk's log of the other run (it ran the same commands through gotk)
	// gives the shares of git.status and git.log; its runs are of another
	// time, so they vouch for none of these calls.
	m = byCmd(scanFixture(t, "claude", dir, fixtureRuns(t, filepath.Join("testdata", "claude", "gotk")), false))
	for cmd, want := range map[string]string{"git diff": ByFilter, "git status": ByYourRuns, "git log": ByYourRuns} {
		calls := 1
		if cmd == "git status" {
			calls = 2 // and piped into tail -3
		}
		if r := m[cmd]; r.Estimate != want || r.Count != calls {
			t.Errorf("with the user's runs, %s: estimate %q (%d calls); want %q", cmd, r.Estimate, r.Count, want)
		}
	}
}

// TestOutputStaysPrivate: no output text reaches the report unless
// --show-output asks for it.
func TestOutputStaysPrivate(t *testing.T) {
	secrets := []string{"untracked.txt", "second commit"} // from git status and git log
	for _, agent := range fixtureAgents {
		dir := filepath.Join("testdata", agent, "raw")
		for _, show := range []bool{false, true} {
			rep := scanFixture(t, agent, dir, nil, show)
			var js, txt bytes.Buffer
			rep.JSON(&js)
			rep.Text(&txt, "all projects")
			all := js.String() + txt.String()
			for _, s := range secrets {
				if strings.Contains(all, s) != show {
					t.Errorf("%s, show-output %v: report contains %q: %v", agent, show, s, !show)
				}
			}
		}
	}
}

// TestRefused: testdata/{claude,copilot}/refused are e2e's
// TestDiscoverRefused: `touch x` that the agent refused to run (Claude in
// -p: it needs approval; Copilot with only --allow-tool 'shell(git:*)'),
// then git status. The refused call is counted apart, never as missed;
// Claude's git status is missed; Copilot's is declined, because a session
// that asked for a permission was not started with --allow-all-tools, the
// only sessions where gotk's hook rewrites.
func TestRefused(t *testing.T) {
	for _, agent := range []string{"claude", "copilot"} {
		dir := filepath.Join("testdata", agent, "refused")
		rep := scanFixture(t, agent, dir, fixtureRuns(t, dir), false)
		var js, txt bytes.Buffer
		rep.JSON(&js)
		rep.Text(&txt, "all projects")
		golden(t, filepath.Join(dir, "report.json"), js.Bytes())
		golden(t, filepath.Join(dir, "report.txt"), txt.Bytes())
		if a := rep.Agents[agent]; a.NotRun != 1 || a.Calls != 1 {
			t.Errorf("%s: %d calls ran, %d refused; want 1 and 1", agent, a.Calls, a.NotRun)
		}
		switch {
		case agent == "claude" && (len(rep.Missed) != 1 || rep.Missed[0].Command != "git status"):
			t.Errorf("claude: missed %+v, want git status alone", rep.Missed)
		case agent == "copilot" && (len(rep.Missed) != 0 || len(rep.Declined) != 1 || rep.Declined[0].Reason != askNotRewritten()["copilot"]):
			t.Errorf("copilot: missed %+v, declined %+v", rep.Missed, rep.Declined)
		}
	}
}
