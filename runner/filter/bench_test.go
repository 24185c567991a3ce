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
// kept. Run: go test -run '^$' -bench Savings ./filter (or make bench).

// categoryTargets are RTK's documented savings, the floor gotk aims at.
var categoryTargets = map[registry.Category]float64{
	registry.Tests: 90, registry.Build: 70, registry.VCS: 70, registry.Lint: 80,
	registry.Packages: 75, registry.Files: 60, registry.Infra: 75,
}

// savingsRow is one category's totals.
type savingsRow struct {
	cases, samples     int
	raw, shown         int
	realRaw, realShown int // captured cases only (no samples)
	must, mustKept     int
	worse, fallbacks   int
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
			out, err, shown := render(c)
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
			if !c.sample() {
				row.realRaw += rawTok
				row.realShown += shownTok
			}
			if shownTok > rawTok {
				row.worse++
			}
			if err == nil {
				shown = append(append([]byte{}, out.Stdout...), out.Stderr...)
			}
			row.must += len(c.must)
			row.mustKept += len(c.must) - len(missingMust(c, shown))
			savingsCases = append(savingsCases, fmt.Sprintf("%-28s %-9s %7d → %6d  %5.1f%%", c.name, c.match.Rule.Category, rawTok, shownTok, pct(rawTok-shownTok, rawTok)))
		}
	})
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

// savingsReport renders the table.
func savingsReport() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-9s %5s %7s %9s %9s %8s %10s %7s %9s %s\n", "category", "cases", "samples", "raw tok", "shown tok", "saved", "real-only", "target", "fidelity", "notes")
	var cats []string
	for c := range savingsTable {
		cats = append(cats, string(c))
	}
	sort.Strings(cats)
	var all savingsRow
	for _, name := range cats {
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
		fmt.Fprintf(&b, "%-9s %5d %7d %9d %9d %7.1f%% %9.1f%% %6.0f%% %8.1f%% %s\n", c, r.cases, r.samples, r.raw, r.shown, pct(r.raw-r.shown, r.raw), pct(r.realRaw-r.realShown, r.realRaw), categoryTargets[c], pct(r.mustKept, r.must), strings.TrimSpace(note))
		all.cases += r.cases
		all.samples += r.samples
		all.raw += r.raw
		all.shown += r.shown
		all.must += r.must
		all.mustKept += r.mustKept
	}
	fmt.Fprintf(&b, "%-9s %5d %7d %9d %9d %7.1f%% %10s %7s %8.1f%%\n", "all", all.cases, all.samples, all.raw, all.shown, pct(all.raw-all.shown, all.raw), "", "", pct(all.mustKept, all.must))
	return b.String()
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
