package tomlfilter

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Filter is a compiled Spec, ready to apply.
type Filter struct {
	Spec
	match       *regexp.Regexp
	replace     []*regexp.Regexp
	matchOut    []*regexp.Regexp
	matchUnless []*regexp.Regexp
	lines       []*regexp.Regexp // strip or keep
	keep        bool
}

// Compile compiles s's regexes. Specs from Parse always compile.
func Compile(s Spec) (*Filter, error) {
	if key, msg := Check(s); msg != "" {
		return nil, fmt.Errorf("%s: %s", key, msg)
	}
	f := &Filter{Spec: s, match: regexp.MustCompile(s.MatchCommand)}
	for _, r := range s.Replace {
		f.replace = append(f.replace, regexp.MustCompile(r.Pattern))
	}
	for _, m := range s.MatchOutput {
		f.matchOut = append(f.matchOut, regexp.MustCompile(m.Pattern))
		var u *regexp.Regexp
		if m.Unless != "" {
			u = regexp.MustCompile(m.Unless)
		}
		f.matchUnless = append(f.matchUnless, u)
	}
	src := s.StripLines
	if len(s.KeepLines) > 0 {
		src, f.keep = s.KeepLines, true
	}
	for _, p := range src {
		f.lines = append(f.lines, regexp.MustCompile(p))
	}
	return f, nil
}

// Matches reports whether the filter's match_command matches line.
func (f *Filter) Matches(line string) bool { return f.match.MatchString(line) }

// Notes words what a filter left out. The zero value words it exactly as
// RTK does (inline tests compare against that); the runner adds where the
// rest is (gotk recall).
type Notes struct {
	// Where, when set, is appended to every note: "gotk recall 7f3a2c".
	Where string
}

func (n Notes) note(text string) string {
	if n.Where == "" {
		return "... (" + text + ")"
	}
	return "... (" + text + "; " + n.Where + ")"
}

// Result is what Apply made of an output.
type Result struct {
	Lines []string
	// Message is set when a match_output rule or on_empty replaced the
	// whole output.
	Message bool
	// Cut counts the lines left out by head/tail/max_lines, Truncated the
	// lines shortened by truncate_lines_at.
	Cut, Truncated int
	// Capped: replace rules made more than twice the input plus
	// GrowthLimit bytes; what followed was left out.
	Capped bool
}

// GrowthLimit is how many bytes replace rules may add to an output beyond
// twice its size, all lines together; beyond it the rest is left out
// (Result.Capped).
const GrowthLimit = 1 << 16

// replaceCapped is re.ReplaceAllString(src, repl) that stops once the
// result holds more than max bytes: it then returns the first max bytes
// (whole UTF-8 characters) and true.
func replaceCapped(re *regexp.Regexp, src, repl string, max int) (string, bool) {
	if max < 0 {
		max = 0
	}
	ms := re.FindAllStringSubmatchIndex(src, -1)
	if len(ms) == 0 {
		if len(src) > max {
			return cutUTF8([]byte(src), max), true
		}
		return src, false
	}
	var b []byte
	last := 0
	for _, m := range ms {
		b = append(b, src[last:m[0]]...)
		b = re.ExpandString(b, repl, src, m)
		last = m[1]
		if len(b) > max {
			return cutUTF8(b, max), true
		}
	}
	b = append(b, src[last:]...)
	if len(b) > max {
		return cutUTF8(b, max), true
	}
	return string(b), false
}

// cutUTF8 is the first n bytes of b, less a character it would split.
func cutUTF8(b []byte, n int) string {
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n])
}

// Options change Apply for a run that failed.
type Options struct {
	// Failed: the command exited non-zero. match_output and on_empty then
	// do not apply: a message must never stand in for a failure's output;
	// and a cut that would drop the output's end (max_lines, head_lines
	// alone) keeps its head and its end instead, around one note.
	Failed bool
	Notes  Notes
}

// ansiRE is compiled on first use (a hook never applies a filter).
var ansiRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[[0-9;]*[a-zA-Z]`) })

// Apply runs RTK's pipeline (a line's trailing CR is kept, out of the
// rules' sight), in RTK's order: strip_ansi, replace (line by
// line, rules chained), match_output (on the whole output, first rule
// wins, skipped when unless also matches), strip or keep lines,
// truncate_lines_at, head_lines/tail_lines, max_lines, on_empty.
func (f *Filter) Apply(lines []string, o Options) Result {
	lines = append([]string(nil), lines...)
	if f.StripANSI {
		for i, l := range lines {
			if strings.Contains(l, "\x1b") {
				lines[i] = ansiRE().ReplaceAllString(l, "")
			}
		}
	}
	capped := false
	if len(f.replace) > 0 {
		// Replacements may grow the text (each rule applies to the last
		// one's result: forty that double it are 2^40 times the line), so
		// what they make is held to twice the input plus GrowthLimit.
		budget := GrowthLimit
		for _, l := range lines {
			budget += 2 * (len(l) + 1)
		}
		for i, l := range lines {
			l, cr := body(l)
			for k, re := range f.replace {
				if l, capped = replaceCapped(re, l, f.Replace[k].Replacement, budget-len(cr)); capped {
					break
				}
			}
			lines[i] = l + cr
			if budget -= len(lines[i]) + 1; capped || budget <= 0 {
				lines, capped = lines[:i+1], true
				break
			}
		}
	}
	if len(f.matchOut) > 0 && !o.Failed {
		bodies := make([]string, len(lines))
		for i, l := range lines {
			bodies[i], _ = body(l)
		}
		blob := strings.Join(bodies, "\n")
		for k, re := range f.matchOut {
			if !re.MatchString(blob) {
				continue
			}
			if u := f.matchUnless[k]; u != nil && u.MatchString(blob) {
				continue
			}
			return Result{Lines: []string{f.MatchOutput[k].Message}, Message: true, Capped: capped}
		}
	}
	if len(f.lines) > 0 {
		kept := lines[:0]
		for _, l := range lines {
			if f.anyLine(l) == f.keep {
				kept = append(kept, l)
			}
		}
		lines = kept
	}
	res := Result{Capped: capped}
	if n := f.TruncateLinesAt; n > 0 {
		for i, l := range lines {
			if l, cr := body(l); utf8.RuneCountInString(l) > n {
				lines[i] = truncate(l, n) + cr
				res.Truncated++
			}
		}
	}
	total := len(lines)
	head, tail := f.HeadLines, f.TailLines
	if o.Failed && head > 0 && tail == 0 && total > head {
		// a failure's end says why it failed: keep some of it too
		head, tail = split(head)
	}
	switch {
	case head > 0 && tail > 0:
		if total > head+tail {
			lines = cutMiddle(lines, head, tail, "omitted", o.Notes)
			res.Cut += total - head - tail
		}
	case head > 0:
		if total > head {
			lines = append(lines[:head:head], o.Notes.note(fmt.Sprintf("%d lines omitted", total-head)))
			res.Cut += total - head
		}
	case tail > 0:
		if total > tail {
			lines = append([]string{o.Notes.note(fmt.Sprintf("%d lines omitted", total-tail))}, lines[total-tail:]...)
			res.Cut += total - tail
		}
	}
	if m := f.MaxLines; m > 0 && len(lines) > m {
		dropped := len(lines) - m
		if o.Failed {
			h, t := split(m)
			lines = cutMiddle(lines, h, t, "cut", o.Notes)
		} else {
			lines = append(lines[:m:m], o.Notes.note(fmt.Sprintf("%d lines truncated", dropped)))
		}
		res.Cut += dropped
	}
	if strings.TrimSpace(strings.Join(lines, "\n")) == "" && f.OnEmpty != "" && !o.Failed {
		return Result{Lines: []string{f.OnEmpty}, Message: true, Cut: res.Cut, Capped: capped}
	}
	res.Lines = lines
	return res
}

// split divides a budget of n lines of a failed run's output between its
// head (about two thirds) and its end (the rest, at least one line).
func split(n int) (head, tail int) {
	tail = max(n/3, 1)
	return max(n-tail, 0), tail
}

// cutMiddle keeps the first head and last tail lines around one note
// naming how many were left out ("N lines <how>").
func cutMiddle(lines []string, head, tail int, how string, n Notes) []string {
	out := append([]string{}, lines[:head]...)
	out = append(out, n.note(fmt.Sprintf("%d lines %s", len(lines)-head-tail, how)))
	return append(out, lines[len(lines)-tail:]...)
}

func (f *Filter) anyLine(l string) bool {
	l, _ = body(l)
	for _, re := range f.lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// body splits a line's CR ending (kept by the runner, which splits at \n
// only) from the text the rules see, as RTK's line splitting drops it.
func body(l string) (text, cr string) {
	if t, ok := strings.CutSuffix(l, "\r"); ok {
		return t, "\r"
	}
	return l, ""
}

// truncate keeps the first n-3 characters of s and "...", as RTK does.
func truncate(s string, n int) string {
	if n < 3 {
		return "..."
	}
	i, count := 0, 0
	for i < len(s) && count < n-3 {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
		count++
	}
	return s[:i] + "..."
}

// SplitLines splits output the way RTK does (Rust's str::lines): at \n, a
// trailing \r dropped, no empty last line for a final newline.
func SplitLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	out := strings.Split(s, "\n")
	for i, l := range out {
		out[i] = strings.TrimSuffix(l, "\r")
	}
	return out
}

// TestOutcome is one inline test's result.
type TestOutcome struct {
	Filter, Test, Source string
	Passed               bool
	Actual, Expected     string
}

// RunTests runs f's inline tests the way RTK's verify does: the input
// through the pipeline, compared with expected, trailing newlines trimmed
// on both sides.
func (f *Filter) RunTests() []TestOutcome {
	var out []TestOutcome
	for _, t := range f.Tests {
		got := strings.Join(f.Apply(SplitLines(t.Input), Options{}).Lines, "\n")
		got = strings.TrimRight(got, "\n")
		want := strings.TrimRight(t.Expected, "\n")
		out = append(out, TestOutcome{Filter: f.Name, Test: t.Name, Source: f.Source, Passed: got == want, Actual: got, Expected: want})
	}
	return out
}
