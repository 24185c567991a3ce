package filter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gotk-dev/gotk/runner/window"
)

// goTest renders `go test`: it runs `go test -json` and prints the failing
// tests' output verbatim, build errors verbatim, and one count line the
// JSON events prove: `go test: 142 passed in 9 packages`.
type goTest struct{}

// goNoise is go's module download chatter.
var goNoise = []*lazyRegexp{
	lazy(`^go: (downloading|finding|extracting) \S+ v`),
}

// goFlag reports whether the user set one of go's flags (go accepts -x,
// --x, -x=v and, for test flags, -test.x).
func goFlag(args []string, names ...string) bool {
	for _, a := range args {
		if a == "--" || a == "-args" || a == "--args" {
			return false
		}
		for _, n := range names {
			for _, p := range []string{"-", "--", "-test.", "--test."} {
				if a == p+n || strings.HasPrefix(a, p+n+"=") {
					return true
				}
			}
		}
	}
	return false
}

// Args adds -json unless the user asked for JSON already or for a mode
// whose output is not test events (benchmarks, -list, -c, fuzzing).
func (goTest) Args(argv []string, tool int) []string {
	at := subIndex(argv, tool, "test")
	if at < 0 || goFlag(argv[at+1:], "json", "bench", "list", "c", "fuzz", "h", "help", "o") {
		return argv
	}
	return insertAt(argv, at+1, "-json")
}

// goTestKey names a test's output: its package and test ("" for the
// package's own lines).
type goTestKey struct{ pkg, test string }

// testEvent is one line of `go test -json` (cmd/test2json).
type testEvent struct {
	Action      string
	Package     string
	ImportPath  string // build-output, build-fail
	Test        string
	Output      string
	FailedBuild string
}

// goEventCount counts go test -json's results: tests passed, failed and
// skipped, packages passed, failed, and without tests.
type goEventCount struct {
	passed, failed, skipped, pkgOK, pkgFail, pkgNone int
}

// add counts one event: a pass, fail or skip of a test or of a package
// (a package's skip: it has no tests); any other action counts nothing.
func (c *goEventCount) add(e testEvent) {
	test := e.Test != ""
	switch {
	case e.Action == "pass" && test:
		c.passed++
	case e.Action == "fail" && test:
		c.failed++
	case e.Action == "skip" && test:
		c.skipped++
	case e.Action == "pass":
		c.pkgOK++
	case e.Action == "fail":
		c.pkgFail++
	case e.Action == "skip":
		c.pkgNone++
	}
}

// summary is go test's count line for c.
func (c goEventCount) summary() string {
	return goTestSummary(c.passed, c.failed, c.skipped, c.pkgOK+c.pkgFail, c.pkgFail, c.pkgNone)
}

// testFraming are test2json's own framing lines, noise in every rendering.
var testFraming = lazy(`^\s*=== (RUN|PAUSE|CONT|NAME)\s`)

// Render prints failures verbatim and counts the rest.
func (goTest) Render(in Input) (Output, error) {
	if at := subIndex(in.Argv, in.Tool, "test"); at >= 0 && goFlag(in.Argv[at+1:], "json") {
		return raw(in), nil // the user asked for the events themselves
	}
	if !bytes.HasPrefix(bytes.TrimSpace(in.Stdout), []byte("{")) {
		return lineFilter{noise: goNoise}.Render(in)
	}
	var (
		other          []string // stdout lines that are not events
		order          []goTestKey
		out            = map[goTestKey][]string{}
		build          = map[string][]string{}
		buildOrder     []string
		failed         []goTestKey
		pkgFail, pkgOK []string
		counts         goEventCount
		evs            int
		coverage       []string
	)
	for _, l := range bytes.Split(in.Stdout, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var e testEvent
		if l[0] != '{' || json.Unmarshal(l, &e) != nil {
			other = append(other, string(l))
			continue
		}
		evs++
		counts.add(e)
		k := goTestKey{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			if _, ok := build[e.ImportPath]; !ok {
				buildOrder = append(buildOrder, e.ImportPath)
			}
			build[e.ImportPath] = append(build[e.ImportPath], strings.TrimSuffix(e.Output, "\n"))
		case "output":
			if _, ok := out[k]; !ok {
				order = append(order, k)
			}
			out[k] = append(out[k], strings.TrimSuffix(e.Output, "\n"))
		case "pass":
			if e.Test == "" {
				pkgOK = append(pkgOK, e.Package)
			}
		case "fail":
			if e.Test != "" {
				failed = append(failed, k)
			} else {
				pkgFail = append(pkgFail, e.Package)
			}
		}
	}
	if evs == 0 && len(in.Stdout) > 0 {
		return Output{}, errors.New("go test: no JSON events in output")
	}
	// Failures print package by package, in the order packages finished:
	// the build errors, each failed test's output, then the package's own
	// lines (FAIL pkg, a panic outside any test).
	// A package that fails to build fails again as part of its test
	// binary ("# pkg" then "# pkg [pkg.test]"): the same errors are
	// printed once, the second header says so.
	var res []string
	seen := map[string]bool{}
	for _, ip := range buildOrder {
		b := build[ip]
		body := strings.Join(b[min(1, len(b)):], "\n")
		if len(b) > 1 && strings.HasPrefix(b[0], "# ") && seen[body] {
			res = append(res, b[0]+" (the same errors as above)")
			continue
		}
		seen[body] = true
		res = append(res, b...)
	}
	failedPkg := map[string]bool{}
	for _, p := range pkgFail {
		failedPkg[p] = true
	}
	for _, pkg := range pkgFail {
		for _, k := range failed {
			if k.pkg == pkg {
				res = append(res, capKeeping(foldGoFrames(foldTestify(dropMatching(out[k], testFraming), k.test, in), in), 150, nil, in)...)
			}
		}
		var pkgLines []string
		for _, l := range out[goTestKey{pkg, ""}] {
			if l != "FAIL" && !testFraming.MatchString(l) {
				pkgLines = append(pkgLines, l)
			}
		}
		res = append(res, foldGoFrames(pkgLines, in)...)
	}
	for _, k := range failed {
		if !failedPkg[k.pkg] { // a failed test in a package that did not report
			res = append(res, capKeeping(foldGoFrames(foldTestify(dropMatching(out[k], testFraming), k.test, in), in), 150, nil, in)...)
		}
	}
	for _, k := range order {
		if k.test != "" || failedPkg[k.pkg] {
			continue
		}
		for _, l := range out[k] {
			if strings.Contains(l, "coverage:") && strings.HasPrefix(l, "ok") {
				coverage = append(coverage, l)
			}
		}
	}
	res = append(res, passedOutput(in, order, out, failed, counts.passed+counts.failed+counts.skipped)...)
	res = append(res, other...)
	res = append(res, coverage...)
	res = append(res, counts.summary())
	if len(pkgOK) > 0 {
		res = append(res, "  ok: "+foldPackages(pkgOK))
	}
	if in.Dir != "" {
		for i, l := range res {
			res[i] = relPath(l, in.Dir)
		}
	}
	return Output{Stdout: join(res), Stderr: keepStderr(in, goNoise...)}, nil
}

// goTestSummary is the count line; each number comes from the events.
func goTestSummary(passed, failed, skipped, pkgs, pkgFailed, noTests int) string {
	var parts []string
	if passed > 0 {
		parts = append(parts, fmt.Sprintf("%d passed", passed))
	}
	if failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", failed))
	}
	if skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", skipped))
	}
	if len(parts) == 0 {
		parts = append(parts, "no tests ran")
	}
	s := "go test: " + strings.Join(parts, ", ") + " in " + plural(pkgs, "package", "packages")
	if pkgFailed > 0 {
		s += fmt.Sprintf(" (%d failed)", pkgFailed)
	}
	if noTests > 0 {
		s += fmt.Sprintf("; %s without test files", plural(noTests, "package", "packages"))
	}
	return s
}

// foldGoFrames drops the frames of a goroutine trace that sit in Go's
// runtime and testing packages (function line and file line), leaving the
// panic message, the goroutine header and every frame of the user's code;
// one note per trace says how many went and how to see them.
func foldGoFrames(ls []string, in Input) []string {
	var out []string
	dropped := 0
	inTrace := false
	note := func() {
		if dropped > 0 {
			out = append(out, fmt.Sprintf("\t… %d runtime/testing frames: %s", dropped, in.Recall()))
			dropped = 0
		}
	}
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		if strings.HasPrefix(l, "goroutine ") && strings.HasSuffix(l, ":") {
			note()
			inTrace = true
			out = append(out, l)
			continue
		}
		if inTrace {
			if i+1 < len(ls) && !strings.HasPrefix(l, "\t") && strings.HasPrefix(ls[i+1], "\t") {
				if !window.GoRuntimeFrame(ls[i+1]) {
					out = append(out, l, ls[i+1])
				} else {
					dropped++
				}
				i++
				continue
			}
			note()
			inTrace = false
		}
		out = append(out, l)
	}
	note()
	return out
}

// Stream renders `go test -json` events as they arrive, as Plain does:
// go test itself prints a package's output when the package ends (and with
// -v as it comes), so each package's events are held until its last one
// and then rendered by Plain; lines of no package (build output, lines
// that are not events) pass at once.
func (g goTest) Stream(in Input) func(line []byte) []byte {
	at := subIndex(in.Argv, in.Tool, "test")
	verbose := at >= 0 && goFlag(in.Argv[at+1:], "v")
	held := map[string][]byte{}
	var order []string
	plain := func(b []byte) []byte {
		one := in
		one.Stdout = b
		if p, ok := g.Plain(one); ok {
			return p
		}
		return append([]byte{}, b...)
	}
	return func(line []byte) []byte {
		if line == nil {
			var out []byte
			for _, pkg := range order {
				if b, ok := held[pkg]; ok {
					out = append(out, plain(b)...)
				}
			}
			clear(held)
			return out
		}
		var e testEvent
		if verbose || len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil || e.Package == "" {
			return plain(line)
		}
		if _, ok := held[e.Package]; !ok {
			order = append(order, e.Package)
		}
		held[e.Package] = append(held[e.Package], line...)
		if e.Test != "" || (e.Action != "pass" && e.Action != "fail" && e.Action != "skip") {
			return nil
		}
		out := plain(held[e.Package])
		delete(held, e.Package)
		return out
	}
}

// Plain renders `go test -json` events as go test prints them without
// -json: the concatenated Output of the events, as the tool itself
// prints it. Without -v, go test shows a passing package as its one
// `ok` line and, for a failing one, only what its failing tests and the
// package printed, without the === RUN framing -json adds; build errors
// (build-output events) come where go test reports them. Lines that are
// not events pass as they are.
func (goTest) Plain(in Input) ([]byte, bool) {
	at := subIndex(in.Argv, in.Tool, "test")
	if at < 0 || goFlag(in.Argv[at+1:], "json") || !bytes.HasPrefix(bytes.TrimSpace(in.Stdout), []byte("{")) {
		return nil, false
	}
	verbose := goFlag(in.Argv[at+1:], "v")
	var evs []testEvent
	var others []int // index in evs before which a non-event line comes
	var otherLines []string
	failed := map[goTestKey]bool{}
	ended := map[string]bool{} // packages whose result came
	for _, l := range bytes.SplitAfter(in.Stdout, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var e testEvent
		if l[0] != '{' || json.Unmarshal(l, &e) != nil {
			others = append(others, len(evs))
			otherLines = append(otherLines, string(l))
			continue
		}
		if e.Action == "fail" {
			failed[goTestKey{e.Package, e.Test}] = true
		}
		if e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip") {
			ended[e.Package] = true
		}
		evs = append(evs, e)
	}
	var b strings.Builder
	// Without -v a failing test's output comes under its "--- FAIL" line
	// (go test prints the test's buffered output after its result); the
	// events carry it before: hold it until the result line.
	held := map[goTestKey][]string{}
	o := 0
	for i, e := range evs {
		for ; o < len(others) && others[o] == i; o++ {
			b.WriteString(otherLines[o])
		}
		switch {
		case e.Action == "build-output":
			b.WriteString(e.Output)
		case e.Action != "output":
		case verbose:
			b.WriteString(e.Output)
		case !failed[goTestKey{e.Package, ""}] && ended[e.Package]:
			// A passing package: its summary line only. One cut short (gotk
			// was killed) shows, like a failing one, what its failing tests
			// and the package printed: what go test had streamed by then.
			if e.Test == "" && (strings.HasPrefix(e.Output, "ok ") || strings.HasPrefix(e.Output, "?   ")) {
				b.WriteString(e.Output)
			}
		case testFraming.MatchString(e.Output):
		case e.Test == "":
			b.WriteString(e.Output)
		case failed[goTestKey{e.Package, e.Test}]:
			k := goTestKey{e.Package, e.Test}
			if !strings.HasPrefix(strings.TrimLeft(e.Output, " "), "--- FAIL: ") {
				held[k] = append(held[k], e.Output)
				continue
			}
			b.WriteString(e.Output)
			for _, h := range held[k] {
				b.WriteString(h)
			}
			delete(held, k)
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(held), func(a, b goTestKey) int { return strings.Compare(a.pkg+" "+a.test, b.pkg+" "+b.test) }) {
		for _, h := range held[k] {
			b.WriteString(h)
		}
	}
	for ; o < len(others); o++ {
		b.WriteString(otherLines[o])
	}
	return []byte(b.String()), true
}

// foldPackages names import paths once their common prefix is said once:
// "example.com/m/{api, store, store/sql}".
func foldPackages(pkgs []string) string {
	pkgs = slices.Clone(pkgs)
	slices.Sort(pkgs)
	if len(pkgs) == 1 {
		return pkgs[0]
	}
	prefix := pkgs[0]
	for _, p := range pkgs[1:] {
		for !strings.HasPrefix(p, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	prefix = prefix[:strings.LastIndexByte(prefix, '/')+1]
	rest := make([]string, len(pkgs))
	for i, p := range pkgs {
		rest[i] = strings.TrimPrefix(p, prefix)
	}
	return prefix + "{" + strings.Join(rest, ", ") + "}"
}

// testifyField is one line of a testify failure block: "\tLabel:  \tvalue",
// or "\t        \tvalue" continuing the label above.
var testifyField = lazy(`^\s+\t([A-Za-z ]+:|\s*)\s*\t(.*)$`)

// testifyHead is the t.Errorf location line testify's block hangs from.
var testifyHead = lazy(`^(\s*)(\S+\.go:\d+): $`)

// foldTestify folds each testify/assert failure block to its location,
// its message, expected and actual, and the assertion's own message:
//
//	cart_test.go:13: Not equal:
//	    expected: 19
//	    actual  : 10
//	    Messages: total of the cart
//
// Dropped: the "Test:" line when it names the failing test (its --- FAIL
// line does), the Error Trace when it is the location itself, the Diff
// when expected and actual are one line each (it repeats them). Paths
// under the working directory are shown relative.
func foldTestify(ls []string, test string, in Input) []string {
	var out []string
	for i := 0; i < len(ls); i++ {
		h := testifyHead.FindStringSubmatch(ls[i])
		if h == nil || i+1 >= len(ls) || !strings.Contains(ls[i+1], "\tError Trace:") {
			out = append(out, ls[i])
			continue
		}
		type field struct {
			label string
			vals  []string
		}
		var fs []*field
		j := i + 1
		for ; j < len(ls); j++ {
			m := testifyField.FindStringSubmatch(ls[j])
			if m == nil {
				break
			}
			if label := strings.TrimSpace(m[1]); label != "" {
				fs = append(fs, &field{label: strings.TrimSuffix(label, ":")})
			} else if len(fs) == 0 {
				break
			}
			f := fs[len(fs)-1]
			f.vals = append(f.vals, strings.TrimRight(m[2], " \t"))
		}
		indent, loc := h[1], h[2]
		pad := indent + "    "
		head := indent + loc + ":"
		var body []string
		for _, f := range fs {
			switch f.label {
			case "Error Trace":
				var trace []string
				for _, v := range f.vals {
					if v = strings.TrimSpace(v); v != "" {
						trace = append(trace, relPath(v, in.Dir))
					}
				}
				if len(trace) == 1 && (trace[0] == loc || strings.HasSuffix(trace[0], "/"+loc)) {
					continue
				}
				body = append(body, pad+"Error Trace: "+strings.Join(trace, ", "))
			case "Test":
				if len(f.vals) == 1 && f.vals[0] == test {
					continue
				}
				body = append(body, pad+"Test: "+strings.Join(f.vals, " "))
			case "Error":
				vals := testifyDropDiff(f.vals)
				head += " " + vals[0]
				for _, v := range vals[1:] {
					body = append(body, pad+v)
				}
			default:
				body = append(body, pad+f.label+": "+f.vals[0])
				for _, v := range f.vals[1:] {
					body = append(body, pad+"  "+v)
				}
			}
		}
		out = append(out, head)
		out = append(out, body...)
		i = j - 1
	}
	return out
}

// testifyDropDiff drops the "Diff:" section of an Error whose expected and
// actual values are one line each (the diff says nothing more), and the
// blank line before it.
func testifyDropDiff(vals []string) []string {
	d := slices.Index(vals, "Diff:")
	if d < 0 {
		return vals
	}
	exp, act := -1, -1
	for i, v := range vals[:d] {
		switch {
		case strings.HasPrefix(v, "expected: "):
			exp = i
		case strings.HasPrefix(v, "actual  : "):
			act = i
		}
	}
	if exp < 0 || act != exp+1 || act+1 < d && strings.TrimSpace(vals[act+1]) != "" {
		return vals
	}
	return vals[:act+1]
}
