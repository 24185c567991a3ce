package filter

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gotk-dev/gotk/core/registry"
	"github.com/tiktoken-go/tokenizer"
)

// The savings bench: over the corpus, per registry category, the tokens
// (o200k) the model would have seen without gotk (the command as typed:
// testdata/*/baseline when gotk added flags, else the raw streams) against
// the tokens gotk shows (the filter's output, or the raw streams when the
// filter fails or would not shrink them), and the share of must lines
// kept. Each category's savings are also split by outcome: green runs
// (exit 0), which a filter may compact hard, and red runs, whose failures
// are kept verbatim by design; the mix of the two in the corpus moves the
// overall number, so the table shows both with their case counts.
// Run: go test -run '^$' -bench Savings ./filter (or make bench).

// categoryTargets are RTK's documented savings, the floor gotk aims at.
var categoryTargets = map[registry.Category]float64{
	registry.Tests: 90, registry.Build: 70, registry.VCS: 70, registry.Lint: 80,
	registry.Packages: 75, registry.Files: 60, registry.Infra: 75,
}

// savingsRow is one category's totals.
type savingsRow struct {
	cases, samples     int
	raw, shown         int
	rawBytes, shownB   int // the same in bytes
	realRaw, realShown int // captured cases only (no samples)
	must, mustKept     int
	worse, fallbacks   int
	// by outcome: a run is red when its exit code is not 0; failures are
	// kept verbatim by design, so the mix moves the "saved" column
	greens, reds         int
	greenRaw, greenShown int
	redRaw, redShown     int
}

var (
	savingsOnce  sync.Once
	savingsTable map[registry.Category]*savingsRow
	savingsCases []string
	printOnce    sync.Once
)

func countTokens(b testing.TB, enc tokenizer.Codec, s []byte) int {
	ids, _, err := enc.Encode(string(s))
	if err != nil {
		b.Fatal(err)
	}
	return len(ids)
}

// measureSavings fills savingsTable once (tokenizing is slow; it is not
// what the bench times).
func measureSavings(b testing.TB) {
	savingsOnce.Do(func() {
		enc, err := tokenizer.Get(tokenizer.O200kBase)
		if err != nil {
			b.Fatal(err)
		}
		savingsTable = map[registry.Category]*savingsRow{}
		familyTable = map[string]*familyRow{}
		for _, c := range loadCorpus(b) {
			row := savingsTable[c.match.Rule.Category]
			if row == nil {
				row = &savingsRow{}
				savingsTable[c.match.Rule.Category] = row
			}
			base := c.baseline
			if base == nil {
				base = append(append([]byte{}, c.stdout...), c.stderr...)
			}
			out, shown, err := render(c)
			if err != nil {
				row.fallbacks++
			}
			rawTok, shownTok := countTokens(b, enc, base), countTokens(b, enc, shown)
			row.cases++
			if c.sample() {
				row.samples++
			}
			row.raw += rawTok
			row.shown += shownTok
			row.rawBytes += len(base)
			row.shownB += len(shown)
			if !c.sample() {
				row.realRaw += rawTok
				row.realShown += shownTok
			}
			if c.exit == 0 {
				row.greens++
				row.greenRaw += rawTok
				row.greenShown += shownTok
			} else {
				row.reds++
				row.redRaw += rawTok
				row.redShown += shownTok
			}
			if shownTok > rawTok {
				row.worse++
			}
			if err == nil {
				shown = append(append([]byte{}, out.Stdout...), out.Stderr...)
			}
			row.must += len(c.must)
			row.mustKept += len(c.must) - len(missingMust(c, shown))
			outcome := "green"
			if c.exit != 0 {
				outcome = "red"
			}
			fam := familyTable[c.match.Rule.ID]
			if fam == nil {
				fam = &familyRow{}
				familyTable[c.match.Rule.ID] = fam
			}
			missing := missingMust(c, shown)
			fam.cases++
			fam.raw += rawTok
			fam.shown += shownTok
			fam.must += len(c.must)
			fam.mustKept += len(c.must) - len(missing)
			kind := "real"
			if c.sample() {
				kind = "sample"
			}
			line := fmt.Sprintf("    %-30s %-6s %-5s %7d → %6d  %5.1f%%  must %d/%d", c.name, kind, outcome, rawTok, shownTok, pct(rawTok-shownTok, rawTok), len(c.must)-len(missing), len(c.must))
			for _, m := range missing {
				line += fmt.Sprintf("\n        missing: %q", m)
			}
			fam.lines = append(fam.lines, line)
			savingsCases = append(savingsCases, fmt.Sprintf("%-28s %-9s %-5s %7d → %6d  %5.1f%%", c.name, c.match.Rule.Category, outcome, rawTok, shownTok, pct(rawTok-shownTok, rawTok)))
		}
	})
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

// savingsReport renders the table. "saved" is over every case; "green"
// and "red" split it by outcome (exit 0 or not), with the case counts, so
// the number is honest about the corpus's mix of passing and failing runs.
func savingsReport() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-9s %5s %7s %9s %9s %7s %9s %9s %7s %10s %14s %14s %6s %8s %s\n", "category", "cases", "samples", "raw tok", "gotk tok", "saved", "raw B", "gotk B", "saved B", "real-only", "green (n)", "red (n)", "target", "fidelity", "notes")
	var all savingsRow
	for _, name := range sortedCategories() {
		c := registry.Category(name)
		r := savingsTable[c]
		note := ""
		if s := pct(r.raw-r.shown, r.raw); s < categoryTargets[c] {
			note = "below target"
		}
		if r.worse > 0 {
			note += fmt.Sprintf(" %d case(s) grew vs. the command as typed", r.worse)
		}
		if r.fallbacks > 0 {
			note += fmt.Sprintf(" %d raw fallback(s)", r.fallbacks)
		}
		fmt.Fprintf(&b, "%-9s %5d %7d %9d %9d %6.1f%% %9d %9d %6.1f%% %9.1f%% %14s %14s %5.0f%% %7.1f%% %s\n", c, r.cases, r.samples, r.raw, r.shown, pct(r.raw-r.shown, r.raw), r.rawBytes, r.shownB, pct(r.rawBytes-r.shownB, r.rawBytes), pct(r.realRaw-r.realShown, r.realRaw), outcomeCell(r.greenRaw, r.greenShown, r.greens), outcomeCell(r.redRaw, r.redShown, r.reds), categoryTargets[c], pct(r.mustKept, r.must), strings.TrimSpace(note))
		all.cases += r.cases
		all.samples += r.samples
		all.raw += r.raw
		all.shown += r.shown
		all.rawBytes += r.rawBytes
		all.shownB += r.shownB
		all.realRaw += r.realRaw
		all.realShown += r.realShown
		all.greens += r.greens
		all.greenRaw += r.greenRaw
		all.greenShown += r.greenShown
		all.reds += r.reds
		all.redRaw += r.redRaw
		all.redShown += r.redShown
		all.must += r.must
		all.mustKept += r.mustKept
	}
	fmt.Fprintf(&b, "%-9s %5d %7d %9d %9d %6.1f%% %9d %9d %6.1f%% %9.1f%% %14s %14s %6s %7.1f%%\n", "all", all.cases, all.samples, all.raw, all.shown, pct(all.raw-all.shown, all.raw), all.rawBytes, all.shownB, pct(all.rawBytes-all.shownB, all.rawBytes), pct(all.realRaw-all.realShown, all.realRaw), outcomeCell(all.greenRaw, all.greenShown, all.greens), outcomeCell(all.redRaw, all.redShown, all.reds), "", pct(all.mustKept, all.must))
	return b.String()
}

// familyRow is one registry rule's cases over the corpus.
type familyRow struct {
	cases, raw, shown, must, mustKept int
	lines                             []string // one per case, with its must lines kept
}

var familyTable map[string]*familyRow

// familyReport is the per-family table: tokens saved and, under each
// family, every case with how many of its must lines the output kept (and
// which it lost, if any).
func familyReport() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-26s %5s %9s %9s %7s %10s\n", "family", "cases", "raw tok", "gotk tok", "saved", "must kept")
	var ids []string
	for id := range familyTable {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		f := familyTable[id]
		fmt.Fprintf(&b, "%-26s %5d %9d %9d %6.1f%% %10s\n", id, f.cases, f.raw, f.shown, pct(f.raw-f.shown, f.raw), fmt.Sprintf("%d/%d", f.mustKept, f.must))
		for _, l := range f.lines {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// outcomeCell is "saved% (n)", or "- (0)" when the category has no such run.
func outcomeCell(raw, shown, n int) string {
	if n == 0 {
		return "- (0)"
	}
	return fmt.Sprintf("%.1f%% (%d)", pct(raw-shown, raw), n)
}

// BenchmarkSavings times rendering the whole corpus and reports, per
// category, the token savings and the fidelity (must lines kept, %).
func BenchmarkSavings(b *testing.B) {
	measureSavings(b)
	cases := loadCorpus(b)
	// A benchmark with sub-benchmarks does not show its own b.Log without
	// -v, so the table goes to stdout, once.
	printOnce.Do(func() {
		fmt.Println(savingsReport())
		fmt.Println(familyReport())
		if testing.Verbose() {
			fmt.Println(strings.Join(savingsCases, "\n"))
		}
	})
	for _, name := range sortedCategories() {
		c := registry.Category(name)
		r := savingsTable[c]
		b.Run(name, func(b *testing.B) {
			var mine []corpusCase
			for _, k := range cases {
				if k.match.Rule.Category == c {
					mine = append(mine, k)
				}
			}
			b.ResetTimer()
			for b.Loop() {
				for _, k := range mine {
					_, _, _ = render(k)
				}
			}
			b.ReportMetric(pct(r.raw-r.shown, r.raw), "saved-%")
			b.ReportMetric(pct(r.mustKept, r.must), "fidelity-%")
			if r.greens > 0 {
				b.ReportMetric(pct(r.greenRaw-r.greenShown, r.greenRaw), "green-saved-%")
			}
			if r.reds > 0 {
				b.ReportMetric(pct(r.redRaw-r.redShown, r.redRaw), "red-saved-%")
			}
			b.ReportMetric(float64(r.raw), "raw-tok")
			b.ReportMetric(float64(r.shown), "shown-tok")
		})
	}
}

func sortedCategories() []string {
	var cats []string
	for c := range savingsTable {
		cats = append(cats, string(c))
	}
	sort.Strings(cats)
	return cats
}

// TestSavingsReport prints the table under -v (go test -v -run
// TestSavingsReport ./filter) without benchmarking.
func TestSavingsReport(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("run with -v to print the savings table")
	}
	measureSavings(t)
	t.Log(savingsReport())
	t.Log("\n" + strings.Join(savingsCases, "\n"))
}
