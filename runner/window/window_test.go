package window

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestApplyIsHeadAndTail: Apply shows what head -n N and tail -n N show,
// over generated texts (with and without a last newline, empty lines).
func TestApplyIsHeadAndTail(t *testing.T) {
	if _, err := exec.LookPath("tail"); err != nil {
		t.Skip("no tail")
	}
	r := rand.New(rand.NewPCG(4, 2))
	for i := 0; i < 150; i++ {
		var b strings.Builder
		for k := r.IntN(12); k > 0; k-- {
			if r.IntN(4) > 0 {
				fmt.Fprintf(&b, "line %d", r.IntN(100))
			}
			b.WriteByte('\n')
		}
		if r.IntN(2) == 0 {
			b.WriteString("last")
		}
		in := []byte(b.String())
		n := 1 + r.IntN(8)
		for _, tail := range []bool{false, true} {
			prog := "head"
			if tail {
				prog = "tail"
			}
			cmd := exec.Command(prog, "-n", fmt.Sprint(n))
			cmd.Stdin = bytes.NewReader(in)
			want, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if got := (Window{Tail: tail, N: n}).Apply(in); !bytes.Equal(got, want) {
				t.Fatalf("%s -n %d of %q: got %q, want %q", prog, n, in, got, want)
			}
		}
	}
}

// TestFitBounds: whatever the compact output, a fitted one never has more
// lines than the window nor more bytes than the raw window, and holds its
// facts; else Fit says no.
func TestFitBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	pick := []string{"ok  pkg/a 0.1s", "--- FAIL: TestX (0.00s)", "    x_test.go:12: want 1 got 2", "noise", "=== RUN TestY", "3 passed, 1 failed", "src/a.ts(4,2): error TS1: bad", ""}
	for i := 0; i < 2000; i++ {
		var raw, compact strings.Builder
		for k := r.IntN(60); k > 0; k-- {
			raw.WriteString(pick[r.IntN(len(pick))] + "\n")
		}
		for k := r.IntN(40); k > 0; k-- {
			compact.WriteString(pick[r.IntN(len(pick))] + "\n")
		}
		w := Window{Tail: r.IntN(2) == 0, N: 1 + r.IntN(30)}
		rawWin := w.Apply([]byte(raw.String()))
		out, ok := Fit([]byte(compact.String()), rawWin, w, "gotk recall abc123", r.IntN(2) == 0)
		if !ok {
			continue
		}
		if Lines(out) > w.N || len(out) > len(rawWin) || !Holds(out, rawWin) {
			t.Fatalf("window %+v: %d lines, %d bytes (raw window %d):\n%s", w, Lines(out), len(out), len(rawWin), out)
		}
	}
}

// TestFitKeepsFailuresFirst: a tail window too small for everything keeps
// the failures and the summary, and says how to see the rest.
func TestFitKeepsFailuresFirst(t *testing.T) {
	var compact strings.Builder
	compact.WriteString("    a_test.go:3: want 1 got 2\n--- FAIL: TestA (0.00s)\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&compact, "detail %d\n", i)
	}
	compact.WriteString("FAIL\texample.com/p\t0.1s\ngo test: 3 passed, 1 failed\n")
	raw := []byte(strings.Repeat("=== RUN   TestLongName/with_a_case_that_is_long\n--- PASS: TestLongName/with_a_case_that_is_long (0.00s)\n", 40) + "FAIL\texample.com/p\t0.1s\n")
	w := Window{Tail: true, N: 8}
	out, ok := Fit([]byte(compact.String()), w.Apply(raw), w, "gotk recall abc123", false)
	if !ok {
		t.Fatal("not fitted")
	}
	for _, want := range []string{"a_test.go:3: want 1 got 2", "--- FAIL: TestA", "go test: 3 passed, 1 failed", "gotk recall abc123"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("lost %q:\n%s", want, out)
		}
	}
}

// TestFitWholeCompactNeedsOnlyTheFacts: a compact output that fits the
// window whole, with nothing cut, is gotk's own faithful form of the
// whole run, so it stands where the raw window's lines are reworded (an
// assertion's trace folded into its locator); it still must tell every
// locator, failing test and count the raw window told.
func TestFitWholeCompactNeedsOnlyTheFacts(t *testing.T) {
	raw := []byte("--- FAIL: TestTotal (0.00s)\n    cart_test.go:13: \n        \tError Trace:\t/tmp/shop/cart_test.go:13\n        \tError:      \tNot equal: \n        \t            \texpected: 19\n        \t            \tactual  : 10\nFAIL\texample.com/shop\t0.005s\n")
	w := Window{N: 50}
	compact := "    cart_test.go:13: Not equal:\n        expected: 19\n        actual  : 10\n--- FAIL: TestTotal (0.00s)\nFAIL\texample.com/shop\t0.005s\n"
	if out, ok := Fit([]byte(compact), w.Apply(raw), w, "gotk recall abc123", false); !ok || string(out) != compact {
		t.Errorf("whole compact not taken: ok=%v\n%s", ok, out)
	}
	for _, lost := range []string{"cart_test.go:13", "TestTotal"} {
		c := strings.ReplaceAll(compact, lost, "x")
		if _, ok := Fit([]byte(c), w.Apply(raw), w, "gotk recall abc123", false); ok {
			t.Errorf("compact without %q taken", lost)
		}
	}
	// A compact output that cut lines (its recall) is checked line by line.
	capped := compact + "… 3 more lines (gotk recall abc123)\n"
	if _, ok := Fit([]byte(capped), w.Apply(raw), w, "gotk recall abc123", false); ok {
		t.Error("a capped compact output taken without its lines checked")
	}
}

func TestParseAndOfCommand(t *testing.T) {
	w, rest, err := Parse([]string{"--tail", "30", "go", "test"})
	if err != nil || w != (Window{Tail: true, N: 30}) || len(rest) != 2 {
		t.Fatalf("%v %v %v", w, rest, err)
	}
	for _, bad := range [][]string{{"--tail"}, {"--tail", "0"}, {"--head", "x"}, {"--head", "+3"}, {"--head", "-3"}} {
		if _, _, err := Parse(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if got, ok := OfCommand("go test ./... | " + w.Pipe()); !ok || got != w {
		t.Errorf("OfCommand: %v %v", got, ok)
	}
	if _, ok := OfCommand("git log --grep 'a | b'"); ok {
		t.Error("a quoted pipe read as a window")
	}
}

// TestChooseKeepsHeadings: an indented line comes with the heading it
// sits under (a file over its matches), the cap line above both.
func TestChooseKeepsHeadings(t *testing.T) {
	var compact strings.Builder
	for f := 0; f < 3; f++ {
		fmt.Fprintf(&compact, "pkg/file%d.go:\n  10: error: old trouble %d\n  20: error: older trouble %d\n", f, f, f)
	}
	compact.WriteString("pkg/file3.go:\n  40: error: bad thing\n  50: error: worse thing\nFAIL build (2 errors)\n")
	raw := []byte("compiling a long module name here\ncompiling another long module name\npkg/file3.go:40: error: bad thing\npkg/file3.go:50: error: worse thing\nFAIL build (2 errors)\n")
	w := Window{Tail: true, N: 5}
	out := choose([]byte(compact.String()), [][]byte{raw}, w, "gotk recall abc123", len(raw))
	want := "… 9 more lines to fit tail -5 (gotk recall abc123)\npkg/file3.go:\n  40: error: bad thing\n  50: error: worse thing\nFAIL build (2 errors)\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if !Holds(out, raw) {
		t.Errorf("the locators lost their file:\n%s", out)
	}
}

// TestNamedWordsHold: a line of the fit stands for a raw line only with
// every word that names something; sharing most other words is not
// enough.
func TestNamedWordsHold(t *testing.T) {
	raw := []byte("service/worker-metrics unchanged (dry run)\n")
	if represented([]byte("unchanged (dry run) (2): service/web, secret/web-secrets\n"), raw, true, nil) {
		t.Error("service/worker-metrics held by a line that does not name it")
	}
	if !represented([]byte("unchanged (dry run) (2): service/web, service/worker-metrics\n"), raw, true, nil) {
		t.Error("service/worker-metrics not held by the line that names it")
	}
}

// TestCapLineWhereLinesWereLeftOut: the line naming what was left out
// stands where the lines were left out: not at the top, nor inside a list
// kept whole (as placing it before the summary's last lines once did).
func TestCapLineWhereLinesWereLeftOut(t *testing.T) {
	var b strings.Builder
	b.WriteString("Running 5 tests using 1 worker\n  ✘ x_test.go:9 TestA\n")
	for i := range 30 {
		fmt.Fprintf(&b, "    trace frame %d of the long call\n", i)
	}
	b.WriteString("  3 failed\n    [a] x_test.go:1 TestA\n    [b] x_test.go:2 TestB\n    [c] x_test.go:3 TestC\n  2 passed\n")
	compact := []byte(b.String())
	raw := append(bytes.Repeat([]byte("=== RUN   TestSomethingWithAVeryLongNameIndeed/and_a_subtest_with_parameters_one_two_three_four_five_six_seven_eight_nine_ten_eleven_twelve_thirteen_fourteen_fifteen_sixteen\n"), 40), "  3 failed\n    [a] x_test.go:1 TestA\n    [b] x_test.go:2 TestB\n    [c] x_test.go:3 TestC\n  2 passed\n"...)
	w := Window{Tail: true, N: 10}
	out, ok := Fit(compact, w.Apply(raw), w, "gotk recall abc123", false)
	if !ok {
		t.Fatalf("not fitted:\n%s", out)
	}
	got := string(out)
	list := "  3 failed\n    [a] x_test.go:1 TestA\n    [b] x_test.go:2 TestB\n    [c] x_test.go:3 TestC\n  2 passed\n"
	if !strings.HasSuffix(got, list) {
		t.Errorf("the list is split or lost:\n%s", got)
	}
	i, from, to := strings.Index(got, "more lines to fit"), strings.Index(got, "frame 0 "), strings.Index(got, "frame 29 ")
	if i < 0 || from < 0 || to < 0 || i < from || i > to {
		t.Errorf("the cap line is not where frames 1-28 were left out:\n%s", got)
	}
}

// TestFitToolchainFramesAreNoFacts: the frames of a trace inside Go's
// runtime and testing (and Rust's standard library), which the test
// filters fold into a note naming recall, need not be in a window; the
// panic and the frame of the user's code still must.
func TestFitToolchainFramesAreNoFacts(t *testing.T) {
	raw := []byte(`=== RUN   TestPanic
--- FAIL: TestPanic (0.00s)
panic: runtime error: index out of range [3] with length 0 [recovered, repanicked]

goroutine 7 [running]:
testing.tRunner.func1.2({0x575440, 0x3e3d87020090})
	/usr/local/go/src/testing/testing.go:1974 +0x232
testing.tRunner.func1()
	/usr/local/go/src/testing/testing.go:1977 +0x349
panic({0x575440?, 0x3e3d87020090?})
	/usr/local/go/src/runtime/panic.go:860 +0x13a
example.com/gp.TestPanic(0x3e3d870ba488?)
	/tmp/gp/p_test.go:8 +0x9
testing.tRunner(0x3e3d870ba488, 0x593fe8)
	/usr/local/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 1
	/usr/local/go/src/testing/testing.go:2101 +0x4c5
FAIL	example.com/gp	0.017s
`)
	compact := `--- FAIL: TestPanic (0.00s)
panic: runtime error: index out of range [3] with length 0 [recovered, repanicked]

goroutine 7 [running]:
example.com/gp.TestPanic(0x3e3d870ba488?)
	p_test.go:8 +0x9
	… 5 runtime/testing frames: gotk recall abc123
FAIL	example.com/gp	0.017s
go test: 0 passed, 1 failed in 1 package (1 failed)
`
	w := Window{Tail: true, N: 30}
	if out, ok := Fit([]byte(compact), w.Apply(raw), w, "gotk recall abc123", false); !ok || string(out) != compact {
		t.Errorf("the folded trace not taken: ok=%v\n%s", ok, out)
	}
	for _, lost := range []string{"\tp_test.go:8 +0x9\n", "panic: runtime error: index out of range [3] with length 0 [recovered, repanicked]\n"} {
		if _, ok := Fit([]byte(strings.Replace(compact, lost, "", 1)), w.Apply(raw), w, "gotk recall abc123", false); ok {
			t.Errorf("taken without %q", lost)
		}
	}
	rust := []byte("thread 'main' panicked at src/main.rs:4:5:\nboom\nstack backtrace:\n   0: std::panicking::begin_panic\n             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:689:5\n   1: app::main\n             at ./src/main.rs:4:5\n")
	rustCompact := "thread 'main' panicked at src/main.rs:4:5:\nboom\nstack backtrace:\n   1: app::main\n             at ./src/main.rs:4:5\n   … 1 standard-library frames: gotk recall abc123\n"
	if _, ok := Fit([]byte(rustCompact), w.Apply(rust), w, "gotk recall abc123", false); !ok {
		t.Error("the folded Rust backtrace not taken")
	}
}

// TestHoldsCountsOfAPart: a raw window's counts of one suite are told by
// the whole run's counts when these imply them — more passed, no failure
// of a kind whose part counted none —, and not otherwise.
func TestHoldsCountsOfAPart(t *testing.T) {
	raw := []byte("test result: ok. 29 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.06s\n\ntest result: ok. 3 passed; 0 failed; 0 ignored\n")
	for shaped, want := range map[string]bool{
		"cargo test: 37 passed (3 suites)\n":                                          true,
		"cargo test: 32 passed (2 suites)\n":                                          true,
		"cargo test: 20 passed (3 suites)\n":                                          false, // fewer than the part's
		"cargo test: 35 passed, 2 failed (3 suites)\n":                                false, // failures: the part's 0 is not implied
		"cargo test: 37 passed (3 suites)\n--- FAIL: TestX\n":                         false,
		"cargo test: 37 passed, 0 failed, 1 warning (3 suites)\n":                     true,
		"test result: ok. 29 passed; 0 failed\ntest result: ok. 3 passed; 0 failed\n": true,
	} {
		if got := Holds([]byte(shaped), raw); got != want {
			t.Errorf("Holds(%q) = %v, want %v", shaped, got, want)
		}
	}
}

// A passing test's line (✓ and where the test is) is no failure: its
// locator need not be kept, the run's counts tell it. A ✓ line that
// carries a failure word still is one.
func TestHoldsPassedLinesAreNoFacts(t *testing.T) {
	raw := []byte("  ✓  1 [chromium] › tests/home.spec.ts:3:5 › home › shows the hero (812ms)\n" +
		"  ✘  2 [chromium] › tests/cart.spec.ts:15:5 › cart › applies a coupon (5.3s)\n")
	for shaped, want := range map[string]bool{
		"  ✘ [chromium] › tests/cart.spec.ts:15:5 › cart › applies a coupon\n1 failed\n1 passed\n": true,
		"1 failed\n1 passed\n": false, // the failure's locator
	} {
		if got := Holds([]byte(shaped), raw); got != want {
			t.Errorf("Holds(%q) = %v, want %v", shaped, got, want)
		}
	}
	warned := []byte("  ✓ tests/a.spec.ts:9:1 › loads (warning: slow.ts:4 retried)\n")
	if Holds([]byte("1 passed\n"), warned) {
		t.Error("a ✓ line with a failure word lost its locators")
	}
	if important("  ✓  1 [chromium] › tests/home.spec.ts:3:5 › home › shows the hero (812ms)") {
		t.Error("a passed test's line is important")
	}
}

// A time taken is no name: the window's `FAIL pkg 0.005s` is held by the
// compact form's `FAIL pkg 0.006s` (the run printed as typed and the run
// gotk read differ in their timings), never by another package's line.
func TestDurationsAreNoNames(t *testing.T) {
	for w, want := range map[string]bool{"0.005s": true, "812ms": true, "1m2s": true, "5.3s": true, "14.2s,": true,
		"3": false, "v1.2": false, "s": false, "10mb": false, "ms": false, "2msx": false} {
		if got := duration(w); got != want {
			t.Errorf("duration(%q) = %v", w, got)
		}
	}
	raw := []byte("--- FAIL: TestX (0.00s)\nFAIL\texample.com/m/function\t0.005s\n")
	held := []byte("--- FAIL: TestX (0.01s)\nFAIL\texample.com/m/function\t0.006s\n")
	if !represented(held, raw, false, held) {
		t.Error("a line that differs only in its duration is not represented")
	}
	other := []byte("--- FAIL: TestX (0.01s)\nFAIL\texample.com/m/value\t0.005s\n")
	if represented(other, raw, false, other) {
		t.Error("another package's line represents the window's")
	}
}

// A log line's leading time of writing is no name: repeats folded into
// their first line (the filter's "the same N more times") represent the
// window's rows; a time inside a row still names it.
func TestLeadingStampsAreNoNames(t *testing.T) {
	for w, want := range map[string]bool{"2026-05-14T09:00:03.431Z": true, "[2026-05-14": true, "10:00:01": true, "09:00:03,431": true,
		"2026-05-14": true, "v2026": false, "10:00:01:5": false, "api": false} {
		if got := stamp(w); got != want {
			t.Errorf("stamp(%q) = %v", w, got)
		}
	}
	raw := []byte("2026-05-14T09:00:06.504Z INFO api: GET /healthz 200\n2026-05-14T09:00:09.504Z INFO api: GET /healthz 200\n")
	folded := []byte("2026-05-14T09:00:06.504Z INFO api: GET /healthz 200\n  … the same 1 more time, last: 2026-05-14T09:00:09.504Z\n")
	if !represented(folded, raw, true, folded) {
		t.Error("folded repeats do not represent the window's rows")
	}
	rows := []byte("backup-a 2026-05-13 done\nbackup-a 2026-05-14 done\n")
	if represented([]byte("backup-a 2026-05-13 done\n"), rows, true, nil) {
		t.Error("a row named by its date inside it was dropped unseen")
	}
}

// A line under a file's heading says the file: grep's `path:12:text`
// then `  15: text`, a linter's `src/a.ts` then `  3:5 error …` represent
// the raw lines that name the file on each; another file's heading does
// not.
func TestHeadingsSayTheirFile(t *testing.T) {
	raw := []byte("cmp/diff_test.go:233:\t\twant: \"XYXY\",\ncmp/diff_test.go:237:\t\twant: \"XXYY\",\n")
	grouped := []byte("cmp/diff_test.go:233:\t\twant: \"XYXY\",\n  237: \t\twant: \"XXYY\",\n")
	if !represented(grouped, raw, true, grouped) {
		t.Error("a match under its file's first line is not represented")
	}
	other := []byte("cmp/diff_test.go:233:\t\twant: \"XYXY\",\ncmp/other.go:1: x\n  237: \t\twant: \"XXYY\",\n")
	if represented(other, raw, true, other) {
		t.Error("a match under another file's line represents it")
	}
	lint := []byte("src/app.ts:12:5 error 'define' is not defined no-undef\n")
	if !represented([]byte("src/app.ts\n  12:5 error 'define' is not defined no-undef\n"), lint, true, nil) {
		t.Error("a linter's finding under its file heading is not represented")
	}
}

// A row indented under a heading says what the heading says (a blame's
// commit over its lines, a listing's shared columns over its rows); the
// same row under no heading, or under another, does not.
func TestHeadingsSayTheirWords(t *testing.T) {
	raw := []byte("1ae01097 (Ann Lee 2026-12-01 03:11:29 +0000 351) func f() {\n1ae01097 (Ann Lee 2026-12-01 03:11:29 +0000 352) \treturn 1\n")
	under := []byte("1ae01097 (Ann Lee 2026-12-01 03:11:29 +0000 351) func f() {\n  352) \treturn 1\n")
	if !represented(under, raw, true, under) {
		t.Error("a line under its commit's heading is not represented")
	}
	flat := []byte("1ae01097 (Ann Lee 2026-12-01 03:11:29 +0000 351) func f() {\n352) \treturn 1\n")
	if represented(flat, raw, true, flat) {
		t.Error("a line under no heading is represented by another line's commit")
	}
	other := []byte("1ae01097 (Ann Lee 2026-12-01 03:11:29 +0000 351) func f() {\n9f00aa11 (Bob 2026-11-02 10:00:00 +0000 400) x\n  352) \treturn 1\n")
	if represented(other, raw, true, other) {
		t.Error("a line under another commit's heading is represented")
	}
}

// tree's drawing is layout, not words: a file under its directory's
// line stands for tree's row of it.
func TestTreeDrawingIsNoWord(t *testing.T) {
	raw := []byte("crypto\n├── aes\n│\u00a0\u00a0 ├── aes.go\n│\u00a0\u00a0 └── aes_test.go\n└── boring\n")
	compact := []byte("crypto\n  aes\n    aes.go, aes_test.go\n  boring\n")
	if !represented(compact, raw, true, compact) {
		t.Error("tree's rows are not represented by their compact form")
	}
	if represented([]byte("crypto\n  aes\n    aes.go\n  boring\n"), raw, true, nil) {
		t.Error("a file left out is represented")
	}
}

// A name and its version joined (go list -m's path@version, pip's
// name==version) say the name and the version of a row that prints them
// apart; another version does not.
func TestNameAtVersion(t *testing.T) {
	raw := []byte("github.com/BurntSushi/toml v1.6.0\nannotated-types           0.7.0\n")
	if !represented([]byte("github.com/BurntSushi/toml@v1.6.0\nannotated-types==0.7.0 attrs==26.1.0\n"), raw, true, nil) {
		t.Error("path@version and name==version do not stand for their rows")
	}
	if represented([]byte("github.com/BurntSushi/toml@v1.7.0\nannotated-types==0.7.0\n"), raw, true, nil) {
		t.Error("another version stands for the row")
	}
}

// A count word that begins a file's name is no count: `05:53 errors.go`
// in a listing says nothing of 53 errors. "3 errors." ending a sentence is.
// A number after # is an id (docker build's step `#12 ERROR:`, an
// issue's #7), no count.
func TestCountsAreNotNames(t *testing.T) {
	for l, want := range map[string]int{
		"-rw-r--r-- 1 root root 8686 Dec  1 05:53 errors.go": 0,
		"12 warnings_test.py":                                0,
		"found 3 errors.":                                    1,
		"5 passed, 2 failed":                                 2,
		"2 errors-found":                                     0,
		"#12 ERROR: process did not complete":                0,
		"fixes #7 failures in parsing":                       0,
	} {
		if got := len(Facts([]byte(l + "\n"))); got != want {
			t.Errorf("%q: %d facts (%+v), want %d", l, got, Facts([]byte(l+"\n")), want)
		}
	}
}

// Colour is not meaning: a locator printed in colour names its file,
// not the colour code's tail, and an uncoloured form holds it (and a
// coloured form an uncoloured locator).
func TestColouredLocators(t *testing.T) {
	raw := []byte("\x1b[31merror\x1b[39m in \x1b[39mbuild.js:12\x1b[0m: unexpected token\n")
	fs := Facts(raw)
	if len(fs) != 1 || fs[0].name != "build.js" || fs[0].value != "12" {
		t.Fatalf("facts %+v, want build.js:12", fs)
	}
	if !Holds([]byte("error in build.js:12: unexpected token\n"), raw) {
		t.Error("the uncoloured line does not hold the coloured locator")
	}
	if !Holds(raw, []byte("build.js:12: unexpected token\n")) {
		t.Error("the coloured line does not hold the locator")
	}
}

// A finding under its file's heading (eslint's stylish form) is a
// locator of that file; a count indented under a line that is no
// file's heading is none.
func TestHeadingFindingsAreLocators(t *testing.T) {
	raw := []byte("/tmp/js/esprima.js\n  173:2  error  Unexpected var, use let or const instead  no-var\n")
	if Holds([]byte("esprima.js: 43 places of no-var (gotk recall ab12)\n"), raw) {
		t.Error("a finding's place under its heading was lost unseen")
	}
	if !Holds([]byte("/tmp/js/esprima.js\n  15:11 173:2 error Unexpected var  no-var\n"), raw) {
		t.Error("the finding's place kept, yet not held")
	}
	dotnet := []byte("/src/Pay.cs(88,24): error CS0029: Cannot convert [/src/a.csproj]\n    2 Warning(s)\n    1 Error(s)\n")
	for _, f := range Facts(dotnet) {
		if f.kind == "locator" && f.name != "Pay.cs" {
			t.Errorf("a count under a finding read as a locator: %+v", f)
		}
	}
}

// grep -n glues the line number to the text (`a.go:12:func`): the
// locator and the text's first word are two words; a column is not text.
func TestGluedLocatorWords(t *testing.T) {
	for l, want := range map[string][]string{
		"crypto/a_test.go:100:func TestX(t *testing.T) {": {"a_test.go:100", "func", "TestX", "t", "*testing.T", "{"},
		"src/app.ts:12:5 error":                           {"app.ts:12:5", "error"},
		"v1.2:3:x":                                        {"v1.2:3:x"},
		"cmp/internal/: diff/, flags.go, foo1/":           {"internal", "diff", "flags.go", "foo1"},
	} {
		if got := words(l); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("words(%q) = %q, want %q", l, got, want)
		}
	}
	// find's paths grouped under their directory stand for the paths,
	// directories (with their slash) too
	raw := []byte("cmp/internal/teststructs/foo1\ncmp/internal/teststructs/structs.go\ncmp/internal/teststructs/foo1/foo.go\n")
	grouped := []byte("cmp/internal/teststructs/: foo1/, structs.go\ncmp/internal/teststructs/foo1/foo.go\n")
	if !represented(grouped, raw, true, grouped) {
		t.Error("find's grouped paths do not stand for the paths")
	}
	if represented([]byte("cmp/internal/teststructs/: structs.go\ncmp/internal/teststructs/foo1/foo.go\n"), raw, true, nil) {
		t.Error("a directory left out is represented")
	}
}

// A place a passing suite's test logged from (jest's console block under
// `PASS file`) is no failure: a form that folds that block holds the
// window. Under `FAIL file` the same place is a fact.
func TestPassingSuiteLogsAreNoFailures(t *testing.T) {
	block := "  ● Console\n\n    console.log\n      trim input\n\n      at Object.log (jt/str.test.js:3:32)\n\n"
	if fs := Facts([]byte("PASS jt/str.test.js\n" + block)); len(fs) != 0 {
		t.Errorf("under PASS: facts %+v, want none", fs)
	}
	if fs := Facts([]byte("PASS jt/str.test.js (1.2 s)\n" + block)); len(fs) != 0 {
		t.Errorf("under PASS with its time: facts %+v, want none", fs)
	}
	folded := []byte("PASS jt/str.test.js\n(1 line the passing tests printed not shown: gotk recall abc123)\n")
	if !represented(folded, []byte("PASS jt/str.test.js\n"+block), false, folded) {
		t.Error("a form folding a passing suite's console block does not stand for it")
	}
	if represented(folded, []byte("FAIL jt/str.test.js\n"+block), false, folded) {
		t.Error("a form folding a failing suite's console block stands for it")
	}
	fs := Facts([]byte("FAIL jt/str.test.js\n" + block))
	if !slices.Contains(fs, fact{"locator", "str.test.js", "3"}) {
		t.Errorf("under FAIL: facts %+v, want str.test.js:3 among them", fs)
	}
}

// A tool's boilerplate (advice it prints after any failure) tells the
// window nothing: FitWith does not ask a form to keep it, Fit does.
func TestBoilerplateIsNoFact(t *testing.T) {
	raw := []byte("[ERROR] Failed to execute goal surefire:test on project shop: There are test failures.\n" +
		"[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.\n" +
		"[ERROR] Re-run Maven using the -X switch to enable full debug logging.\n" +
		"[ERROR] For more information about the errors and possible solutions, please read the following articles:\n" +
		"[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException\n")
	// a form that leaves lines out (it names recall): every failure line
	// of the raw window must be in it
	compact := []byte("[ERROR]   TaxTest.vatOnLines:7 expected:<1440> but was:<1200>\n" +
		"\t... 3 framework frames (gotk recall abc123)\n" +
		"[ERROR] Failed to execute goal surefire:test on project shop: There are test failures.\n")
	boiler := func(l string) bool {
		return strings.Contains(l, "re-run Maven") || strings.Contains(l, "Re-run Maven") || strings.Contains(l, "For more information") || strings.Contains(l, "[Help 1]")
	}
	w := Window{N: 5, Tail: true}
	if _, ok := Fit(compact, raw, w, "gotk recall abc123", false); ok {
		t.Error("Fit: a form without the advice lines holds the window")
	}
	out, ok := FitWith(compact, raw, w, "gotk recall abc123", false, boiler)
	if !ok || string(out) != string(compact) {
		t.Errorf("FitWith: %v %q, want the compact form", ok, out)
	}
	// what is not boilerplate still counts
	raw = append([]byte("\tat com.example.TaxTest.vatOnLines(TaxTest.java:7)\n"), raw...)
	if _, ok := FitWith(compact, raw, w, "gotk recall abc123", false, boiler); ok {
		t.Error("FitWith: a form without the failing frame holds the window")
	}
}

// TestChooseMarksEveryGap: lines kept in a window's form are adjacent
// only where they were adjacent in the compact form; every run of lines
// left out is one line (the cap line at the last, … at the others), and
// the form keeps the window's line count. Random forms, random windows.
func TestChooseMarksEveryGap(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pool := []string{"FAIL TestA (0.01s)", "    a_test.go:12: want 3, got 4", "ok  pkg/x 0.2s", "compiling module", "", "--- FAIL: TestB", "    b_test.go:7: error: boom", "  detail line", "note: retried"}
	marked := 0
	for range 3000 {
		var compact strings.Builder
		n := 3 + r.IntN(40)
		for i := range n {
			fmt.Fprintf(&compact, "%s #%d\n", pool[r.IntN(len(pool))], i)
		}
		compact.WriteString("FAIL (2 failed, 9 passed)\n")
		w := Window{Tail: r.IntN(2) == 0, N: 2 + r.IntN(12)}
		out := choose([]byte(compact.String()), [][]byte{[]byte("FAIL (2 failed, 9 passed)\n")}, w, "gotk recall abc123", 1<<20)
		if out == nil {
			continue
		}
		if Lines(out) > w.N {
			t.Fatalf("%d lines in a window of %d:\n%s", Lines(out), w.N, out)
		}
		index := map[string]int{}
		for i, l := range strings.Split(strings.TrimSuffix(compact.String(), "\n"), "\n") {
			index[l] = i
		}
		prev, gapped := -1, false
		for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			i, ok := index[l]
			if !ok {
				gapped = true // the cap line or a mark
				marked++
				continue
			}
			if !gapped && i != prev+1 {
				t.Fatalf("lines %d and %d of the compact form read as adjacent:\n%s\n--- from\n%s", prev, i, out, compact.String())
			}
			if gapped && i == prev+1 {
				t.Fatalf("a mark between adjacent lines %d and %d:\n%s", prev, i, out)
			}
			prev, gapped = i, false
		}
		if last := strings.Count(compact.String(), "\n") - 1; !gapped && prev != last {
			t.Fatalf("the form ends at line %d of %d with no mark:\n%s", prev, last, out)
		}
	}
	if marked == 0 {
		t.Fatal("no form left lines out")
	}
}
