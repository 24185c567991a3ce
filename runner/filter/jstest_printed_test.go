package filter

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// printedCases are the real jest and vitest captures whose tests print.
var printedCases = []string{
	"jest-file-console", "jest-t-console", "jest-verbose-console", "jest-suite-console-fail",
	"vitest-file-console", "vitest-t-console", "vitest-verbose-console", "vitest-suite-console-fail",
}

// printedMessages finds, independently of the filter, the message lines of
// every console block in a raw stream: under vitest's "stdout | …" heading
// up to its blank line, under jest's "console.log" heading the lines up to
// the first blank one.
func printedMessages(raw []byte) []string {
	ls := lines(raw)
	var msgs []string
	for i := 0; i < len(ls); i++ {
		t := strings.TrimSpace(ls[i])
		if !strings.HasPrefix(t, "console.") && !strings.HasPrefix(ls[i], "stdout | ") && !strings.HasPrefix(ls[i], "stderr | ") {
			continue
		}
		for i++; i < len(ls) && strings.TrimSpace(ls[i]) != ""; i++ {
			msgs = append(msgs, ls[i])
		}
	}
	return msgs
}

// disguise rewrites each printed message so it looks like the runner's own
// noise (a passing test's tick, a code frame, a timing line): what a test
// prints is never the runner's and must survive as printed.
func disguise(raw []byte, msgs []string) ([]byte, []string) {
	masks := []string{"✓ ", "PASS ", "  10 | ", "Time: 1 s ", "Duration 5ms "}
	raw = join(lines(raw)) // the messages are matched without colour
	var out []string
	for i, m := range msgs {
		indent := m[:len(m)-len(strings.TrimLeft(m, " "))]
		d := indent + masks[i%len(masks)] + strings.TrimSpace(m)
		raw = bytes.Replace(raw, []byte(m+"\n"), []byte(d+"\n"), 1)
		out = append(out, d)
	}
	return raw, out
}

func loadPrinted(t *testing.T) []corpusCase {
	var cs []corpusCase
	for _, c := range loadCorpus(t) {
		if slices.Contains(printedCases, c.name) {
			cs = append(cs, c)
		}
	}
	if len(cs) != len(printedCases) {
		t.Fatalf("found %d of the %d printing cases", len(cs), len(printedCases))
	}
	return cs
}

func renderText(t *testing.T, c corpusCase) string {
	t.Helper()
	out, err := Render(For(c.match.Rule.Handler), c.input())
	if err != nil {
		t.Fatal(err)
	}
	return string(out.Stdout) + string(out.Stderr)
}

// TestJSTargetedShowsPrinted: a run that names its tests shows every line
// they printed, as printed, even a line that looks like the runner's noise.
func TestJSTargetedShowsPrinted(t *testing.T) {
	for _, c := range loadPrinted(t) {
		if !jsTargeted(c.input(), lines(c.stdout), lines(c.stderr)) {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			msgs := append(printedMessages(c.stdout), printedMessages(c.stderr)...)
			if len(msgs) == 0 {
				t.Fatal("the capture has no printed lines")
			}
			var want, w []string
			c.stdout, w = disguise(c.stdout, printedMessages(c.stdout))
			want = append(want, w...)
			c.stderr, w = disguise(c.stderr, printedMessages(c.stderr))
			want = append(want, w...)
			got := renderText(t, c)
			for _, m := range want {
				if !strings.Contains(got, m+"\n") {
					t.Errorf("printed line %q not shown:\n%s", m, got)
				}
			}
		})
	}
}

// TestJSUntargetedCutsPassingPrinted: the same captures run as the whole
// suite (no file, no -t, no verbose reporter) leave out what passing tests
// printed, say so in one line naming gotk recall, and keep what a failing
// test printed.
func TestJSUntargetedCutsPassingPrinted(t *testing.T) {
	failing := map[string][]string{
		"jest-suite-console-fail":   {"debug: discounted 100", `debug: items = [{"price":3,"qty":2},{"price":5,"qty":1}]`},
		"vitest-suite-console-fail": {"debug: discounted 100"},
	}
	for _, c := range loadPrinted(t) {
		t.Run(c.name, func(t *testing.T) {
			c.argv = slices.DeleteFunc(slices.Clone(c.argv), func(a string) bool {
				return a == "-t" || a == "discount" || a == "--verbose" || a == "--reporter" || a == "verbose" || jsTestFile.MatchString(a)
			})
			if jsTargeted(c.input(), lines(c.stdout), lines(c.stderr)) {
				t.Fatalf("%q still counts as targeted", c.argv)
			}
			got := renderText(t, c)
			if n := strings.Count(got, "the passing tests printed not shown: "+testRecall); n != 1 && n != 2 {
				t.Errorf("want one note per stream that lost lines, got %d:\n%s", n, got)
			}
			keep := failing[c.name]
			for _, m := range append(printedMessages(c.stdout), printedMessages(c.stderr)...) {
				m = strings.TrimSpace(m)
				if shown := strings.Contains(got, m); shown != slices.Contains(keep, m) {
					t.Errorf("printed line %q: shown %v, want %v:\n%s", m, shown, !shown, got)
				}
			}
		})
	}
}

// TestJSTargetedArgs: what names the tests of a jest or vitest run.
func TestJSTargetedArgs(t *testing.T) {
	few := []string{"Tests:       3 passed, 3 total"}
	many := []string{"      Tests  40 passed (40)"}
	for _, tc := range []struct {
		argv   []string
		counts []string
		want   bool
	}{
		{[]string{"npx", "jest", "src/cart.test.ts"}, many, true},
		{[]string{"npx", "vitest", "run", "-t", "adds"}, many, true},
		{[]string{"npx", "jest", "--testNamePattern=adds"}, many, true},
		{[]string{"npm", "test", "--", "-t", "adds"}, many, true},
		{[]string{"npx", "vitest", "run", "--reporter", "verbose"}, few, true},
		{[]string{"npx", "vitest", "run", "--reporter=verbose"}, many, false},
		{[]string{"npx", "jest", "--verbose"}, few, true},
		{[]string{"npx", "jest", "--verbose"}, nil, false},
		{[]string{"npx", "jest"}, few, false},
		{[]string{"npx", "vitest", "run", "src"}, few, false},
		{[]string{"npx", "vitest", "run", "src/cart"}, []string{" Test Files  1 passed (1)"}, true},
		{[]string{"npx", "jest", "cart"}, []string{"Test Suites: 1 passed, 1 total"}, true},
		{[]string{"npx", "jest", "cart"}, []string{"Test Suites: 3 passed, 3 total"}, false},
		{[]string{"npx", "vitest", "run"}, []string{" Test Files  1 passed (1)"}, false},
		{[]string{"npx", "jest", "--shard", "1/2"}, []string{"Test Suites: 1 passed, 1 total"}, false},
		{[]string{"npm", "test", "cart"}, []string{"Test Suites: 1 passed, 1 total"}, false},
	} {
		in := Input{Argv: tc.argv, Tool: 1}
		if got := jsTargeted(in, tc.counts); got != tc.want {
			t.Errorf("%q over %q: targeted %v, want %v", tc.argv, tc.counts, got, tc.want)
		}
	}
}
