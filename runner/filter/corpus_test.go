package filter

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/runner/tokens"
)

// The corpus: testdata/<case>/ holds one run of a real tool (or a labelled
// sample, see testdata/README.md):
//
//	cmd       the argv as typed, one word a line, then "exit N"; comment
//	          lines "# ran: [json argv]" (what gotk ran) and "# note: …"
//	stdout    raw stdout of the command gotk ran
//	stderr    raw stderr
//	baseline  (when gotk added flags) both streams of the command as typed:
//	          what the model would have seen without gotk
//	golden    the expected rendering (go test -run TestCorpus -update)
//	must      lines that must survive verbatim (blank runs folded);
//	          "locator F:L:C" lines: a diagnostic's locator, whole on a line

var update = flag.Bool("update", false, "rewrite testdata/*/golden from the filters' output")

// testRecall is the recall hint every test Input carries.
const testRecall = "gotk recall TEST01"

// corpusCase is one loaded testdata directory.
type corpusCase struct {
	name     string
	dir      string
	argv     []string
	ran      []string
	exit     int
	note     string
	wd       string // the working directory (Input.Dir), when the capture recorded it
	stdout   []byte
	stderr   []byte
	baseline []byte // nil: the same as stdout+stderr
	must     []string
	match    registry.Match
}

func (c corpusCase) input() Input {
	return Input{
		Argv: c.argv, Tool: c.match.Tool, RanArgv: c.ran,
		Stdout: c.stdout, Stderr: c.stderr, Combined: append(append([]byte{}, c.stdout...), c.stderr...),
		Exit: c.exit, Dir: c.wd, Plain: c.plain(), Recall: func() string { return testRecall },
		RecallLines: func(from, to int) string { return fmt.Sprintf("%s --lines %d-%d", testRecall, from, to) },
	}
}

// plain is what recall prints: the command as typed (baseline) when gotk
// added flags, else both raw streams.
func (c corpusCase) plain() []byte {
	if c.baseline != nil {
		return c.baseline
	}
	return append(append([]byte{}, c.stdout...), c.stderr...)
}

// sample reports whether the case is a labelled sample, not a capture.
func (c corpusCase) sample() bool { return strings.Contains(c.note, "(sample") }

func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	dirs, err := filepath.Glob("testdata/*/cmd")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no corpus in testdata: %v", err)
	}
	var cases []corpusCase
	for _, cmdPath := range dirs {
		dir := filepath.Dir(cmdPath)
		c := corpusCase{name: filepath.Base(dir), dir: dir}
		data, _ := os.ReadFile(cmdPath)
		for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			switch {
			case strings.HasPrefix(l, "# ran: "):
				if err := json.Unmarshal([]byte(strings.TrimPrefix(l, "# ran: ")), &c.ran); err != nil {
					t.Fatalf("%s: bad ran line: %v", cmdPath, err)
				}
			case strings.HasPrefix(l, "# note: "):
				c.note = strings.TrimPrefix(l, "# note: ")
			case strings.HasPrefix(l, "# dir: "):
				c.wd = strings.TrimPrefix(l, "# dir: ")
			case strings.HasPrefix(l, "exit "):
				c.exit, err = strconv.Atoi(strings.TrimPrefix(l, "exit "))
				if err != nil {
					t.Fatalf("%s: bad exit line %q", cmdPath, l)
				}
			default:
				c.argv = append(c.argv, l)
			}
		}
		c.stdout, _ = os.ReadFile(filepath.Join(dir, "stdout"))
		c.stderr, _ = os.ReadFile(filepath.Join(dir, "stderr"))
		if b, err := os.ReadFile(filepath.Join(dir, "baseline")); err == nil {
			c.baseline = b
		}
		if m, err := os.ReadFile(filepath.Join(dir, "must")); err == nil {
			for _, l := range strings.Split(string(m), "\n") {
				if strings.TrimSpace(l) != "" {
					c.must = append(c.must, l)
				}
			}
		}
		var ok bool
		c.match, ok = registry.Classify(c.argv)
		if !ok {
			t.Fatalf("%s: %q matches no registry rule", c.name, c.argv)
		}
		if c.ran == nil {
			c.ran = c.argv
		}
		cases = append(cases, c)
	}
	return cases
}

// render runs the case's filter; shown is what the runner prints (the raw
// streams when the filter fails or would not make the output smaller).
func render(c corpusCase) (out Output, shown []byte, err error) {
	f := For(c.match.Rule.Handler)
	out, err = Render(f, c.input())
	rawBoth := append(append([]byte{}, c.stdout...), c.stderr...)
	if err != nil {
		return out, rawBoth, err
	}
	both := append(append([]byte{}, out.Stdout...), out.Stderr...)
	if !tokens.Fewer([][]byte{out.Stdout, out.Stderr}, [][]byte{c.stdout, c.stderr}) {
		return out, rawBoth, nil
	}
	return out, both, nil
}

func goldenText(out Output, err error) []byte {
	if err != nil {
		return []byte("render error (the runner prints the raw output): " + err.Error() + "\n")
	}
	var b bytes.Buffer
	b.Write(out.Stdout)
	if len(out.Stderr) > 0 {
		b.WriteString("--- stderr ---\n")
		b.Write(out.Stderr)
	}
	return b.Bytes()
}

// normalize folds runs of blanks, so column alignment does not count as
// a change of a must line.
var blanks = regexp.MustCompile(`[ \t]+`)

func normalize(s string) string {
	return blanks.ReplaceAllString(strings.TrimSpace(s), " ")
}

// missingMust returns the must lines the shown output lacks.
func missingMust(c corpusCase, shown []byte) []string {
	var text strings.Builder
	for _, l := range lines(shown) {
		text.WriteString(normalize(l))
		text.WriteByte('\n')
	}
	var missing []string
	for _, m := range c.must {
		if loc, ok := strings.CutPrefix(m, locatorPrefix); ok {
			if !hasWholeLocator(shown, loc, c.wd) {
				missing = append(missing, m)
			}
			continue
		}
		if !strings.Contains(text.String(), normalize(m)) {
			missing = append(missing, m)
		}
	}
	return missing
}

// TestCorpus: every case renders to its golden file, keeps every must
// line, and ran the argv Args produces.
func TestCorpus(t *testing.T) {
	for _, c := range loadCorpus(t) {
		t.Run(c.name, func(t *testing.T) {
			f := For(c.match.Rule.Handler)
			if f == nil {
				t.Fatalf("no filter for handler %q", c.match.Rule.Handler)
			}
			if got := f.Args(c.argv, c.match.Tool); strings.Join(got, "\x00") != strings.Join(c.ran, "\x00") {
				t.Errorf("Args(%q) = %q, but the corpus ran %q: recapture the case", c.argv, got, c.ran)
			}
			out, shown, err := render(c)
			got := goldenText(out, err)
			golden := filepath.Join(c.dir, "golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, _ := os.ReadFile(golden)
			if !bytes.Equal(got, want) {
				t.Errorf("rendering differs from %s (run with -update to accept):\n--- got ---\n%s", golden, got)
			}
			if len(c.must) == 0 && len(c.stdout)+len(c.stderr) > 0 {
				t.Errorf("%s/must is empty: every case names the lines that must survive", c.dir)
			}
			if err == nil {
				// must lines are checked against the filter's own output,
				// not against the raw fallback
				shown = append(append([]byte{}, out.Stdout...), out.Stderr...)
			}
			for _, m := range missingMust(c, shown) {
				t.Errorf("must line lost: %q", m)
			}
		})
	}
}

// successWords are lines that claim success; each needs evidence in the
// raw output (the word or the tool's own equivalent).
var successClaims = []struct{ claim, evidence *regexp.Regexp }{
	{regexp.MustCompile(`(?i)\bpassed\b`), regexp.MustCompile(`(?i)\bpass(ed)?\b|\bok\b|✓`)},
	{regexp.MustCompile(`\bok\b`), regexp.MustCompile(`(?i)\bok\b`)},
	{regexp.MustCompile(`(?i)\bsuccess(ful(ly)?)?\b`), regexp.MustCompile(`(?i)\bsuccess`)},
	{regexp.MustCompile(`(?i)\bno (errors|issues|problems)\b`), regexp.MustCompile(`(?i)\bno (errors|issues|problems)\b`)},
	{regexp.MustCompile(`(?i)nothing to commit`), regexp.MustCompile(`^# branch\.`)},
}

// checkNoInventedSuccess fails when out claims a success raw does not show.
func checkNoInventedSuccess(t *testing.T, raw, out []byte) {
	t.Helper()
	// the evidence as a terminal shows it: "\x1b[32mSUCCESS" says SUCCESS
	raw = []byte(ansi.ReplaceAllString(string(raw), ""))
	for _, l := range lines(out) {
		for _, s := range successClaims {
			if s.claim.MatchString(l) && !s.evidence.Match(raw) {
				t.Errorf("claims success without evidence in the raw output: %q", l)
			}
		}
	}
}

// TestNeverInventSuccess: on the corpus's red runs, and on synthetic red
// output for every handler, no success line appears that the tool did not
// print.
func TestNeverInventSuccess(t *testing.T) {
	for _, c := range loadCorpus(t) {
		if c.exit == 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			out, _, err := render(c)
			if err != nil {
				return
			}
			raw := append(append([]byte{}, c.stdout...), c.stderr...)
			checkNoInventedSuccess(t, raw, append(out.Stdout, out.Stderr...))
			if len(bytes.TrimSpace(raw)) > 0 && len(bytes.TrimSpace(append(out.Stdout, out.Stderr...))) == 0 {
				t.Errorf("a red run rendered to nothing")
			}
		})
	}
	red := "error: build broke at main.go:12:3\nFAIL\tpkg/x\t0.01s\npanic: boom\n"
	for _, r := range registry.Rules() {
		t.Run("synthetic/"+r.ID, func(t *testing.T) {
			argv := append([]string{r.Program}, strings.Fields(firstSub(r))...)
			in := Input{Argv: argv, RanArgv: argv, Stdout: []byte(red), Stderr: []byte("fatal: could not read x\n"), Exit: 1, Recall: func() string { return testRecall }}
			out, err := For(r.Handler).Render(in)
			if err != nil {
				return
			}
			got := string(out.Stdout) + string(out.Stderr)
			checkNoInventedSuccess(t, []byte(red), []byte(got))
			for _, want := range []string{"main.go:12:3", "panic: boom", "fatal: could not read x"} {
				if !strings.Contains(got, want) {
					t.Errorf("%s lost %q:\n%s", r.Handler, want, got)
				}
			}
		})
	}
}

func firstSub(r registry.Rule) string {
	if len(r.Sub) == 0 {
		return ""
	}
	return r.Sub[0]
}

// TestCapSaysSo: when a filter shows fewer lines of plain, distinct,
// noise-free output than it got, it says how to see the rest.
func TestCapSaysSo(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "data line %d holds value %d\n", i, i*7)
	}
	for _, r := range registry.Rules() {
		t.Run(r.ID, func(t *testing.T) {
			argv := append([]string{r.Program}, strings.Fields(firstSub(r))...)
			in := Input{Argv: argv, RanArgv: argv, Stdout: []byte(b.String()), Recall: func() string { return testRecall }}
			out, err := For(r.Handler).Render(in)
			if err != nil {
				return
			}
			if n := len(lines(out.Stdout)); n < 5000 && !strings.Contains(string(out.Stdout), testRecall) {
				t.Errorf("%s showed %d of 5000 lines without a recall hint", r.Handler, n)
			}
		})
	}
	// every "… N more" note in the corpus renderings names the recall
	more := regexp.MustCompile(`… \d+ more`)
	for _, c := range loadCorpus(t) {
		out, _, err := render(c)
		if err != nil {
			continue
		}
		if s := string(out.Stdout) + string(out.Stderr); more.MatchString(s) && !strings.Contains(s, testRecall) {
			t.Errorf("%s: truncates without a recall hint", c.name)
		}
	}
}

// TestArgsKeepUserArgs: Args only inserts; the user's words stay, in order.
func TestArgsKeepUserArgs(t *testing.T) {
	extra := [][]string{
		nil,
		{"--", "path with space"},
		{"-v", "./..."},
		{"-o", "json"},
		{"--format=%H", "-n", "3"},
		{"-s"},
		{"--json"},
	}
	check := func(t *testing.T, handler string, argv []string, tool int) {
		got := For(handler).Args(argv, tool)
		i := 0
		for _, w := range got {
			if i < len(argv) && w == argv[i] {
				i++
			}
		}
		if i != len(argv) {
			t.Errorf("%s: Args(%q) = %q drops or reorders the user's words", handler, argv, got)
		}
		if len(got) > len(argv) && slicesIndex(got, "--") >= 0 && slicesIndex(got, "--") < slicesIndex(argv, "--") {
			t.Errorf("%s: Args(%q) = %q adds flags after --", handler, argv, got)
		}
	}
	for _, r := range registry.Rules() {
		for _, sub := range append([]string{""}, r.Sub...) {
			for _, x := range extra {
				argv := append(append([]string{r.Program}, strings.Fields(sub)...), x...)
				check(t, r.Handler, argv, 0)
				check(t, r.Handler, append([]string{"npx"}, argv...), 1)
			}
		}
	}
	for _, c := range loadCorpus(t) {
		check(t, c.match.Rule.Handler, c.argv, c.match.Tool)
	}
	// flags the user set are never added twice or overridden
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"go", "test", "-json", "./..."}, "go test -json ./..."},
		{[]string{"go", "test", "-bench", ".", "./..."}, "go test -bench . ./..."},
		{[]string{"go", "test", "./...", "-args", "-json"}, "go test -json ./... -args -json"},
		{[]string{"git", "status", "--porcelain"}, "git status --porcelain"},
		{[]string{"git", "status", "-sb"}, "git status -sb"},
		{[]string{"git", "-C", "x", "status", "--", "a"}, "git -C x status --porcelain=v2 -b -- a"},
		{[]string{"git", "log", "--oneline"}, "git log --oneline"},
		{[]string{"git", "log", "--pretty=format:%s"}, "git log --pretty=format:%s"},
		{[]string{"git", "log", "--date=iso", "-n", "3"}, "git log --format=\x1e%h\x1f%ad\x1f%an\x1f%D\x1f%p\x1f%B --date=iso -n 3"},
		{[]string{"ruff", "check", "--output-format=json"}, "ruff check --output-format=json"},
	} {
		m, ok := registry.Classify(tc.argv)
		if !ok {
			t.Fatalf("%q: no rule", tc.argv)
		}
		if got := strings.Join(For(m.Rule.Handler).Args(tc.argv, m.Tool), " "); got != tc.want {
			t.Errorf("Args(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}

func slicesIndex(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return len(ss) + 1
}

// TestEveryHandlerHasAFilter: the registry and this package agree.
func TestEveryHandlerHasAFilter(t *testing.T) {
	for _, r := range registry.Rules() {
		if For(r.Handler) == nil {
			t.Errorf("rule %s: no filter for handler %q", r.ID, r.Handler)
		}
	}
}

// TestNoPanicOnForeignOutput feeds every corpus output to every filter:
// a filter handed output it does not expect (a wrapper script, a newer
// tool version) may fail to parse, but must not panic.
func TestNoPanicOnForeignOutput(t *testing.T) {
	cases := loadCorpus(t)
	seen := map[string]bool{}
	for _, r := range registry.Rules() {
		if seen[r.Handler] {
			continue
		}
		seen[r.Handler] = true
		f := For(r.Handler)
		argv := append([]string{r.Program}, strings.Fields(firstSub(r))...)
		for _, c := range cases {
			in := c.input()
			in.Argv, in.Tool, in.RanArgv = argv, 0, f.Args(argv, 0)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s on %s's output: panic: %v", r.Handler, c.name, p)
					}
				}()
				_, _ = f.Render(in)
			}()
		}
	}
}
