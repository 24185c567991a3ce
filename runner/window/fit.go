package window

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/runner/tokens"
)

// Fit shapes gotk's compact output to the window: at most w.N lines, the
// lines that carry failures and errors (a locator, a failing test, an
// error word) first in priority — the last ones for a tail window, the
// first for a head window, as the raw window would have favoured —, then
// the summary (the compact output's last lines), and one line saying how
// many lines were left out and how to see them (recall), with "…" where
// other lines were left out between those kept. ok is false when
// the shaped output would not hold every fact of rawWin (the window of the
// raw output) or would be larger than it: the caller then prints rawWin.
//
// every: each line of the raw window is a fact (a listing's rows), not
// only the lines that carry a failure or an error.
//
// rawFacts are the outputs whose facts must hold (the raw window, and the
// window of each stream when both feed it: their interleaving as captured
// is only approximate); nil means rawWin.
func Fit(compact, rawWin []byte, w Window, recall string, every bool, rawFacts ...[]byte) (out []byte, ok bool) {
	return FitWith(compact, rawWin, w, recall, every, nil, rawFacts...)
}

// FitWith is Fit where boiler (nil: none) names the lines of the tool's
// own boilerplate — the advice it prints after any failure ("re-run with
// -e"), whatever failed: they tell the window nothing, so a form need not
// keep them, though the raw window's size counts them.
func FitWith(compact, rawWin []byte, w Window, recall string, every bool, boiler func(string) bool, rawFacts ...[]byte) (out []byte, ok bool) {
	if !w.Set() {
		return compact, len(compact) <= len(rawWin)
	}
	// The filter's whole output, uncapped (a cap always names recall),
	// is faithful to the whole raw output, so to any window of it: only
	// the window's facts (locators, failing tests, counts) are checked,
	// not its wording. Once lines are left out (by the filter's cap or to
	// fit), every line of the raw window that carries a failure (every
	// line, with every) must be represented too.
	facts := append([][]byte{rawWin}, rawFacts...)
	if boiler != nil {
		for i, f := range facts {
			facts[i] = dropLines(f, boiler)
		}
	}
	out = compact
	if Lines(compact) > w.N || !tokens.Fewer([][]byte{compact}, [][]byte{rawWin}) {
		out = choose(compact, facts, w, recall, len(rawWin))
	}
	whole := len(out) == len(compact) && !NamesRecall(compact, recall)
	if out == nil || !tokens.Fewer([][]byte{out}, [][]byte{rawWin}) || Lines(out) > w.N {
		return nil, false
	}
	if len(out) != len(compact) && 10*tokens.Estimate(out) > 9*tokens.Estimate(rawWin) {
		// A form that left lines out saves a tenth at least: its cap
		// line and marks are what the estimate prices least well.
		return nil, false
	}
	// Once lines are left out, a line of the raw window the filter itself
	// kept is a fact too: what the filter judged worth showing must not be
	// lost to the fit where the raw window would have shown it.
	var kept []byte
	if !whole {
		kept = compact
	}
	for _, f := range facts {
		if !Holds(out, f) || !whole && !represented(out, f, every, kept) {
			return nil, false
		}
	}
	return out, true
}

// dropLines is b without the lines drop names.
func dropLines(b []byte, drop func(string) bool) []byte {
	var out []byte
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if l != "" && !drop(strings.TrimSuffix(l, "\n")) {
			out = append(out, l...)
		}
	}
	return out
}

// Refits: out, a filter's rendering of the raw window rawWin alone (a
// listing's rows, a log's lines), stands for it in the window: at most
// w.N lines, every fact of rawWin (Holds), and every row of rawWin in
// out in the words a compact form keeps (represented, each row a fact)
// — unless out says where the rest is (names recall, as every cap of a
// filter does: a row cut short, columns dropped, repeats folded).
func Refits(out, rawWin []byte, w Window, recall string) bool {
	if Lines(out) > w.N || !Holds(out, rawWin) {
		return false
	}
	return NamesRecall(out, recall) || represented(out, rawWin, true, out)
}

// NamesRecall: out names the run's recall (the hint's command, without
// its aside: "gotk recall 7f3a2c" of "gotk recall 7f3a2c (812 lines;
// …)"), as a cap of a filter does.
func NamesRecall(out []byte, recall string) bool {
	mark := recall
	if i := strings.Index(mark, " ("); i > 0 {
		mark = mark[:i]
	}
	return mark != "" && bytes.Contains(out, []byte(mark))
}

// choose keeps at most w.N lines of compact, in at most size bytes, with
// one line for each run of lines it leaves out (the cap line at the last,
// gapMark at the others: kept lines never read as adjacent where lines
// between them went). In priority: the summary (the last lines), the lines
// that tell what the raw windows tell (needed), the lines that carry
// failures in the window's order, the lines right after them (their
// details), then any. An indented line comes with the heading it sits
// under (a file's name over its matches). nil: the needed lines do not fit.
func choose(compact []byte, raws [][]byte, w Window, recall string, size int) []byte {
	lines := strings.SplitAfter(string(compact), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	capLine := func(cut int) string {
		return fmt.Sprintf("… %d more lines to fit %s (%s)\n", cut, w.Pipe(), recall)
	}
	budget := w.N - 1 // the cap line
	size -= len(capLine(len(lines)))
	if budget <= 0 || size <= 0 {
		return nil
	}
	keep := make([]bool, len(lines))
	kept, used := 0, 0
	// gaps: the runs of lines left out, each shown as one line (the cap
	// line at the last, "…" at the others): kept lines never read as
	// adjacent where lines between them were left out
	gaps := 1
	keptAt := func(j int) bool { return j < 0 || j >= len(lines) || keep[j] }
	heading := headings(lines)
	// take keeps line i and its heading, or neither when they do not fit
	// (with a line for each gap, in the window's lines and bytes).
	take := func(i int) bool {
		if keep[i] {
			return true
		}
		add := []int{i}
		if h := heading[i]; h >= 0 && !keep[h] {
			add = append(add, h)
		}
		n, g := 0, gaps
		for _, k := range add {
			n += len(lines[k]) + 1
			switch l, r := keptAt(k-1), keptAt(k+1); {
			case l && r:
				g--
			case !l && !r:
				g++
			}
			keep[k] = true
		}
		if kept+len(add)+max(g, 1) > w.N || used+n+len(gapMark)*max(g-1, 0) > size {
			for _, k := range add {
				keep[k] = false
			}
			return false
		}
		kept, used, gaps = kept+len(add), used+n, g
		return true
	}
	// the summary: the last three lines that say something (a blank
	// line says nothing)
	for i, n := len(lines)-1, min(3, budget); i >= 0 && n > 0; i-- {
		if strings.TrimSpace(lines[i]) != "" && take(i) {
			n--
		}
	}
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
		if w.Tail {
			order[i] = len(lines) - 1 - i
		}
	}
	for _, i := range needed(lines, raws, order) {
		if !take(i) {
			return nil
		}
	}
	for _, i := range order {
		if important(lines[i]) {
			take(i)
		}
	}
	// Room left: the lines right after a kept failure (its details), then
	// any, in the window's order.
	// (A blank line says nothing: it is not taken for itself.)
	for _, i := range order {
		if i > 0 && keep[i-1] && important(lines[i-1]) && strings.TrimSpace(lines[i]) != "" {
			take(i)
		}
	}
	for _, i := range order {
		if strings.TrimSpace(lines[i]) != "" {
			take(i)
		}
	}
	if kept == len(lines) {
		return compact // nothing left out: no cap line
	}
	return []byte(render(lines, keep, kept, capLine))
}

// render writes the kept lines with a line for each run of lines left
// out: the last the cap line (before the summary when they were right
// above it), the others gapMark.
func render(lines []string, keep []bool, kept int, capLine func(int) string) string {
	var b strings.Builder
	// lastGap: where the last run of lines left out begins
	lastGap := len(lines) - 1
	for lastGap >= 0 && keep[lastGap] {
		lastGap--
	}
	for lastGap > 0 && !keep[lastGap-1] {
		lastGap--
	}
	for i, l := range lines {
		if !keep[i] {
			switch {
			case i == lastGap:
				b.WriteString(capLine(len(lines) - kept))
			case i == 0 || keep[i-1]:
				b.WriteString(gapMark)
			}
			continue
		}
		b.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// gapMark stands for lines a window's form left out, other than the last
// run of them (which the cap line stands for).
const gapMark = "…\n"

// headings maps each indented line to the nearest line above it that is
// not indented (-1: none, or not indented itself).
func headings(lines []string) []int {
	out := make([]int, len(lines))
	h := -1
	for i, l := range lines {
		out[i] = -1
		if l != "" && (l[0] == ' ' || l[0] == '\t') {
			out[i] = h
		} else if strings.TrimSpace(l) != "" {
			h = i
		}
	}
	return out
}

// needed lists the lines of compact, in the window's order, that the
// checks of Fit look for: for each line of a raw window, the compact line
// that is it or holds its words (represented), and for each of its facts
// a line that tells it (Holds).
func needed(lines []string, raws [][]byte, order []int) []int {
	folded := make([]string, len(lines))
	sets := lineSets(lines)
	lower := make([]string, len(lines))
	for i, l := range lines {
		folded[i], lower[i] = fold(l), strings.ToLower(l)
	}
	seen := map[int]bool{}
	var out []int
	add := func(i int) bool {
		if i >= 0 && !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
		return i >= 0
	}
	first := func(match func(i int) bool) int {
		for _, i := range order {
			if match(i) {
				return i
			}
		}
		return -1
	}
	for _, raw := range raws {
		for _, l := range strings.Split(string(raw), "\n") {
			t := words(l)
			if len(t) == 0 {
				continue
			}
			f := fold(l)
			if !add(first(func(i int) bool { return folded[i] == f })) {
				for i := range lines {
					if len(sets[i]) > 0 && holdsWords(sets[i], t) {
						add(i)
						break
					}
				}
			}
		}
		for _, f := range Facts(raw) {
			switch f.kind {
			case "locator":
				if !add(first(func(i int) bool { return strings.Contains(lines[i], f.name) && mentionsLine(lines[i], f.value) })) {
					add(first(func(i int) bool { return mentionsLine(lines[i], f.value) }))
				}
			case "failing":
				add(first(func(i int) bool { return strings.Contains(lines[i], f.name) }))
			case "count":
				add(first(func(i int) bool { return countNear(lower[i], f.name, f.value) }))
			}
		}
	}
	return out
}

var (
	locatorRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`([\w.@+-]*[\w-]\.[A-Za-z]\w{0,5})(?::(\d+)|\((\d+),\d+\)|", line (\d+))`)
	})
	failRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:--- FAIL: |^FAIL\s+|FAILED\s+|✗\s+|×\s+|✕\s+)(\S+)`)
	})
	countRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(\d+) (passed|failed|failures?|errors?|warnings?|skipped|problems?)\b`)
	})
	wordRe = sync.OnceValue(func() *regexp.Regexp {
		// failure words, and the lines test runners mark as the failing
		// assertion (pytest's E and >, a code frame's > 21 |,
		// expected/received, got/want)
		return regexp.MustCompile(`(?i)\b(errors?|fail|failed|failures?|failing|panic|panicked|fatal|exceptions?|warnings?|warn|traceback)\b|\w(Error|Exception):|✗|✕|×|^\s*E\s{2,}|^>\s{2,}|^\s*>\s*\d+\s*\||^\s*[-+]?\s*(expected|received|got|want)\b`)
	})
)

// GoRuntimeFrame is the file line of a stack frame inside Go's own
// runtime and testing packages (GOROOT/src/runtime, GOROOT/src/testing);
// RustStdFrame the location line of a backtrace frame in Rust's standard
// library (/rustc/<commit>/library). The test filters fold such frames
// into one note naming recall, and a window need not keep them: they tell
// where the toolchain was, not where the user's code failed (the frames
// of the user's code, and the panic, stay facts).
var (
	goRuntimeFrame = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+\S*/src/(runtime|testing)/\S+\.go:\d+`) })
	rustStdFrame   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+at /rustc/[0-9a-f]+/library/`) })
)

// GoRuntimeFrame: l is the file line of a frame in Go's runtime or testing.
func GoRuntimeFrame(l string) bool { return goRuntimeFrame().MatchString(l) }

// RustStdFrame: l is the location line of a frame in Rust's standard library.
func RustStdFrame(l string) bool { return rustStdFrame().MatchString(l) }

// toolchainLines marks the lines of ls that belong to a toolchain frame:
// its location line and the function line above it.
func toolchainLines(ls []string) []bool {
	out := make([]bool, len(ls))
	for i, l := range ls {
		if l = ansiRe().ReplaceAllString(l, ""); GoRuntimeFrame(l) || RustStdFrame(l) {
			out[i] = true
			if i > 0 {
				out[i-1] = true
			}
		}
	}
	return out
}

// changeRe is a line a diff adds or removes (a formatter's finding, a
// test's expected and received), not its ---/+++ header.
var changeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]($|[^+\-])`) })

// passed: a test runner's line for a test that passed (✓ and its name,
// where it is: playwright's `✓ 3 [chromium] › a.spec.ts:5:3 › …`): its
// locator is not a failure's, and the run's counts tell it.
func passed(l string) bool {
	l = strings.TrimLeft(ansiRe().ReplaceAllString(l, ""), " \t")
	return (strings.HasPrefix(l, "✓") || strings.HasPrefix(l, "✔")) && !wordRe().MatchString(l)
}

// underPassingSuite: line i sits under a passing suite's heading (jest's
// `PASS src/a.test.js`, over the console output its tests printed): a
// place it names is where a passing test logged, no failure's.
func underPassingSuite(ls []string, heading []int, i int) bool {
	h := heading[i]
	return h >= 0 && passingSuite().MatchString(ls[h])
}

var passingSuite = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^PASS\s+\S+\.\w+\s*(\(|$)`) })

// Telling reports a line that carries a failure or an error (a failure
// word, a failing assertion's marker, a test runner's ✕): what a cap must
// not hide.
func Telling(l string) bool { return important(l) }

// important: a line that carries a failure or an error.
func important(l string) bool {
	if passed(l) {
		return false
	}
	l = zeroRe().ReplaceAllString(ansiRe().ReplaceAllString(l, ""), "")
	return wordRe().MatchString(l) || locatorRe().MatchString(l) || changeRe().MatchString(l)
}

// zeroRe matches a count of nothing ("Failures: 0", "0 errors"): no
// failure to keep.
var zeroRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(failures?|errors?|failed|warnings?|skipped)\s*:?\s*0\b|\b0 (failures?|errors?|failed|warnings?)\b`)
})

// fact is one thing a window tells the reader, found in whatever format
// either output uses.
type fact struct {
	kind        string // locator, failing, count
	name, value string
}

// Facts lists what a text tells about failures: each locator (file and
// line; a toolchain frame's aside), each failing test, each count of
// passed, failed, errors, warnings.
func Facts(b []byte) []fact {
	var out []fact
	seen := map[fact]bool{}
	add := func(f fact) {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	// colour is not meaning: `\x1b[39mbuild.js:1` names build.js
	ls := strings.Split(ansiRe().ReplaceAllString(string(b), ""), "\n")
	frame := toolchainLines(ls)
	heading := headings(ls)
	for i, l := range ls {
		if frame[i] {
			continue
		}
		if !passed(l) && !underPassingSuite(ls, heading, i) {
			for _, m := range locatorRe().FindAllStringSubmatch(l, -1) {
				add(fact{"locator", path.Base(m[1]), m[2] + m[3] + m[4]})
			}
			// a finding under its file's heading (eslint's `  12:5
			// error …` under the file): the file's line
			if f, pos := underFile(ls, heading, i); pos != "" && strings.ContainsAny(pos, ":)") && important(l) {
				n, _, _ := strings.Cut(strings.TrimRight(pos, ":)"), ":")
				add(fact{"locator", f, n})
			}
		}
		for _, m := range failRe().FindAllStringSubmatch(l, -1) {
			add(fact{"failing", strings.TrimRight(m[1], ":,"), ""})
		}
		for _, m := range countRe().FindAllStringSubmatchIndex(l, -1) {
			if namePart(l[m[1]:]) || m[2] > 0 && l[m[2]-1] == '#' {
				continue // `05:53 errors.go`: a file's name; `#12 ERROR`: an id
			}
			add(fact{"count", strings.ToLower(strings.TrimRight(l[m[4]:m[5]], "s")), l[m[2]:m[3]]})
		}
	}
	return out
}

// namePart: rest goes on with the rest of a name (`.go`, `_test`, `-v2`,
// `/x`), so the word before it was part of one.
func namePart(rest string) bool {
	if rest == "" {
		return false
	}
	switch rest[0] {
	case '_', '-', '/':
		return len(rest) > 1 && rest[1] != ' '
	case '.':
		return len(rest) > 1 && (rest[1] >= 'a' && rest[1] <= 'z' || rest[1] >= 'A' && rest[1] <= 'Z' || rest[1] >= '0' && rest[1] <= '9')
	}
	return false
}

// Holds reports whether shaped tells every fact raw tells, whatever the
// format: a locator's file and line number (src/a.ts(8,3) and a line
// `(8,3)` under `src/a.ts:` agree), a failing test's name, a count next
// to its word.
func Holds(shaped, raw []byte) bool {
	s := ansiRe().ReplaceAllString(string(shaped), "")
	lower := strings.ToLower(s)
	var told []fact // shaped's own facts, read once a count needs them
	for _, f := range Facts(raw) {
		switch f.kind {
		case "locator":
			if !strings.Contains(s, f.name) || !mentionsLine(s, f.value) {
				return false
			}
		case "failing":
			if !strings.Contains(s, f.name) {
				return false
			}
		case "count":
			if countNear(lower, f.name, f.value) {
				continue
			}
			if told == nil {
				told = Facts(shaped)
			}
			if !implied(f, told) {
				return false
			}
		}
	}
	return true
}

// implied: a count the raw window tells of a part of the run (one suite's
// "29 passed; 0 failed") that shaped's counts of the whole run imply —
// more passed than the part's, or no failure of that kind at all where
// the part's count is zero (gotk never hides a failure, so a shaped
// output that names none has none). Counted failures or failing tests
// anywhere in shaped imply nothing of a part's zero.
func implied(f fact, shaped []fact) bool {
	n, err := strconv.Atoi(f.value)
	if err != nil {
		return false
	}
	if f.name == "passed" {
		for _, g := range shaped {
			if v, err := strconv.Atoi(g.value); err == nil && g.kind == "count" && g.name == "passed" && v >= n {
				return true
			}
		}
		return false
	}
	if n != 0 {
		return false
	}
	for _, g := range shaped {
		switch {
		case g.kind == "count" && g.name == f.name && g.value != "0":
			return false
		case g.kind == "failing" && (f.name == "failed" || f.name == "failure"):
			return false
		}
	}
	return true
}

// mentionsLine: line number n appears as a locator does, in any of the
// forms a file's line is written (`f.go:12`, `(12,3)`, `line 12`, and
// `  12:5:` under a file's heading).
func mentionsLine(s, n string) bool {
	for _, form := range []string{":" + n, "(" + n + ",", "line " + n, " " + n + ":"} {
		if strings.Contains(s, form) {
			return true
		}
	}
	return false
}

// countNear: n appears within a few words of word (either side).
func countNear(s, word, n string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], word)
		if k < 0 {
			return false
		}
		k += i
		lo, hi := max(0, k-24), min(len(s), k+len(word)+24)
		if containsNumber(s[lo:hi], n) {
			return true
		}
		i = k + len(word)
	}
}

func containsNumber(s, n string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], n)
		if k < 0 {
			return false
		}
		k += i
		before := k == 0 || s[k-1] < '0' || s[k-1] > '9'
		end := k + len(n)
		after := end == len(s) || s[end] < '0' || s[end] > '9'
		if before && after {
			return true
		}
		i = k + 1
	}
}

// represented: every line of raw that carries a failure or an error
// (every line, with every) is in shaped, in the words a compact form keeps:
// one line of shaped holds every word of it that names something (named:
// its locator, its counts, its file) and at least 60% of its words, a path's directory
// and rules of punctuation aside (a file moved to a heading, a long line
// cut with …, columns realigned). A line of raw that filtered (the
// filter's own output, when given) keeps is such a line too, and then one
// of the filter's lines that hold it must be in shaped as the filter wrote
// it (words alone match too loosely: "Type 'undefined' is not assignable"
// is not "Type 'string' is not assignable").
func represented(shaped, raw []byte, every bool, filtered []byte) bool {
	kept, chosen := wordSets(shaped), wordSets(filtered)
	out := map[string]bool{}
	for _, l := range strings.Split(string(shaped), "\n") {
		out[fold(l)] = true
	}
	flines := nonBlank(filtered)
	ls := strings.Split(string(raw), "\n")
	frame := toolchainLines(ls)
	plain := strings.Split(ansiRe().ReplaceAllString(string(raw), ""), "\n")
	heading := headings(plain)
	for k, l := range ls {
		t := words(l)
		if len(t) == 0 || frame[k] {
			continue
		}
		// The filter's line that is this line, else those that hold its
		// words.
		picked, in := false, false
		for _, f := range flines {
			if fold(f) == fold(l) {
				picked, in = true, in || out[fold(f)]
			}
		}
		for i, set := range chosen {
			if !picked && holdsWords(set, t) {
				picked = true
				in = in || out[fold(flines[i])]
			}
		}
		switch {
		case picked && !in:
			return false
		case picked || (!every && (!important(l) || underPassingSuite(plain, heading, k))):
		case !holdsAny(kept, t):
			return false
		}
	}
	return true
}

// nonBlank is b's lines that have words, in the order wordSets sees them.
func nonBlank(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if len(words(l)) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// fold trims a line and folds its runs of blanks (alignment is not
// meaning).
func fold(s string) string {
	return strings.Join(strings.Fields(ansiRe().ReplaceAllString(s, "")), " ")
}

// wordSets is each line of b that has words as the set of its words
// (lineSets).
func wordSets(b []byte) []map[string]bool {
	var out []map[string]bool
	ls := strings.Split(string(b), "\n")
	for i, set := range lineSets(ls) {
		if len(words(ls[i])) > 0 {
			out = append(out, set)
		}
	}
	return out
}

// lineSets is each line as the set of its words. A line indented under a
// heading holds the heading's words too: what a compact form says once
// for the lines under it (grep's `path:` over `  12: text`, a blame's
// commit over its lines, a listing's shared columns over its rows) is
// still said of each. Under a file's heading (a linter's `  3:5 error
// …`), its leading line number as the raw line wrote it, joined to the
// file (path:12), too.
func lineSets(ls []string) []map[string]bool {
	heading := headings(ls)
	out := make([]map[string]bool, len(ls))
	for i, l := range ls {
		set := map[string]bool{}
		for _, w := range words(l) {
			w = strings.TrimSuffix(w, "…")
			set[w] = true
			// a name and version joined (kong@v1.17.0, attrs==26.1.0)
			// says both
			for _, sep := range []string{"@", "=="} {
				if name, version, ok := strings.Cut(w, sep); ok && name != "" && version != "" {
					set[name], set[version] = true, true
				}
			}
		}
		if h := heading[i]; h >= 0 {
			for _, w := range words(ls[h]) {
				set[strings.TrimSuffix(w, "…")] = true
			}
		}
		if f, pos := underFile(ls, heading, i); f != "" {
			set[f] = true
			if pos != "" {
				set[f+":"+strings.TrimRight(pos, ":)")] = true
			}
		}
		out[i] = set
	}
	return out
}

// underFile: the file that the heading of ls[i] names (headingFile; ""
// when it has none), and the line's first word when it is a position in
// it (12:, 3:5, 40)).
func underFile(ls []string, heading []int, i int) (file, pos string) {
	h := heading[i]
	if h < 0 {
		return "", ""
	}
	if file = headingFile(ls[h]); file == "" {
		return "", ""
	}
	if first := strings.Fields(ls[i]); len(first) > 0 && lineNumRe().MatchString(first[0]) {
		pos = first[0]
	}
	return file, pos
}

// headingFile is the file a heading line names first (`a/b.go:`, or
// `a/b.go:12: text`, a heading merged with its first line), as words
// names it (its last element); "" when its first word is not a file.
func headingFile(h string) string {
	f := strings.Fields(ansiRe().ReplaceAllString(h, ""))
	if len(f) == 0 {
		return ""
	}
	p, _, _ := strings.Cut(f[0], ":")
	if i := strings.LastIndexByte(p, '/'); i >= 0 && i < len(p)-1 {
		p = p[i+1:]
	}
	if !fileNameRe().MatchString(p) {
		return ""
	}
	return p
}

// fileNameRe: a file's name with its extension (as locators name it).
var fileNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\w.@+-]*[\w-]\.[A-Za-z]\w{0,5}$`) })

var lineNumRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+(:\d+)*[:)]?$`) })

// holdsAny: one of sets holds the words t.
func holdsAny(sets []map[string]bool, t []string) bool {
	for _, set := range sets {
		if holdsWords(set, t) {
			return true
		}
	}
	return false
}

func holdsWords(set map[string]bool, t []string) bool {
	n := 0
	for _, w := range t {
		switch {
		case set[w]:
			n++
		case named(w):
			return false
		}
	}
	return 10*n >= 6*len(t)
}

// named: a word that names one thing — it has a digit (a count, a line,
// a version) or joins parts with - _ . @ (a file, a resource, a test):
// a line that lacks it tells of something else, however many of the
// other words it shares ("service/web unchanged" is not "service/worker
// unchanged").
func named(w string) bool {
	return strings.ContainsAny(w, "0123456789") || strings.ContainsAny(strings.Trim(w, "-_.@"), "-_.@")
}

// words splits a line into the words that carry meaning: colour codes and
// words of punctuation only dropped, a path reduced to its last element.
func words(l string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(ansiRe().ReplaceAllString(l, ""), func(r rune) bool {
		return r == ' ' || r == '\t' || r == ',' || r == '"' || r == '\'' || r == '(' || r == ')' || r == '[' || r == ']'
	}) {
		if strings.Trim(w, "=-_*#~.:;|/\\<>+`⎯─━…├└│┬┴┼┌┐┘\u00a0") == "" || duration(w) || len(out) == 0 && stamp(w) {
			continue
		}
		// a directory is its name, with or without its slash (find's
		// `a/b/` heading over `a/b/c`)
		w = strings.TrimRight(w, "/:")
		if i := strings.LastIndexByte(w, '/'); i >= 0 && i < len(w)-1 {
			w = w[i+1:]
		}
		if m := gluedRe().FindStringSubmatch(w); m != nil {
			// grep's `a.go:12:text`: the locator, then the text's word
			out = append(out, m[1])
			w = m[2]
		}
		out = append(out, strings.TrimRight(w, ":;."))
	}
	return out
}

// gluedRe is a locator glued to the word after it (grep -n prints
// `a.go:12:func`, no blank after the line number).
var gluedRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([\w.@+-]*\w\.[A-Za-z]\w{0,5}:\d+(?::\d+)?):([^\d\s]\S*)$`)
})

// duration: a word that is only a time taken (0.005s, 812ms, 1m2s):
// no two runs print the same, and a compact form may sum or drop it.
func duration(w string) bool {
	w = strings.TrimRight(w, ".,;:")
	i := 0
	for i < len(w) && (w[i] >= '0' && w[i] <= '9' || w[i] == '.') {
		i++
	}
	if i == 0 || i == len(w) {
		return false
	}
	switch u := w[i:]; u {
	case "s", "ms", "µs", "us", "ns", "m", "h", "min", "sec", "secs":
		return true
	default:
		// 1m2s, 1m2.5s
		return u[0] == 'm' && len(u) > 1 && duration(u[1:]) && !strings.HasPrefix(u, "ms")
	}
}

// stamp: a date or time of day (2026-05-14T09:00:03.431Z, 10:00:01): at
// the start of a line, a log's time of writing, which a compact form
// folding repeats keeps only for the last.
func stamp(w string) bool {
	return stampRe().MatchString(strings.Trim(w, "[]"))
}

var stampRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d([.,]\d+)?)?(Z|[+-]\d\d:?\d\d)?)?|\d{1,2}:\d\d(:\d\d([.,]\d+)?)?)$`)
})

// ansiRe matches terminal colour and cursor sequences: colour is not
// meaning, and compact forms drop it.
var ansiRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`) })
