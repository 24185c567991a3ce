package filter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// What jest and vitest show of the console output of the tests: in a run
// that names its tests (a test file, -t/--testNamePattern) or reports few
// tests verbosely, every block is shown as the runner printed it; in any
// other run the blocks of passing tests are cut, with one line naming
// gotk recall, as go test does with what its passing tests print.

var (
	// jestConsole heads one console call's block in jest's report
	// ("  console.log"); its message and location are indented deeper.
	jestConsole = lazy(`^(\s*)console\.(log|info|warn|error|debug|trace|dir|dirxml|table|group|groupCollapsed|assert|count|time|timeLog|timeEnd)$`)
	// jestConsoleGroup heads the per-file section jest prints the blocks
	// under when it runs several files ("  ● Console").
	jestConsoleGroup = lazy(`^(\s*)● Console$`)
	// jestLocation is a block's last line, the call's place in the test
	// file ("      at Object.log (jt/cart.test.js:6:13)").
	jestLocation = lazy(`^\s+at .*?\(?([^\s()]+?):\d+:\d+\)?$`)
	// jestFile is jest's verdict on one test file ("PASS jt/a.test.js").
	jestFile = lazy(`^\s*(PASS|FAIL)\s+(\S+)`)
	// vitestConsole heads vitest's block of what one test printed to one
	// stream ("stdout | vt/a.test.mjs > suite > name").
	vitestConsole = lazy(`^(stdout|stderr) \| (\S.*)$`)
	// vitestFail names a failed test or file ("FAIL  vt/a.test.mjs > t").
	vitestFail = lazy(`^\s*FAIL\s+(\S.*?)(\s+\[ .* \])?$`)
	// jsTestCount is the runner's count of tests that ran: jest's
	// "Tests:       1 failed, 3 passed, 4 total" and vitest's
	// "Tests  1 failed | 3 passed (4)".
	jsTestCount = lazy(`^\s*Tests:?\s+(.*)$`)
	jsTestRan   = lazy(`(\d+) (passed|failed)`)
	// jsTestFile is a test file named on the command line.
	jsTestFile = lazy(`\.[cm]?[jt]sx?$`)
)

// consoleMark stands in for a console block while the noise list and the
// frame cuts run over the rest: they must not touch what a test printed.
const consoleMark = "\x00console "

// jsConsole is one unit of printed output: a jest block, a jest "● Console"
// section, or a vitest block.
type jsConsole struct {
	lines []string
	pass  bool // from a test or file the runner reports as passed
}

// jsTargeted reports whether the run names its tests or reports few of
// them test by test: then the agent is reading what they print.
func jsTargeted(in Input, streams ...[]string) bool {
	args := toolArgs(in.Argv, in.Tool)
	verbose, pattern := false, false
	runner := in.Tool < len(in.Argv) && slices.Contains([]string{"jest", "vitest"}, filepath.Base(in.Argv[in.Tool]))
	for i, a := range args {
		switch {
		case a == "-t" || a == "--testNamePattern" || strings.HasPrefix(a, "--testNamePattern=") || strings.HasPrefix(a, "-t="):
			return true
		case !strings.HasPrefix(a, "-") && jsTestFile.MatchString(a):
			return true
		case a == "--verbose" || a == "--verbose=true" || a == "--reporter=verbose" ||
			a == "--reporter" && i+1 < len(args) && args[i+1] == "verbose":
			verbose = true
		case runner && !strings.HasPrefix(a, "-") && (i > 0 || !slices.Contains(vitestCommands, a)) &&
			(i == 0 || !strings.HasPrefix(args[i-1], "-") || strings.Contains(args[i-1], "=")):
			pattern = true // a path pattern, as in `jest cart` or `vitest run src/cart`
		}
	}
	return verbose && jsRan(streams...) <= targetedMax || pattern && jsFiles(streams...) == 1
}

// vitestCommands are vitest's subcommands, not path patterns.
var vitestCommands = []string{"run", "watch", "dev", "related", "bench", "list", "init"}

// jsTestFiles is the runner's count of test files: jest's
// "Test Suites: 1 passed, 1 total" and vitest's "Test Files  1 passed (1)".
var jsTestFiles = lazy(`^\s*Test (?:Suites:.*\b(\d+) total|Files\s.*\((\d+)\))\s*$`)

// jsFiles is how many test files the runner says it ran (0: it does not
// say).
func jsFiles(streams ...[]string) int {
	for _, ls := range streams {
		for _, l := range ls {
			if m := jsTestFiles.FindStringSubmatch(l); m != nil {
				return atoi(m[1] + m[2])
			}
		}
	}
	return 0
}

// jsRan is how many tests the runner says ran (passed or failed); a run
// that does not say counts as many.
func jsRan(streams ...[]string) int {
	for _, ls := range streams {
		for _, l := range ls {
			if m := jsTestCount.FindStringSubmatch(l); m != nil {
				n := 0
				for _, c := range jsTestRan.get().FindAllStringSubmatch(m[1], -1) {
					n += atoi(c[1])
				}
				return n
			}
		}
	}
	return targetedMax + 1
}

// jsVerdicts collects the files jest passed and failed and the tests or
// files vitest failed, over both streams.
func jsVerdicts(streams ...[]string) (passed, failed map[string]bool, vitestFailed []string) {
	passed, failed = map[string]bool{}, map[string]bool{}
	for _, ls := range streams {
		for _, l := range ls {
			if m := jestFile.FindStringSubmatch(l); m != nil {
				if m[1] == "PASS" {
					passed[m[2]] = true
				} else {
					failed[m[2]] = true
				}
			}
			if m := vitestFail.FindStringSubmatch(l); m != nil {
				vitestFailed = append(vitestFailed, m[1])
			}
		}
	}
	return passed, failed, vitestFailed
}

// splitConsole replaces each console block of ls by one consoleMark line
// and returns the blocks in order. pass says, for a block's test file (jest)
// or test (vitest), whether the runner reported it passed.
func splitConsole(ls []string, jestPass func(files []string) bool, vitestPass func(target string) bool) ([]string, []jsConsole) {
	var out []string
	var blocks []jsConsole
	for i := 0; i < len(ls); {
		l := ls[i]
		var indent string
		if m := jestConsoleGroup.FindStringSubmatch(l); m != nil {
			indent = m[1]
		} else if m := jestConsole.FindStringSubmatch(l); m != nil {
			indent = m[1]
		} else if m := vitestConsole.FindStringSubmatch(l); m != nil {
			j := i + 1
			for j < len(ls) && strings.TrimSpace(ls[j]) != "" {
				j++
			}
			if j < len(ls) {
				j++ // the blank line vitest closes a block with
			}
			out = append(out, fmt.Sprint(consoleMark, len(blocks)))
			blocks = append(blocks, jsConsole{lines: ls[i:j], pass: vitestPass(m[2])})
			i = j
			continue
		} else {
			out = append(out, l)
			i++
			continue
		}
		// a jest block or section: everything indented deeper, blank
		// lines included
		j := i + 1
		var files []string
		for j < len(ls) && (strings.TrimSpace(ls[j]) == "" || strings.HasPrefix(ls[j], indent+" ")) {
			if m := jestLocation.FindStringSubmatch(ls[j]); m != nil {
				files = append(files, m[1])
			}
			j++
		}
		out = append(out, fmt.Sprint(consoleMark, len(blocks)))
		blocks = append(blocks, jsConsole{lines: ls[i:j], pass: jestPass(files)})
		i = j
	}
	return out, blocks
}

// restoreConsole puts the blocks back in place of their marks; unless
// the run is targeted, a passing test's block is left out, and one line,
// where the first of them was, counts the lines they printed.
func restoreConsole(ls []string, blocks []jsConsole, targeted bool, in Input) []string {
	var out []string
	at, dropped := -1, 0
	for _, l := range ls {
		n, ok := strings.CutPrefix(l, consoleMark)
		if !ok {
			out = append(out, l)
			continue
		}
		b := blocks[atoi(n)]
		if b.pass && !targeted {
			if at < 0 {
				at = len(out)
				out = append(out, "")
			}
			dropped += printedLines(b.lines)
			continue
		}
		out = append(out, trimConsoleFrames(b.lines)...)
	}
	if at >= 0 {
		out[at] = printedNote(dropped, in)
	}
	return out
}

// printedLines counts the lines of a console block the test printed: not
// the runner's headings, blank lines or the call's location.
func printedLines(ls []string) int {
	n := 0
	for _, l := range ls {
		if strings.TrimSpace(l) != "" && !jestConsole.MatchString(l) && !jestConsoleGroup.MatchString(l) &&
			!vitestConsole.MatchString(l) && !jestLocation.MatchString(l) {
			n++
		}
	}
	return n
}

// trimConsoleFrames cuts the code frames in a jest block's tail: each
// message ends at its first blank line, and the frame follows it.
func trimConsoleFrames(ls []string) []string {
	var out []string
	for i := 0; i < len(ls); {
		if !jestConsole.MatchString(ls[i]) {
			out = append(out, ls[i])
			i++
			continue
		}
		j := i + 1
		for j < len(ls) && strings.TrimSpace(ls[j]) != "" {
			j++
		}
		out = append(out, ls[i:j]...)
		k := j
		for k < len(ls) && !jestConsole.MatchString(ls[k]) {
			k++
		}
		out = append(out, trimFrames(ls[j:k])...)
		i = k
	}
	return out
}

// jsPrinted applies clean to both streams with every console block kept
// out of its reach, then restores the blocks the run shows.
func jsPrinted(in Input, clean func([]string) []string) (stdout, stderr []string) {
	outLs, errLs := lines(in.Stdout), lines(in.Stderr)
	passed, failed, vFailed := jsVerdicts(outLs, errLs)
	jestPass := func(files []string) bool {
		if len(files) == 0 {
			return false
		}
		for _, f := range files {
			f = filepath.ToSlash(f)
			if !passed[f] || failed[f] {
				return false
			}
		}
		return true
	}
	vitestPass := func(target string) bool {
		if in.Exit != 0 && len(vFailed) == 0 {
			return false // a failure vitest did not name: keep everything
		}
		for _, f := range vFailed {
			if f == target || strings.HasPrefix(target, f+" > ") || strings.HasPrefix(f, target+" > ") {
				return false
			}
		}
		return true
	}
	targeted := jsTargeted(in, outLs, errLs)
	render := func(ls []string) []string {
		marked, blocks := splitConsole(ls, jestPass, vitestPass)
		return restoreConsole(clean(marked), blocks, targeted, in)
	}
	return render(outLs), render(errLs)
}
