package filter

import (
	"errors"
	"fmt"
	"strings"
)

// rspec renders RSpec runs: the progress dots (or, with --format
// documentation, the list of passing examples, counted and named with
// gotk recall) and the timing line go; each pending example comes on one
// line with its reason and location; every failure stays in full (the
// Failure/Error line, expected/got, the diff, the backtrace) but for the
// "(compared using ==)" note and blank lines; the summary, the "Failed
// examples" rerun lines (file:line of each failing example) and, on a
// failing run, the random seed stay. Anything else (errors outside
// examples, warnings, the tests' own output) stays as it is.
type rspec struct{ same }

var (
	rspecDots     = lazy(`^[.*FE]+$`)
	rspecSummary  = lazy(`^\d+ examples?, \d+ failures?`)
	rspecEntry    = lazy(`^\s+(\d+)\) (.*)$`)
	rspecLocation = lazy(`^\s+# (\./\S+:\d+)`)
	rspecFinished = lazy(`^Finished in [\d.]+ (seconds?|minutes?)`)
	rspecSeed     = lazy(`^Randomized with seed \d+$`)
	// a line among the documentation that is not an example's name
	rspecDocMark = lazy(`\b(Error|error|ERROR|warning|WARNING|Warning|Deprecat)`)
	// an example's name with its outcome: the sections below repeat it
	rspecDocOutcome = lazy(`\((FAILED - \d+|PENDING: .*)\)$`)
)

// Render splits the run into its sections.
func (rspec) Render(in Input) (Output, error) {
	ll := lines(in.Stdout)
	summary := -1
	for i, l := range ll {
		if rspecSummary.MatchString(l) {
			summary = i
		}
	}
	if summary < 0 {
		return Output{}, errors.New("rspec: no summary line")
	}
	doc := rspecDocFormat(in.Argv[in.Tool:])
	var out []string
	section, docLeft, pendingDetail := "", 0, 0
	var pending []string // the current pending entry's lines
	flushPending := func() {
		if len(pending) == 0 {
			return
		}
		m := rspecEntry.FindStringSubmatch(pending[0])
		line := "  " + m[1] + ") " + m[2]
		loc, reason := "", ""
		for _, p := range pending[1:] {
			t := strings.TrimSpace(p)
			if lm := rspecLocation.FindStringSubmatch(p); lm != nil {
				loc = lm[1]
				continue
			}
			if strings.HasPrefix(t, "# ") && reason == "" {
				reason = strings.TrimPrefix(t, "# ")
				continue
			}
			if t != "" {
				pendingDetail++
			}
		}
		if reason != "" {
			line += ": " + reason
		}
		if loc != "" {
			line += " (" + loc + ")"
		}
		out = append(out, line)
		pending = nil
	}
	for i, l := range ll {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "Pending:"):
			section = "pending"
			out = append(out, "Pending:")
			continue
		case l == "Failures:":
			flushPending()
			section = "failures"
			out = append(out, l)
			continue
		case rspecFinished.MatchString(l):
			flushPending()
			section = "end"
			continue
		case l == "Failed examples:":
			section = "rerun"
			out = append(out, l)
			continue
		}
		switch section {
		case "":
			if rspecDots.MatchString(t) {
				continue
			}
			if doc && t != "" && (rspecDocOutcome.MatchString(l) || !rspecDocMark.MatchString(l)) {
				docLeft++
				continue
			}
		case "pending":
			if rspecEntry.MatchString(l) && strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") {
				flushPending()
				pending = []string{l}
				continue
			}
			if pending != nil {
				pending = append(pending, l)
				continue
			}
		case "failures":
			if t == "" || t == "(compared using ==)" {
				continue
			}
		case "end":
			if rspecSeed.MatchString(l) && in.Exit == 0 {
				continue
			}
			if i == summary || t != "" {
				break
			}
			continue
		}
		if t == "" {
			continue
		}
		if rspecSeed.MatchString(l) && in.Exit == 0 {
			continue
		}
		out = append(out, l)
	}
	flushPending()
	if docLeft > 0 {
		out = append([]string{fmt.Sprintf("(%s of the example list left out: %s)", plural(docLeft, "line", "lines"), in.Recall())}, out...)
	}
	if pendingDetail > 0 {
		out = append(out, fmt.Sprintf("(the pending examples' expected failures left out: %s)", in.Recall()))
	}
	return Output{Stdout: join(out), Stderr: in.Stderr}, nil
}

// rspecDocFormat reports whether the user asked for the documentation
// formatter (-fd, -f d, --format doc…, --format=documentation).
func rspecDocFormat(args []string) bool {
	for i, a := range args {
		v := ""
		switch {
		case a == "-f" || a == "--format":
			if i+1 < len(args) {
				v = args[i+1]
			}
		case strings.HasPrefix(a, "--format="):
			v = strings.TrimPrefix(a, "--format=")
		case strings.HasPrefix(a, "-f") && len(a) > 2:
			v = a[2:]
		}
		if v != "" && rspecDocValue.MatchString(v) {
			return true
		}
	}
	return false
}

var rspecDocValue = lazy(`^d(oc(umentation)?)?$`)
