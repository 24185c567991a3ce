package discover

import (
	"fmt"
	"slices"
	"sync"

	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/runner/filter"
	"github.com/gotk-dev/gotk/runner/gain"
	"github.com/gotk-dev/gotk/runner/store"
)

// How a saving was estimated (Missed.Estimate).
const (
	// ByFilter: gotk's filter ran on the recorded output.
	ByFilter = "filter"
	// ByYourRuns: the filter asks the tool for another format (git status
	// --porcelain, go test -json), so it cannot read the recorded text; the
	// share gotk saved on this rule in your own recorded runs (gotk gain).
	ByYourRuns = "ratio:your-runs"
	// ByCorpus: likewise, with no runs of yours to go by: the share the
	// rule's category saves over gotk's filter corpus.
	ByCorpus = "ratio:corpus"
	// NoFilter: the rule has no filter yet; gotk would print the raw output.
	NoFilter = "no-filter"
)

// corpusSaved is the share of o200k tokens each category's filters save
// over gotk's filter corpus (runner/filter/testdata, 127 cases), as
// `make bench` (BenchmarkSavings) measured it when this was written.
var corpusSaved = sync.OnceValue(func() map[registry.Category]float64 {
	return map[registry.Category]float64{
		registry.Build: 0.620, registry.Files: 0.651, registry.Infra: 0.707, registry.Lint: 0.880,
		registry.Packages: 0.628, registry.Tests: 0.902, registry.VCS: 0.662,
	}
})

// estimator estimates what gotk would have saved on a missed call.
type estimator struct {
	byRule map[string]float64 // share saved in the user's own runs, by rule
}

// newEstimator reads the user's recorded runs the way `gotk gain` does
// (capped per run at what the agent keeps, measured runs only).
func newEstimator(runs []store.Run) *estimator {
	e := &estimator{byRule: map[string]float64{}}
	byRule := map[string][]store.Run{}
	for _, r := range runs {
		if r.Rule != "" {
			byRule[r.Rule] = append(byRule[r.Rule], r)
		}
	}
	for id, rs := range byRule {
		if t := gain.Build(rs, "", gain.AgentLimit).Total; t.Measured > 0 && t.Raw > 0 {
			e.byRule[id] = max(0, float64(t.Saved)/float64(t.Raw))
		}
	}
	return e
}

// estimate returns the tokens gotk would have saved on the call's output
// (plain: the command's own output; plainTokens its o200k count), and how.
func (e *estimator) estimate(v verdict, plain string, exit int, plainTokens int64, tok *counter) (int64, string) {
	r := rules()[v.rule]
	if r == nil || plainTokens == 0 {
		return 0, ByFilter
	}
	f := filter.For(r.Handler)
	if f == nil {
		return 0, NoFilter
	}
	m, ok := registry.Classify(v.argv)
	if ok && v.single && slices.Equal(safeArgs(f, v.argv, m.Tool), v.argv) {
		shown, ok := render(f, filter.Input{Argv: v.argv, Tool: m.Tool, RanArgv: v.argv,
			Stdout: []byte(plain), Combined: []byte(plain), Exit: max(exit, 0),
			Recall: func() string { return "gotk recall 000000" }})
		if !ok || len(shown) >= len(plain) {
			return 0, ByFilter // gotk prints the raw output when its rendering is no smaller
		}
		return max(0, plainTokens-tok.count(shown)), ByFilter
	}
	if share, ok := e.byRule[r.ID]; ok {
		return int64(share * float64(plainTokens)), ByYourRuns
	}
	return int64(corpusSaved()[r.Category] * float64(plainTokens)), ByCorpus
}

// safeArgs is the argv gotk would run (a filter may add format flags).
func safeArgs(f filter.Filter, argv []string, tool int) (ran []string) {
	defer func() {
		if recover() != nil {
			ran = nil
		}
	}()
	return f.Args(argv, tool)
}

// render runs the filter as the runner does (filter.Render: the ceiling
// included); ok is false when it fails or panics.
func render(f filter.Filter, in filter.Input) (shown string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			shown, ok = "", false
		}
	}()
	out, err := filter.Render(f, in)
	if err != nil {
		return "", false
	}
	return string(out.Stdout) + string(out.Stderr), true
}

// estimateLabel says in words how a row's savings were estimated.
func estimateLabel(method string, category registry.Category) string {
	switch method {
	case ByFilter:
		return "gotk's filter on the recorded output"
	case ByYourRuns:
		return "share saved in your gotk runs of this rule"
	case ByCorpus:
		return fmt.Sprintf("%s corpus share (%.0f%%)", category, 100*corpusSaved()[category])
	case NoFilter:
		return "no filter yet"
	}
	return method
}
