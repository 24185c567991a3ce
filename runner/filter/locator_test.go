package filter

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// locatorPrefix marks a must line of the "locator" kind: the rest is a
// diagnostic's "file:line:col" (or tsc's "file(line,col)") locator, which
// the rendering must carry whole on one line, as the tool printed it.
const locatorPrefix = "locator "

// diagLocator finds a diagnostic's locator at the start of a line:
// "file.go:12:3:", "file.py:12:" or tsc's "file.ts(12,3):"; after the
// step and time docker build prefixes the lines it passes on with.
var diagLocator = regexp.MustCompile(`^(?:#\d+ [\d.]+ )?([^\s:(]*[^\s:(.]\.[A-Za-z0-9+]+(?::\d+(?::\d+)?|\(\d+,\d+\))):`)

// rawLocators returns the locators of the diagnostic lines of raw output,
// each once.
func rawLocators(raw []byte) []string {
	var locs []string
	seen := map[string]bool{}
	for _, l := range lines(raw) {
		m := diagLocator.FindStringSubmatch(ansi.ReplaceAllString(l, ""))
		if m != nil && !seen[m[1]] {
			seen[m[1]] = true
			locs = append(locs, m[1])
		}
	}
	return locs
}

// searchResults are the handlers whose "file:line:" lines are search
// matches, not diagnostics: they may name a file once over its matches.
var searchResults = map[string]bool{"grep": true}

// hasWholeLocator reports whether some line of shown carries loc whole:
// not preceded by more path, not followed by more digits. A path under
// the working directory dir may be shown relative to it (relPath).
func hasWholeLocator(shown []byte, loc, dir string) bool {
	alt := regexp.QuoteMeta(loc)
	if rel := relPath(loc, dir); dir != "" && rel != loc {
		alt += "|" + regexp.QuoteMeta(rel)
	}
	re := regexp.MustCompile(`(^|[\s'"(\[])(` + alt + `)($|[^\d,])`)
	for _, l := range lines(shown) {
		if re.MatchString(ansi.ReplaceAllString(l, "")) {
			return true
		}
	}
	return false
}

// TestLocatorsWhole: every diagnostic a corpus case's raw output holds is
// named in its must file as a locator line (search results aside);
// TestCorpus checks that each is whole in the rendering.
func TestLocatorsWhole(t *testing.T) {
	for _, c := range loadCorpus(t) {
		t.Run(c.name, func(t *testing.T) {
			listed := map[string]bool{}
			for _, m := range c.must {
				if loc, ok := strings.CutPrefix(m, locatorPrefix); ok {
					listed[loc] = true
				}
			}
			for _, loc := range rawLocators(append(append([]byte{}, c.stdout...), c.stderr...)) {
				if listed[loc] || searchResults[c.match.Rule.Handler] {
					continue
				}
				if *update {
					addMust(t, c.dir, locatorPrefix+loc)
					listed[loc] = true
				} else {
					t.Errorf("diagnostic %q is not in %s/must as %q", loc, c.dir, locatorPrefix+loc)
				}
			}
		})
	}
}

// addMust appends a line to dir's must file (-update).
func addMust(t *testing.T, dir, line string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, "must"), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}

// TestTidyKeepsDiagnosticLines: on every corpus output, each diagnostic
// line comes out of tidyDiagnostics unchanged.
func TestTidyKeepsDiagnosticLines(t *testing.T) {
	for _, c := range loadCorpus(t) {
		for _, raw := range [][]byte{c.stdout, c.stderr} {
			ls := lines(raw)
			out := map[string]bool{}
			for _, l := range tidyDiagnostics(append([]string{}, ls...)) {
				out[l] = true
			}
			for _, l := range ls {
				if diagFile(l) != "" && !out[l] {
					t.Errorf("%s: diagnostic line changed or lost: %q", c.name, l)
				}
			}
		}
	}
}
