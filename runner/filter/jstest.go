package filter

import (
	"strings"
)

// JS test runners (vitest, jest, playwright) print one line per passing
// test or file, failures with code frames, and their own count lines. The
// filter drops the passing lines and the banners, nothing else: failures,
// frames and the runner's own totals stay verbatim. Jest writes all of
// this to stderr, so the same list applies to both streams.
var jsTestNoise = []*lazyRegexp{
	lazy(`^\s*(✓|√|✔)\s`),                           // a passing test or file
	lazy(`^\s*PASS\s+\S`),                           // jest: a passing file
	lazy(`^\(pass\) \S`),                            // bun test: a passing test
	lazy(`^bun test v\d`),                           // bun test banner
	lazy(`^\s*RUN\s+v\d`),                           // vitest banner
	lazy(`^\s*Running \d+ tests? using \d+ worker`), // playwright banner
	lazy(`^\s*Start at\s`),
	lazy(`^\s*Determining test suites to run`),
	lazy(`^\s*Duration\s+[\d.]+m?s\b`),             // vitest: wall time, not a count
	lazy(`^Time:\s+[\d.]+ ?m?s\b`),                 // jest: wall time
	lazy(`^Snapshots:\s+0 total$`),                 // jest: no snapshots involved
	lazy(`^Ran all test suites( matching .*)?\.$`), // jest: echo of the pattern
	lazy(`^\s*⎯+\[\d+/\d+\]⎯*\s*$`),                // vitest: the rule closing failure i of n
}

// jsTest renders vitest, jest and playwright: the noise list on both
// streams, code frames cut to the failing line (the location line above
// them keeps the column), decorative rules shortened.
type jsTest struct{ same }

// codeFrame matches a line of a code frame: `  10 | src`, `> 12 | src`,
// vitest's `   10| src`, and the caret line `     |    ^`.
var (
	codeFrame     = lazy(`^\s*(>\s*)?\d+\s?\|`)
	codeFrameMark = lazy(`^\s*>\s*\d+\s?\|`)
	codeCaret     = lazy(`^\s*(\|\s*)?\^+\s*$`) // bun's caret has no bar
)

// Render applies the cuts to both streams; only stdout is capped.
func (jsTest) Render(in Input) (Output, error) {
	stdout, stderr := jsPrinted(in, func(ls []string) []string {
		return sameFailures(dropBlankRuns(dropEmptyFileHeads(trimFrames(trimRules(dropMatching(ls, jsTestNoise...))))))
	})
	return Output{
		Stdout: join(capKeeping(dropBlankRuns(stdout), 400, problem, in)),
		Stderr: join(dropBlankRuns(stderr)),
	}, nil
}

// fileHead is bun's heading over one test file's results
// ("test/query.test.ts:"); bunCount, a line of its closing counts.
var (
	fileHead = lazy(`^\S+\.(test|spec)\.[cm]?[jt]sx?:$`)
	bunCount = lazy(`^\s*\d+ (pass|fail|todo|skip)$`)
)

// dropEmptyFileHeads drops a file's heading once nothing is left under it
// (its tests all passed): what follows, past blank lines, is another
// heading, the closing counts or the end.
func dropEmptyFileHeads(ls []string) []string {
	var out []string
	for i, l := range ls {
		if fileHead.MatchString(l) {
			j := i + 1
			for j < len(ls) && strings.TrimSpace(ls[j]) == "" {
				j++
			}
			if j == len(ls) || fileHead.MatchString(ls[j]) || bunCount.MatchString(ls[j]) {
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// trimFrames keeps, of each code frame, the line it points at: the one
// marked with ">" or, when none is, the line above the caret.
func trimFrames(ls []string) []string {
	var out []string
	for i := 0; i < len(ls); {
		if !codeFrame.MatchString(ls[i]) && !codeCaret.MatchString(ls[i]) {
			out = append(out, ls[i])
			i++
			continue
		}
		j := i
		for j < len(ls) && (codeFrame.MatchString(ls[j]) || codeCaret.MatchString(ls[j])) {
			j++
		}
		frame := ls[i:j]
		kept := false
		for _, l := range frame {
			if codeFrameMark.MatchString(l) {
				out = append(out, l)
				kept = true
			}
		}
		if !kept {
			for k, l := range frame {
				if codeCaret.MatchString(l) && k > 0 {
					out = append(out, frame[k-1])
					kept = true
				}
			}
		}
		if !kept {
			out = append(out, frame...)
		}
		i = j
	}
	return out
}

// pwFailure heads one failure in playwright's list report
// ("  2) [firefox] › tests/cart.spec.ts:15:5 › cart › applies a coupon");
// pwSummary starts the closing counts ("  3 failed").
var (
	pwFailure = lazy(`^\s+(\d+)\) \S`)
	pwSummary = lazy(`^\s+\d+ (failed|flaky|passed|skipped|did not run|interrupted)\b`)
)

// sameFailures prints once a failure body that playwright repeats for
// each browser project: a later failure with the same text keeps its
// heading and names the earlier one.
func sameFailures(ls []string) []string {
	var out []string
	first := map[string]string{} // body -> number of its first failure
	for i := 0; i < len(ls); {
		m := pwFailure.FindStringSubmatch(ls[i])
		if m == nil {
			out = append(out, ls[i])
			i++
			continue
		}
		j := i + 1
		for j < len(ls) && !pwFailure.MatchString(ls[j]) && !pwSummary.MatchString(ls[j]) {
			j++
		}
		body := strings.Join(ls[i+1:j], "\n")
		if n, ok := first[body]; ok && strings.TrimSpace(body) != "" {
			indent := ls[i][:len(ls[i])-len(strings.TrimLeft(ls[i], " "))]
			out = append(out, ls[i], indent+"  (the same failure as "+n+") above)", "")
		} else {
			first[body] = m[1]
			out = append(out, ls[i:j]...)
		}
		i = j
	}
	return out
}

// ruleRun matches a run of a decoration character long enough to be a
// rule ("=====", "⎯⎯⎯⎯⎯", "_____").
var (
	ruleRun    = lazy(`={4,}|_{4,}|⎯{4,}|─{4,}|━{4,}`)
	ruleStart  = lazy(`^\s*(={4,}|_{4,}|⎯{4,}|─{4,}|━{4,})`)
	spacedRule = lazy(`^(_ ){4,}_?\s*$`)
	// trailingRule is a box-drawing rule padding a heading to the
	// terminal's width ("  1) [chromium] › a.spec.ts:15:5 › t ─────").
	trailingRule = lazy(`\S\s*(⎯{4,}|─{4,}|━{4,})\s*$`)
)

// trimRules shortens decorative rules in section headings to three
// characters ("=== FAILURES ===") and drops the rules that pad a heading
// out to the terminal's width.
func trimRules(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		switch {
		case spacedRule.MatchString(l):
			l = "_ _ _"
		case ruleStart.MatchString(l):
			l = ruleRun.ReplaceAllStringFunc(l, func(r string) string {
				c := []rune(r)[0]
				return string([]rune{c, c, c})
			})
		case trailingRule.MatchString(l):
			l = strings.TrimRight(l[:trailingRule.FindStringSubmatchIndex(l)[2]], " ")
		}
		out[i] = l
	}
	return out
}

// pytest renders pytest's default output: the session header and the
// per-file progress dots go; the FAILURES/ERRORS sections, the short
// summary and pytest's own closing count stay verbatim.
type pytest struct{ same }

var (
	pyHeader   = lazy(`^(=+ test session starts =+|platform \S+ -- Python|cachedir: |rootdir: |configfile: |plugins: |collecting \.\.\.|collected \d+ items?)`)
	pyProgress = lazy(`^(\S+\.py [.sxXfFEs]+\s*(\[\s*\d+%\])?|[.sxXfFEs]+\s*\[\s*\d+%\])$`)
	pyVerbose  = lazy(`^\S+::\S.* (PASSED|SKIPPED|XFAIL|XPASS)\s*(\[\s*\d+%\])?$`)
	pyClosing  = lazy(`^=+ (.*\d+ (passed|failed|error|errors|skipped|deselected|xfailed|xpassed|warnings?).* in [\d.]+s.*) =+$`)
)

// Render keeps every failure line.
func (pytest) Render(in Input) (Output, error) {
	var res []string
	for _, l := range lines(in.Stdout) {
		switch {
		case pyHeader.MatchString(l), pyProgress.MatchString(l), pyVerbose.MatchString(l):
			continue
		case pyClosing.MatchString(l) && !strings.Contains(l, "failed") && !strings.Contains(l, "error"):
			res = append(res, "pytest: "+pyClosing.FindStringSubmatch(l)[1])
		default:
			res = append(res, l)
		}
	}
	return Output{Stdout: join(dropBlankRuns(trimRules(res))), Stderr: in.Stderr}, nil
}
