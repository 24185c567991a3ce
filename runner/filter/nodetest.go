package filter

import (
	"strings"
)

// nodeTest renders node's own test runner (`node --test`) in its TAP
// form, the one it prints when its output is not a terminal: passing
// tests are counted by node's own summary, which stays as one line; each
// failure is shown whole: its full name (suites > test), where it is
// declared, the error with its diff, expected and actual, and the first
// stack frame in the project. Comment lines that are not TAP's own (what
// the tests printed, a test file that would not load) stay as written.
type nodeTest struct{ same }

// tapResult is a TAP test point: indent, "ok"/"not ok", number, name and
// an optional "# SKIP"/"# TODO" directive.
var tapResult = lazy(`^(\s*)(ok|not ok) \d+(?: - (.*))?$`)

// nodeSummary are the counts node prints after the last test.
var nodeSummary = lazy(`^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\S+)$`)

// Render keeps failures and the summary. Output that is not TAP is node's
// spec reporter's (its default on a terminal, and --test-reporter=spec).
func (nodeTest) Render(in Input) (Output, error) {
	ls := lines(in.Stdout)
	for len(ls) > 0 && strings.TrimSpace(ls[0]) == "" {
		ls = ls[1:] // npm's blank line before its banner
	}
	if len(ls) == 0 || !strings.HasPrefix(ls[0], "TAP version") {
		return nodeSpec(in, ls), nil
	}
	var out, summary []string
	var names []string // the enclosing subtests' names, by depth
	passed, failed := 0, 0
	for i := 1; i < len(ls); i++ {
		l := ls[i]
		t := strings.TrimLeft(l, " ")
		depth := (len(l) - len(t)) / 4
		switch {
		case strings.HasPrefix(t, "# Subtest: "):
			names = append(names[:min(depth, len(names))], strings.TrimPrefix(t, "# Subtest: "))
		case tapResult.MatchString(l):
			m := tapResult.FindStringSubmatch(l)
			yaml, next := tapYAML(ls, i+1, len(m[1])+2)
			i = next - 1
			if m[2] == "ok" {
				passed++
				continue
			}
			if tapValue(yaml["failureType"]) == "subtestsFailed" {
				continue // a suite: its failing tests are shown themselves
			}
			failed++
			name := m[3]
			if depth < len(names) {
				name = strings.Join(names[:depth+1], " > ")
			}
			out = append(out, nodeFailure(name, yaml, in)...)
		case nodeSummary.MatchString(l):
			summary = nodeCount(summary, nodeSummary.FindStringSubmatch(l))
		case strings.HasPrefix(t, "1.."), strings.TrimSpace(l) == "":
		default:
			// what a test printed, a file that failed to load
			out = append(out, relPath(strings.ReplaceAll(t, "file://", ""), in.Dir))
		}
	}
	if len(summary) > 0 {
		out = append(out, "# "+strings.Join(summary, ", "))
	} else {
		// no summary: the run was cut short; say what was seen
		out = append(out, "# "+plural(passed, "test", "tests")+" passed, "+plural(failed, "failed", "failed")+" before the run ended")
	}
	return Output{Stdout: join(dedupe(out)), Stderr: join(dropBlankRuns(lines(in.Stderr)))}, nil
}

// tapYAML reads the YAML block of a test point starting at ls[i] ("  ---"
// at indent ind) into its top-level keys, each with its lines (an inline
// value is its one line; a block or a nested map, "|" then its lines
// un-indented).
// It returns where the block ends; without a block, i.
func tapYAML(ls []string, i, ind int) (map[string][]string, int) {
	pad := strings.Repeat(" ", ind)
	if i >= len(ls) || ls[i] != pad+"---" {
		return nil, i
	}
	y := map[string][]string{}
	key := ""
	for i++; i < len(ls); i++ {
		l := ls[i]
		if l == pad+"..." {
			return y, i + 1
		}
		body, ok := strings.CutPrefix(l, pad)
		if !ok { // a blank line inside a block
			if key != "" {
				y[key] = append(y[key], "")
			}
			continue
		}
		if !strings.HasPrefix(body, " ") {
			k, v, _ := strings.Cut(body, ":")
			key = k
			v = strings.TrimSpace(v)
			switch v {
			case "", "|", "|-", ">", ">-":
				y[key] = []string{"|"}
			default:
				y[key] = []string{v}
			}
			continue
		}
		if key != "" {
			y[key] = append(y[key], strings.TrimPrefix(body, "  "))
		}
	}
	return y, i
}

// tapValue is a one-line YAML value without its quotes.
func tapValue(v []string) string {
	if len(v) != 1 {
		return ""
	}
	s := v[0]
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		s = strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

// nodeFailure is one failing test as it is shown: its name and where it
// is declared, the error (prefixed with its type unless an assertion),
// expected and actual, and the stack's first frame in the project.
func nodeFailure(name string, y map[string][]string, in Input) []string {
	head := "not ok - " + relPath(name, in.Dir)
	if loc := tapValue(y["location"]); loc != "" {
		head += " (" + relPath(loc, in.Dir) + ")"
	}
	out := []string{head}
	msg := y["error"]
	if len(msg) == 1 {
		msg = []string{tapValue(msg)}
	} else if len(msg) > 1 {
		msg = msg[1:]
	}
	if n := tapValue(y["name"]); n != "" && n != "AssertionError" && len(msg) > 0 {
		msg = append([]string{n + ": " + msg[0]}, msg[1:]...)
	}
	for _, l := range msg {
		out = append(out, strings.TrimRight("  "+relPath(l, in.Dir), " "))
	}
	for _, k := range []string{"expected", "actual"} {
		v, ok := y[k]
		switch {
		case !ok:
		case len(v) == 1:
			out = append(out, "  "+k+": "+v[0])
		default:
			out = append(out, "  "+k+":")
			for _, l := range v[1:] {
				out = append(out, "    "+l)
			}
		}
	}
	if f := projectFrame(y["stack"]); f != "" {
		out = append(out, "  at "+relPath(f, in.Dir))
	}
	return out
}

// projectFrame is the first stack frame in the project's own code: not
// node's internals, not a dependency.
func projectFrame(stack []string) string {
	for _, f := range stack {
		if f == "|" {
			continue
		}
		f = strings.TrimSpace(strings.ReplaceAll(f, "file://", ""))
		if f == "" || strings.Contains(f, "(node:") || strings.HasPrefix(f, "node:") || strings.Contains(f, "/node_modules/") {
			continue
		}
		return f
	}
	return ""
}

// specLine is a test's line in the spec reporter: passed, failed, a
// suite's header, skipped or todo, with its indent.
var (
	specPass    = lazy(`^\s*(✔|﹣|▶) `)
	specFail    = lazy(`^(\s*)✖ `)
	specSummary = lazy(`^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\S+)$`)
	specFrame   = lazy(`^\s+at `)
)

// nodeSpec renders the spec reporter: passing tests and suite headers go,
// the counts become one line, and each failure is shown once (spec
// prints them again under "✖ failing tests:", with where each test is
// declared: that list is the one kept) with node's own stack frames
// left out. Anything else (what the tests printed) stays.
func nodeSpec(in Input, ls []string) Output {
	failing := -1
	for i, l := range ls {
		if l == "✖ failing tests:" {
			failing = i
		}
	}
	var out, summary []string
	top := ls
	if failing >= 0 {
		top = ls[:failing]
	}
	for i := 0; i < len(top); i++ {
		l := top[i]
		switch {
		case specPass.MatchString(l):
		case specSummary.MatchString(l):
			summary = nodeCount(summary, specSummary.FindStringSubmatch(l))
		case specFail.MatchString(l) && failing >= 0:
			// shown in the list of failing tests below: skip its block
			ind := len(specFail.FindStringSubmatch(l)[1])
			for i+1 < len(top) && (strings.TrimSpace(top[i+1]) == "" || len(top[i+1])-len(strings.TrimLeft(top[i+1], " ")) > ind) {
				i++
			}
		default:
			out = append(out, relPath(strings.ReplaceAll(l, "file://", ""), in.Dir))
		}
	}
	if failing >= 0 {
		shown := false // whether a frame of the current failure is shown
		for _, l := range ls[failing+1:] {
			switch {
			case specFail.MatchString(l):
				shown = false
			case specFrame.MatchString(l):
				f := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "at "))
				brace := strings.HasSuffix(f, " {")
				if shown || projectFrame([]string{strings.TrimSuffix(f, " {")}) == "" {
					if brace {
						out = append(out, "  {") // the error's properties follow
					}
					continue
				}
				shown = true
			}
			out = append(out, relPath(strings.ReplaceAll(l, "file://", ""), in.Dir))
		}
	}
	out = dropBlankRuns(out)
	if len(summary) > 0 {
		out = append(out, "ℹ "+strings.Join(summary, ", "))
	}
	return Output{Stdout: join(out), Stderr: join(dropBlankRuns(lines(in.Stderr)))}
}

// nodeCount adds one of node's closing counts (name, value) to the
// summary line: tests, pass and fail always, the others when not zero.
func nodeCount(summary, m []string) []string {
	if m[2] != "0" || m[1] == "tests" || m[1] == "pass" || m[1] == "fail" {
		summary = append(summary, m[1]+" "+m[2])
	}
	return summary
}
