package discover

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gotk-dev/gotk/runner/store"
)

// TestSessionGolden: the session view of the Claude Code session with
// gotk in testdata (written by the real CLI in e2e against the fake model,
// which reports usage), computed by hand from the transcript and gotk's
// run log.
//
// The transcript's 8 requests recorded (uncached input, cache write, cache
// read, output): (3,0,12489,20) (3,14,12552,20) (3,22,12636,20)
// (3,33,12728,20) (3,52,12830,20) (3,20,13004,20) (3,272,13162,20)
// (3,0,13502,20):
//
//	input  3 × 8 = 24
//	write  0+14+22+33+52+20+272+0 = 413
//	read   12489+12552+12636+12728+12830+13004+13162+13502 = 102903
//	output 20 × 8 = 160; read in all 24 + 413 + 102903 = 103340
//
// Request i made call i, whose result requests i+1…8 read (no compaction):
// 8 − i times. The results' o200k tokens: git status 18, git log 40, git
// diff 48, ls -la 87, git status | tail -3 23, seq 1 300 599, echo hi 1:
//
//	shell tokens 18+40+48+87+23+599+1 = 816
//	shell reads  18×7 + 40×6 + 48×5 + 87×4 + 23×3 + 599×2 + 1×1
//	           = 126 + 240 + 240 + 348 + 69 + 1198 + 1 = 2222
//
// The first four went through gotk; its runs recorded raw → shown bytes
// 365→59, 280→92, 173→136, 297→211 (all under the 30,000 cap):
//
//	removed (365−59)/4 + (280−92)/4 + (173−136)/4 + (297−211)/4
//	      = 76 + 47 + 9 + 21 = 153 tokens
//	reads avoided 76×7 + 47×6 + 9×5 + 21×4 = 532 + 282 + 45 + 84 = 943
//	removed_pct 943 / (103340 + 943) = 0.904…% → 0.9
//	per_command_pct (306+188+37+86) / (365+280+173+297) = 617/1115 → 55.3
//
// With prices per million tokens input 5, cache write 6.25, cache read
// 0.5, output 25:
//
//	spent   (24×5 + 413×6.25 + 102903×0.5 + 160×25) / 1e6 = 58152.75/1e6 → 0.058153
//	avoided (153×6.25 + (943−153)×0.5) / 1e6 = 1351.25/1e6 → 0.001351
func TestSessionGolden(t *testing.T) {
	dir := filepath.Join("testdata", "claude", "gotk")
	home, _ := filepath.Abs(filepath.Join(dir, "home"))
	rep := Scan(Options{Env: Env{Home: home, Getenv: func(string) string { return "" }}, Agents: []string{"claude"},
		Runs: fixtureRuns(t, dir), Workers: 2,
		Prices: map[string]Price{"claude-opus-5-5": {Input: 5, CacheWrite: 6.25, CacheRead: 0.5, Output: 25}}})
	s := rep.Sessions
	want := Usage{Requests: 8, Input: 24, CacheWrite: 413, CacheRead: 102903, Output: 160}
	if s.Count != 1 || s.Usage != want {
		t.Fatalf("%d sessions, usage %+v; want 1, %+v", s.Count, s.Usage, want)
	}
	if s.ShellTokens != 816 || s.ShellReads != 2222 {
		t.Errorf("shell output %d tokens, %d reads; want 816, 2222", s.ShellTokens, s.ShellReads)
	}
	if s.Joined != 4 || s.RemovedTokens != 153 || s.ReadsAvoided != 943 || s.RemovedPct != 0.9 || s.PerCommandPct != 55.3 {
		t.Errorf("joined %d, removed %d, reads avoided %d, %.1f%% (per command %.1f%%); want 4, 153, 943, 0.9%%, 55.3%%",
			s.Joined, s.RemovedTokens, s.ReadsAvoided, s.RemovedPct, s.PerCommandPct)
	}
	if s.Cost == nil || s.Cost.Spent != 0.058153 || s.Cost.Avoided != 0.001351 || s.Priced != 1 {
		t.Errorf("cost %+v (%d priced); want spent 0.058153, avoided 0.001351", s.Cost, s.Priced)
	}
	if len(s.List) != 1 || s.List[0].ReadsAvoided != 943 || s.List[0].Models[0] != "claude-opus-5-5" {
		t.Errorf("list %+v", s.List)
	}
	// Without a price for the model, no cost at all: never a guess.
	rep = Scan(Options{Env: Env{Home: home, Getenv: func(string) string { return "" }}, Agents: []string{"claude"},
		Runs: fixtureRuns(t, dir), Workers: 2, Prices: map[string]Price{"another-model": {Input: 1}}})
	if rep.Sessions.Cost != nil || rep.Sessions.List[0].Cost != nil {
		t.Errorf("a cost without the model's price: %+v", rep.Sessions.Cost)
	}
}

// claudeRecords builds a Claude Code transcript: each step is a request
// (its usage, or none) making one Bash call, the hook's rewrite when given,
// and its result; "compact" is a compaction.
type claudeStep struct {
	cmd, hook, out string
	noUsage        bool
	compact        bool
}

func claudeTranscript(t0 time.Time, session string, steps []claudeStep) string {
	var b strings.Builder
	q := func(s string) string { j, _ := json.Marshal(s); return string(j) }
	for i, s := range steps {
		ts := q(t0.Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano))
		if s.compact {
			fmt.Fprintf(&b, `{"type":"system","subtype":"compact_boundary","timestamp":%s,"sessionId":%q}`+"\n", ts, session)
			continue
		}
		usage := `,"usage":{"input_tokens":1,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":10}`
		if s.noUsage {
			usage = ""
		}
		var content string
		if s.cmd != "" {
			content = fmt.Sprintf(`{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":%s}}`, i, q(s.cmd))
		} else {
			content = `{"type":"text","text":"done"}`
		}
		fmt.Fprintf(&b, `{"type":"assistant","timestamp":%s,"cwd":"/p","sessionId":%q,"message":{"id":"m%d","model":"m","content":[%s]%s}}`+"\n",
			ts, session, i, content, usage)
		if s.cmd == "" {
			continue
		}
		if s.hook != "" {
			fmt.Fprintf(&b, `{"type":"attachment","timestamp":%s,"attachment":{"type":"hook_success","toolUseID":"t%d","stdout":%s}}`+"\n",
				ts, i, q(`{"hookSpecificOutput":{"updatedInput":{"command":`+q(s.hook)+`}}}`))
		}
		fmt.Fprintf(&b, `{"type":"user","timestamp":%s,"cwd":"/p","sessionId":%q,"message":{"content":[{"type":"tool_result","tool_use_id":"t%d","content":%s}]}}`+"\n",
			ts, session, i, q(s.out))
	}
	return b.String()
}

// TestSessionHonesty: what the session view never credits gotk with.
func TestSessionHonesty(t *testing.T) {
	home := t.TempDir()
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	projects := filepath.Join(home, ".claude", "projects", "-p")
	writeFile(t, filepath.Join(projects, "a.jsonl"), claudeTranscript(t0, "a", []claudeStep{
		// The agent's own window: gotk's output went into head, so what
		// the agent would have read raw is not known — no credit.
		{cmd: "gotk git log | head -5", out: "abc first\n"},
		// A hook's rewrite; the run printed 2,000 of 100,000 bytes, but
		// Claude Code would have kept 30,000 of them: (30000-2000)/4.
		{cmd: "git status", hook: "gotk git status", out: "## main\n"},
		// Read by no request before the compaction: removed, no reads.
		{cmd: "gotk ls", out: "a b\n"},
		{compact: true},
		// No run of gotk's log matches it: not joined, not credited.
		{cmd: "gotk git diff", out: "(no changes)\n"},
		{},
	}))
	// A transcript without usage fields, with a malformed line: its calls
	// count in the per-command lists, it is named once, and the line is
	// counted as malformed.
	writeFile(t, filepath.Join(projects, "b.jsonl"), claudeTranscript(t0.Add(time.Hour), "b", []claudeStep{
		{cmd: "git status", out: "x\n", noUsage: true},
		{cmd: "git diff", out: "y\n", noUsage: true},
	})+"{not json\n")
	runs := []store.Run{
		{At: at(0), Project: "/p", Command: "git log", Measured: true, RawBytes: 100000, Shown: 1000},
		{At: at(1), Project: "/p", Command: "git status", Measured: true, RawBytes: 100000, Shown: 2000},
		{At: at(2), Project: "/p", Command: "ls", Measured: true, RawBytes: 400, Shown: 100},
		// A run no transcript record joins: per-command view only.
		{At: at(30), Project: "/p", Command: "git branch", Measured: true, RawBytes: 1000, Shown: 1000},
	}
	rep := Scan(Options{Env: Env{Home: home, Getenv: func(string) string { return "" }}, Agents: []string{"claude"}, Runs: runs, Workers: 2})
	s := rep.Sessions
	// Five requests of (1, 100, 1000, 10): 5 × 1101 = 5505 read.
	if s.Count != 1 || s.Usage.Requests != 5 || s.Usage.Read() != 5505 {
		t.Fatalf("sessions %d, usage %+v; want the one with usage, 5 requests reading 5505", s.Count, s.Usage)
	}
	if s.Through != 4 || s.Windowed != 1 || s.Unjoined != 1 || s.Joined != 2 {
		t.Errorf("through %d, windowed %d, unjoined %d, joined %d; want 4, 1, 1, 2", s.Through, s.Windowed, s.Unjoined, s.Joined)
	}
	// git status: 7000 tokens at position 2, read by request 3 (the
	// compaction follows): 7000 reads; ls: (400-100)/4 = 75, read by none.
	if s.RemovedTokens != 7075 || s.ReadsAvoided != 7000 {
		t.Errorf("removed %d, reads avoided %d; want 7075, 7000", s.RemovedTokens, s.ReadsAvoided)
	}
	// 7000 / (5505 + 7000) = 55.97…%.
	if s.RemovedPct != 56.0 {
		t.Errorf("removed %.1f%%, want 56.0%%", s.RemovedPct)
	}
	// Per command, every run counts: (99000 capped to 29000) + 28000 + 300
	// + 0 over 30000 + 30000 + 400 + 1000 = 57300/61400 = 93.3%.
	if s.PerCommandPct != 93.3 {
		t.Errorf("per command %.1f%%, want 93.3%%", s.PerCommandPct)
	}
	if s.NoUsageCount != 1 || len(s.NoUsage) != 1 || !strings.HasSuffix(s.NoUsage[0], "b.jsonl") {
		t.Errorf("no usage: %d %q; want b.jsonl named once", s.NoUsageCount, s.NoUsage)
	}
	if a := rep.Agents["claude"]; a.Calls != 6 || rep.Scanned.Malformed != 1 {
		t.Errorf("calls %d (want 6: the transcript without usage counts), malformed %d (want 1)", a.Calls, rep.Scanned.Malformed)
	}
	if !strings.Contains(s.Method, "/ 4") || !strings.Contains(s.Method, "30,000") {
		t.Errorf("method does not say how the estimate was made: %q", s.Method)
	}
}

// TestMoments: Σt·(R−p) over a context, without the list of results.
func TestMoments(t *testing.T) {
	var m moments
	m.add(10, 1) // read by requests 2..5: 4 times
	m.add(5, 3)  // 2 times
	m.add(7, 5)  // none
	if r, w := m.reads(5); r != 10*4+5*2 || w != 15 {
		t.Errorf("reads %d, written %d; want 50, 15", r, w)
	}
}
