package filter

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gotk-dev/gotk/core/hosts/claude"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/shell"
	"github.com/gotk-dev/gotk/runner/window"
	"github.com/tiktoken-go/tokenizer"
)

// sessionShapes are the ways agents bound a command's output.
var sessionShapes = []string{" 2>&1 | tail -30", " 2>&1 | tail -15", " 2>&1 | head -50", " 2>&1 | tail -5"}

// sessionLine is one agent-shaped line over a corpus case: what the raw
// window shows, and what the agent gets through the hook.
type sessionLine struct {
	c         corpusCase
	line      string
	rewritten bool
	w         window.Window
	rawWin    []byte // the raw output through the agent's window
	got       []byte // what the agent receives through the hook and its window
	facts     int    // must lines the raw window holds
	kept      int    // of them, in what the agent receives
	more      int    // must lines the agent receives that the raw window had cut off
	formWin   []byte // the compact form through the window as a plain tail or head (nil: none)
}

// sessionLines builds every corpus case in every shape, asks the decision
// (Claude, default mode) whether it is rewritten, and shapes it as gotk
// would: the compact output fitted to the window, else the raw window
// (also where gotk stops the command at a head window, as head would).
func sessionLines(t testing.TB) []sessionLine { return windowLines(t, sessionShapes) }

// windowLines is sessionLines over the given shapes.
func windowLines(t testing.TB, shapes []string) []sessionLine {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "managed"), 0o755)
	e := &decision.Engine{Host: claude.Host, Env: permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: home, ManagedDir: filepath.Join(home, "managed")}}
	var out []sessionLine
	for _, c := range loadCorpus(t) {
		words := make([]string, len(c.argv))
		for i, a := range c.argv {
			words[i] = shell.Quote(a)
		}
		raw := c.plain()
		_, shown, rerr := render(c)
		for _, shape := range shapes {
			line := strings.Join(words, " ") + shape
			d := e.Decide(decision.Request{Command: line})
			w, _ := window.OfCommand(line)
			s := sessionLine{c: c, line: line, w: w, rawWin: w.Apply(raw)}
			s.got = s.rawWin
			if d.Verdict == decision.AllowRewrite || d.Verdict == decision.AskRewrite {
				if !strings.Contains(d.Command, "gotk "+w.Flag()+" ") {
					t.Fatalf("%q rewritten without its window: %q", line, d.Command)
				}
				s.rewritten = true
				stopped := !w.Tail && !c.match.Rule.RunsToEnd() && bytes.Count(raw, []byte("\n")) >= w.N
				fitted := false
				if rerr == nil {
					s.formWin = w.Apply(shown)
				}
				if rerr == nil && !stopped {
					if fit, ok := window.FitWith(shown, s.rawWin, w, testRecall, every(c), BoilerplateOf(For(c.match.Rule.Handler))); ok {
						s.got, fitted = fit, true
					}
				}
				if !fitted && CanRefit(For(c.match.Rule.Handler), every(c), injected(c)) {
					// the window itself, compacted (Refit), as the
					// runner does
					if out, ok := Refit(For(c.match.Rule.Handler), c.input(), w, s.rawWin, nil, window.Lines(raw)); ok {
						s.got = out.Stdout
					}
				}
			}
			have, got := normalizedText(s.rawWin), normalizedText(s.got)
			for _, m := range c.must {
				switch n := normalize(m); {
				case tells(have, n):
					s.facts++
				case tells(got, n):
					s.more++
				}
			}
			s.kept = s.facts - len(missingFrom(c.must, have, s.got))
			out = append(out, s)
		}
	}
	return out
}

// injected: gotk ran the case with flags of its own (its raw window is
// not in the format the filter reads).
func injected(c corpusCase) bool {
	return c.ran != nil && strings.Join(c.ran, "\x00") != strings.Join(c.argv, "\x00")
}

// tells: text (normalized lines) holds the must line m. A must that is
// a key alone (`spec:`) is a whole line: a line `f:spec:` (a field of
// kubectl's managedFields, which its filter folds) is another key.
func tells(text, m string) bool {
	if yamlKey.MatchString(m) {
		return strings.HasPrefix(text, m+"\n") || strings.Contains(text, "\n"+m+"\n")
	}
	return strings.Contains(text, m)
}

var yamlKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*:$`)

func normalizedText(b []byte) string {
	var text strings.Builder
	for _, l := range lines(b) {
		text.WriteString(normalize(l))
		text.WriteByte('\n')
	}
	return text.String()
}

// missingFrom: the must lines the raw window holds that got lacks.
func missingFrom(must []string, rawWin string, got []byte) []string {
	have := normalizedText(got)
	var out []string
	for _, m := range must {
		if n := normalize(m); tells(rawWin, n) && !tells(have, n) {
			out = append(out, m)
		}
	}
	return out
}

// TestSessionLines: every corpus case in every agent shape. What the agent
// receives through the hook never has more lines than its window, nor
// more bytes than the raw window, and holds every must line the raw
// window held.
func TestSessionLines(t *testing.T) {
	rewritten := 0
	for _, s := range sessionLines(t) {
		if window.Lines(s.got) > s.w.N {
			t.Errorf("%s: %d lines in a window of %d", s.line, window.Lines(s.got), s.w.N)
		}
		if len(s.got) > len(s.rawWin) {
			t.Errorf("%s: %d bytes, the raw window %d", s.line, len(s.got), len(s.rawWin))
		}
		if m := missingFrom(s.c.must, normalizedText(s.rawWin), s.got); len(m) > 0 {
			t.Errorf("%s: lost what the raw window showed: %q\n--- got\n%s", s.line, m, s.got)
		}
		if s.rewritten {
			rewritten++
		}
	}
	if rewritten == 0 {
		t.Fatal("no session line was rewritten")
	}
}

// TestWindowsOfAnySize: every corpus case behind head and tail windows
// of many sizes (1 to 89 lines), as the hook rewrites it and gotk
// shapes it (the whole form fitted, the window compacted, or the raw
// window): never more lines than the window, never more bytes nor more
// tokens than the raw window, every must line the raw window held.
func TestWindowsOfAnySize(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus in 20 windows")
	}
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	var shapes []string
	for _, n := range []int{1, 2, 3, 5, 8, 13, 21, 34, 55, 89} {
		shapes = append(shapes, fmt.Sprintf(" 2>&1 | head -%d", n), fmt.Sprintf(" 2>&1 | tail -%d", n))
	}
	rewritten, shaped := 0, 0
	for _, s := range windowLines(t, shapes) {
		if window.Lines(s.got) > s.w.N {
			t.Errorf("%s: %d lines in a window of %d", s.line, window.Lines(s.got), s.w.N)
		}
		if len(s.got) > len(s.rawWin) || countTokens(t, enc, s.got) > countTokens(t, enc, s.rawWin) {
			t.Errorf("%s: more than the raw window (%d bytes, raw %d)", s.line, len(s.got), len(s.rawWin))
		}
		if m := missingFrom(s.c.must, normalizedText(s.rawWin), s.got); len(m) > 0 {
			t.Errorf("%s: lost what the raw window showed: %q\n--- got\n%s", s.line, m, s.got)
		}
		if s.rewritten {
			rewritten++
			if string(s.got) != string(s.rawWin) {
				shaped++
			}
		}
	}
	if rewritten == 0 || shaped == 0 {
		t.Fatalf("%d lines rewritten, %d shaped", rewritten, shaped)
	}
}

var (
	sessionOnce                 sync.Once
	sessionCarried, sessionRecv float64 // percent
	sessionFacts                float64 // percent of the raw windows' facts kept
)

// BenchmarkSessionLines prints the "session lines" section of make bench:
// the corpus in agent shapes (cmd 2>&1 | tail -N, | head -N), raw against
// through the hook, in o200k tokens: the share of the raw tokens on lines
// the hook rewrites (target ≥ 95%), the share the model receives on those
// lines (target ≤ 35%), and the facts (must lines) of the raw windows
// kept.
func BenchmarkSessionLines(b *testing.B) {
	lines := sessionLines(b)
	sessionOnce.Do(func() {
		enc, err := tokenizer.Get(tokenizer.O200kBase)
		if err != nil {
			b.Fatal(err)
		}
		var n, nRew, raw, rawRew, got, gotRew, facts, kept int
		// the rewritten lines by kind: runs whose windows gotk fits to
		// their failures, and the rest (listings, logs, diffs: every line
		// of the raw window is a fact)
		var nRun, rawRun, gotRun int
		// where the received tokens go: windows given back raw (and of
		// them, those whose compact form, cut to the window, is no
		// smaller: every line a fact), windows holding facts the raw
		// window had cut off
		var nRaw, gotRaw, nDense, nMore, more, rawMore, gotMore int
		for _, s := range lines {
			r, g := countTokens(b, enc, s.rawWin), countTokens(b, enc, s.got)
			n, raw, got, facts, kept = n+1, raw+r, got+g, facts+s.facts, kept+s.kept
			if s.rewritten && bytes.Equal(s.got, s.rawWin) {
				nRaw, gotRaw = nRaw+1, gotRaw+g
				if s.formWin == nil || countTokens(b, enc, s.formWin) >= r {
					nDense++
				}
			}
			if s.rewritten && s.more > 0 {
				nMore, more, rawMore, gotMore = nMore+1, more+s.more, rawMore+r, gotMore+g
			}
			if s.rewritten {
				nRew, rawRew, gotRew = nRew+1, rawRew+r, gotRew+g
				if !every(s.c) {
					nRun, rawRun, gotRun = nRun+1, rawRun+r, gotRun+g
				}
			}
		}
		pct := func(a, b int) float64 {
			if b == 0 {
				return 0
			}
			return 100 * float64(a) / float64(b)
		}
		sessionCarried, sessionRecv, sessionFacts = pct(rawRew, raw), pct(gotRew, rawRew), pct(kept, facts)
		fmt.Printf("session lines in detail: the corpus as agents bound it (%s), o200k tokens through the agent's window\n", strings.Join(sessionShapes, ", "))
		fmt.Printf("%-22s %6s %10s %10s %9s\n", "", "lines", "raw tok", "recv tok", "received")
		fmt.Printf("%-22s %6d %10d %10d %8.1f%%\n", "all", n, raw, got, pct(got, raw))
		fmt.Printf("%-22s %6d %10d %10d %8.1f%%\n", "rewritten", nRew, rawRew, gotRew, pct(gotRew, rawRew))
		fmt.Printf("%-22s %6d %10d %10d %8.1f%%\n", "  tests, builds, lint", nRun, rawRun, gotRun, pct(gotRun, rawRun))
		fmt.Printf("%-22s %6d %10d %10d %8.1f%%\n", "  listings, logs, vcs", nRew-nRun, rawRew-rawRun, gotRew-gotRun, pct(gotRew-gotRun, rawRew-rawRun))
		fmt.Printf("rewritten lines carry %.1f%% of the raw tokens; facts of the raw windows kept: %d of %d\n", pct(rawRew, raw), kept, facts)
		fmt.Printf("given back raw: %d windows, %d tokens (%.1f%% of raw); in %d of them the compact form cut to the window is no smaller\n", nRaw, gotRaw, pct(gotRaw, rawRew), nDense)
		fmt.Printf("the other %d rewritten windows receive %.1f%% of their raw tokens (≤ 35%% overall would need %.1f%%)\n", nRew-nRaw, pct(gotRew-gotRaw, rawRew-gotRaw), pct(int(0.35*float64(rawRew))-gotRaw, rawRew-gotRaw))
		fmt.Printf("holding facts the raw window cut off: %d windows, %d facts more, %.1f%% of their raw tokens received\n\n", nMore, more, pct(gotMore, rawMore))
	})
	for b.Loop() {
		for _, s := range lines {
			if s.rewritten {
				window.Fit(s.got, s.rawWin, s.w, testRecall, every(s.c))
			}
		}
	}
	// after the loop: its first turn resets the timer and the metrics
	b.ReportMetric(sessionCarried, "carried-%")
	b.ReportMetric(sessionRecv, "received-%")
	b.ReportMetric(sessionFacts, "facts-kept-%")
}

// every: as the runner decides it, per category.
func every(c corpusCase) bool { return !c.match.Rule.Category.Run() }
