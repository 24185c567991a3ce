package filter

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/runner/window"
)

// fakeFilter renders its input with render.
type fakeFilter struct{ render func(Input) (Output, error) }

func (fakeFilter) Args(argv []string, tool int) []string { return argv }
func (f fakeFilter) Render(in Input) (Output, error)     { return f.render(in) }

func refitInput() Input {
	return Input{Argv: []string{"tool"}, RanArgv: []string{"tool", "--json"},
		Recall:      func() string { return "gotk recall ab12" },
		RecallLines: func(from, to int) string { return fmt.Sprintf("gotk recall ab12 --lines %d-%d", from, to) },
		Plain:       []byte("the whole run\n")}
}

// The filter reads the window as typed (never the whole run's text),
// and a range it names is a range of the whole output: past the lines
// before a tail window.
func TestRefitRendersTheWindow(t *testing.T) {
	raw := []byte(strings.Repeat("12:00:01 GET /health 200 in 3ms from the load balancer\n", 20))
	var seen Input
	f := fakeFilter{func(in Input) (Output, error) {
		seen = in
		return Output{Stdout: []byte("12:00:01 GET /health 200 in 3ms from the load balancer\n… 19 more: " + in.RecallLines(2, 20) + "\n")}, nil
	}}
	out, ok := Refit(f, refitInput(), window.Window{N: 20, Tail: true}, raw, nil, 90)
	if !ok {
		t.Fatal("refused")
	}
	if string(seen.Stdout) != string(raw) || seen.Plain != nil || strings.Join(seen.RanArgv, " ") != "tool" {
		t.Fatalf("the filter read %q (plain %q, ran %q)", seen.Stdout, seen.Plain, seen.RanArgv)
	}
	if !strings.Contains(string(out.Stdout), "--lines 72-90") {
		t.Fatalf("range not in the whole output's lines:\n%s", out.Stdout)
	}
}

// Refused: more lines than the window, a fact of the window lost, a row
// dropped without naming recall, no fewer tokens, binary, a panic.
func TestRefitRefuses(t *testing.T) {
	rows := []byte("api-7d9f 1/1 Running 0 3d\nworker-5c2a 0/1 CrashLoopBackOff 12 3d\ndb-0 1/1 Running 0 9d\n" +
		"cache-1 1/1 Running 0 9d\nqueue-2 1/1 Running 0 9d\n")
	w := window.Window{N: 5}
	for name, render := range map[string]func(Input) (Output, error){
		"too many lines": func(Input) (Output, error) { return Output{Stdout: []byte("a\nb\nc\nd\ne\nf\n")}, nil },
		"row dropped":    func(Input) (Output, error) { return Output{Stdout: []byte("api-7d9f Running\ndb-0 Running\n")}, nil },
		"not fewer":      func(in Input) (Output, error) { return Output{Stdout: in.Stdout}, nil },
		"panics":         func(Input) (Output, error) { panic("boom") },
		"fails":          func(Input) (Output, error) { return Output{}, fmt.Errorf("cannot parse") },
	} {
		if out, ok := Refit(fakeFilter{render}, refitInput(), w, rows, nil, 0); ok {
			t.Errorf("%s: accepted %q", name, out.Stdout)
		}
	}
	if _, ok := Refit(fakeFilter{func(Input) (Output, error) { return Output{Stdout: []byte("x\n")}, nil }}, refitInput(), w, []byte("a\x00b\n"), nil, 0); ok {
		t.Error("binary window refitted")
	}
	// a locator of the window is a fact even where recall is named
	loc := []byte("src/app.ts:12:5 error no-undef 'define' is not defined in this module at all\n" + strings.Repeat("src/app.ts:13:1 warning prefer-const 'x' is never reassigned; use const\n", 4))
	lost := func(Input) (Output, error) {
		return Output{Stdout: []byte("src/app.ts: 4 warnings prefer-const (gotk recall ab12)\n")}, nil
	}
	if _, ok := Refit(fakeFilter{lost}, refitInput(), w, loc, nil, 0); ok {
		t.Error("a window's locator lost")
	}
	// rows kept in fewer words, or dropped with recall named: accepted
	kept := func(Input) (Output, error) {
		return Output{Stdout: []byte("worker-5c2a 0/1 CrashLoopBackOff 12 3d\n4 more Running (api-7d9f, db-0, cache-1, queue-2): gotk recall ab12\n")}, nil
	}
	if _, ok := Refit(fakeFilter{kept}, refitInput(), w, rows, nil, 0); !ok {
		t.Error("a window folded with recall named was refused")
	}
}

// git log as typed (a window of the log gotk ran alongside its own
// format): each commit header folds into its line, the note names
// recall; a run gotk gave its format that printed something else is
// still an error, and so is a text with no commit header.
func TestGitLogReadsPlain(t *testing.T) {
	raw := "commit 96e6e9eba5da8b3566cfdb44d8f5d97f4d7e2325\nAuthor: Dana Dev <dana@example.com>\nDate:   Wed Dec 2 17:10:17 2026 +0000\n\n" +
		"    router: rename a route\n\ncommit e80d50a57ef33881c5a24ec24277de67e9937af6\nAuthor: Dana Dev <dana@example.com>\nDate:   Tue Dec 1 09:00:00 2026 +0000\n\n    store: fix off-by-one\n"
	in := refitInput()
	in.Argv, in.RanArgv, in.Stdout = []string{"git", "log"}, []string{"git", "log"}, []byte(raw)
	out, err := gitLog{}.Render(in)
	if err != nil {
		t.Fatal(err)
	}
	want := "96e6e9eba5 2026-12-02 Dana Dev: router: rename a route\n\ne80d50a57e 2026-12-01 Dana Dev: store: fix off-by-one\n" +
		"(2 commit headers folded: full hashes, e-mail addresses and times in gotk recall ab12)\n"
	if string(out.Stdout) != want {
		t.Fatalf("got\n%s\nwant\n%s", out.Stdout, want)
	}
	if !CanRefit(gitLog{}, true, true) || CanRefit(gitStatus{}, true, true) || !CanRefit(gitStatus{}, true, false) {
		t.Error("CanRefit: git log reads its plain form, git status does not")
	}
	in.RanArgv = gitLog{}.Args(in.Argv, 0)
	if _, err := (gitLog{}).Render(in); err == nil {
		t.Error("a run given gotk's format that printed git's own was rendered")
	}
	in.RanArgv, in.Stdout = in.Argv, []byte("    a message line cut from its commit\n")
	if _, err := (gitLog{}).Render(in); err == nil {
		t.Error("a text without a commit header was rendered as a log")
	}
}

// A head window that cuts the last commit's header (no subject yet) is
// still a log: the whole commits fold, the cut header stays as git
// printed it; a whole last commit at the end of a window is folded.
func TestGitLogWindowCutsAHeader(t *testing.T) {
	one := "commit 96e6e9eba5da8b3566cfdb44d8f5d97f4d7e2325\nAuthor: Dana Dev <dana@example.com>\nDate:   Wed Dec 2 17:10:17 2026 +0000\n\n    router: rename a route\n\n"
	for _, cut := range []string{
		"commit e80d50a57ef33881c5a24ec24277de67e9937af6\n",
		"commit e80d50a57ef33881c5a24ec24277de67e9937af6\nMerge: 1111111 2222222\nAuthor: Dana Dev <dana@example.com>\nDate:   Tue Dec 1 09:00:00 2026 +0000\n\n",
		"commit e80d50a57ef33881c5a24ec24277de67e9937af6\nAuthor: Dana Dev <dana@example.com>\n",
	} {
		raw := one + cut
		w := window.Window{N: window.Lines([]byte(raw))}
		in := refitInput()
		in.Argv = []string{"git", "log"}
		out, ok := Refit(gitLog{}, in, w, []byte(raw), nil, 200)
		if !ok {
			t.Errorf("refused:\n%s", raw)
			continue
		}
		want := "96e6e9eba5 2026-12-02 Dana Dev: router: rename a route\n\n(1 commit header folded: full hashes, e-mail addresses and times in gotk recall ab12)\n" + cut
		if string(out.Stdout) != want {
			t.Errorf("got\n%s\nwant\n%s", out.Stdout, want)
		}
	}
	whole := one + "commit e80d50a57ef33881c5a24ec24277de67e9937af6\nAuthor: Dana Dev <dana@example.com>\nDate:   Tue Dec 1 09:00:00 2026 +0000\n\n    store: fix off-by-one\n"
	in := refitInput()
	in.Argv, in.RanArgv, in.Stdout, in.Window = []string{"git", "log"}, []string{"git", "log"}, []byte(whole), 11
	out, err := gitLog{}.Render(in)
	if err != nil || !strings.Contains(string(out.Stdout), "e80d50a57e 2026-12-01 Dana Dev: store: fix off-by-one\n") {
		t.Errorf("a whole last commit not folded (%v):\n%s", err, out.Stdout)
	}
}

// With stderr beside the window, no line range is named: recall counts
// the lines of both streams as they came, not stdout's alone.
func TestRefitNoRangeBesideStderr(t *testing.T) {
	raw := []byte(strings.Repeat("12:00:01 GET /health 200 in 3ms from the load balancer\n", 20))
	f := fakeFilter{func(in Input) (Output, error) {
		if in.RecallLines != nil {
			return Output{}, fmt.Errorf("a range was offered")
		}
		return Output{Stdout: []byte("12:00:01 GET /health 200 in 3ms from the load balancer\n… 19 more: " + in.Recall() + "\n"), Stderr: in.Stderr}, nil
	}}
	if _, ok := Refit(f, refitInput(), window.Window{N: 20, Tail: true}, raw, []byte("warn: slow\n"), 90); !ok {
		t.Fatal("refused")
	}
}

// One line over the window, the last a note naming recall: the note
// joins the line before it. Not a note, not naming recall, or two lines
// over: left as it is (and refused by Refit).
func TestJoinNote(t *testing.T) {
	for in, want := range map[string]string{
		"a\nb...\n... (1 line cut at 200 characters; gotk recall ab12)\n": "a\nb... ... (1 line cut at 200 characters; gotk recall ab12)\n",
		"a\nb\nc\n":                                "a\nb\nc\n",
		"a\nb\n(see the rest somewhere)\n":         "a\nb\n(see the rest somewhere)\n",
		"a\nb\nc\n… 3 more: gotk recall ab12\n":    "a\nb\nc\n… 3 more: gotk recall ab12\n",
		"a\nb\n… 3 more: gotk recall ab12 (9 l)\n": "a\nb … 3 more: gotk recall ab12 (9 l)\n",
	} {
		if got := string(joinNote([]byte(in), 2, "gotk recall ab12 (9 lines; --lines A-B prints a part)")); got != want {
			t.Errorf("joinNote(%q) = %q, want %q", in, got, want)
		}
	}
}

// A window is already bounded: grep's per-file cap does not apply to it
// (a head -50 of one file's 50 matches shows all 50), where the whole
// run's output keeps its cap.
func TestGrepWindowUncapped(t *testing.T) {
	var raw strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&raw, "pkg/store/store_test.go:%d:\twant := %d // the value the store must return here\n", 10*i, i)
	}
	in := refitInput()
	in.Argv = []string{"grep", "-rn", "want", "pkg"}
	in.RanArgv = in.Argv
	out, ok := Refit(grep{}, in, window.Window{N: 50}, []byte(raw.String()), nil, 0)
	if !ok {
		t.Fatal("refused")
	}
	if n := window.Lines(out.Stdout); n != 50 || !strings.Contains(string(out.Stdout), "  500: \twant := 50") {
		t.Fatalf("%d lines:\n%s", n, out.Stdout)
	}
	in.Stdout = []byte(raw.String())
	whole, err := Render(grep{}, in)
	if err != nil || !strings.Contains(string(whole.Stdout), "more in this file") {
		t.Fatalf("the whole run's output lost its cap: %v\n%s", err, whole.Stdout)
	}
}

// A long listing's window and a blame's window are compacted in the
// window's lines: the note a listing says once opens the first line and
// its rows sit under it; a blame's run of lines sits under its first
// line as git printed it. Every row is still read back whole.
func TestRefitListingsUnderTheirHeading(t *testing.T) {
	var listing, blame strings.Builder
	listing.WriteString("total 48\n")
	for i := range 11 {
		fmt.Fprintf(&listing, "-rw-r--r--  1 root root %6d Dec  1 05:53 file_%02d.go\n", 1000+i*37, i)
	}
	listing.WriteString("-rw-r--r--  1 root root    512 Dec  1 06:10 late.go\n")
	for i := range 12 {
		h := "1ae01097"
		if i >= 8 {
			h = "9f00aa11"
		}
		fmt.Fprintf(&blame, "%s (Ann Lee 2026-12-01 03:11:%02d +0000 %3d) \tx%d := f(%d)\n", h, i/8, 100+i, i, i)
	}
	for _, c := range []struct {
		argv  []string
		f     Filter
		raw   string
		w     window.Window
		first string // the window's first line through gotk
		row   string // a later row
	}{
		{[]string{"ls", "-la"}, ls{}, listing.String(), window.Window{N: 13}, "total 48 (all root root, Dec 1 05:53 unless shown; mode and links -rw-r--r-- 1 for files unless shown; then size, name)", "  512 06:10 late.go"},
		{[]string{"ls", "-la"}, ls{}, listing.String(), window.Window{N: 6, Tail: true}, "(all root root, Dec 1 05:53 unless shown; mode and links -rw-r--r-- 1 for files unless shown; then size, name) 1222 file_06.go", "  1370 file_10.go"},
		{[]string{"git", "blame", "a.go"}, gitBlame{}, blame.String(), window.Window{N: 12}, "1ae01097 (Ann Lee 2026-12-01 03:11:00 +0000 100) \tx0 := f(0)", "  101) \tx1 := f(1)"},
	} {
		rawWin := c.w.Apply([]byte(c.raw))
		in := Input{Argv: c.argv, Recall: func() string { return "gotk recall ab12" }}
		out, ok := Refit(c.f, in, c.w, rawWin, nil, window.Lines([]byte(c.raw)))
		if !ok {
			t.Errorf("%v %s: refused the window:\n%s", c.argv, c.w.Pipe(), rawWin)
			continue
		}
		got := lines(out.Stdout)
		if len(got) != window.Lines(rawWin) || got[0] != c.first || !slices.Contains(got, c.row) {
			t.Errorf("%v %s:\n%s\nwant first %q and %q", c.argv, c.w.Pipe(), out.Stdout, c.first, c.row)
		}
	}
}

// A window of a lint run whose filter reads parts (eslint) is the window
// regrouped: every place of the window listed (no cap: the window is the
// count), ESLint's totals as printed. A run's filter that adds counts of
// its own is never rendered over a window.
func TestRefitRunsReadInParts(t *testing.T) {
	var raw strings.Builder
	raw.WriteString("/src/app.js\n")
	for i := range 40 {
		fmt.Fprintf(&raw, "  %d:10    error    Unexpected var, use let or const instead    no-var\n", 100+i)
	}
	raw.WriteString("  200:3    error    'x' is already defined    no-redeclare\n\n✖ 41 problems (41 errors, 0 warnings)\n")
	w := window.Window{N: 30, Tail: true}
	rawWin := w.Apply([]byte(raw.String()))
	if !CanRefit(eslint{}, false, false) || CanRefit(goTest{}, false, false) {
		t.Fatal("CanRefit: eslint reads parts of a run, go test does not")
	}
	out, ok := Refit(eslint{}, Input{Argv: []string{"eslint", "src"}, Recall: func() string { return "gotk recall ab12" }}, w, rawWin, nil, window.Lines([]byte(raw.String())))
	if !ok {
		t.Fatalf("refused the window:\n%s", rawWin)
	}
	got := lines(out.Stdout)
	var places []string
	for i := 13; i < 40; i++ {
		places = append(places, fmt.Sprintf("%d:10", 100+i))
	}
	want := []string{"  " + strings.Join(places, " ") + " error Unexpected var, use let or const instead  no-var", "  200:3 error 'x' is already defined  no-redeclare", "✖ 41 problems (41 errors, 0 warnings)"}
	if !slices.Equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
