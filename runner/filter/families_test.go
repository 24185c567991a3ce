package filter

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/registry"
)

type family struct {
	category, name, rtk, snip, before string
	probes                            []string
}

var updateFamilies = flag.Bool("update-families", false, "rewrite ../docs/families.md")

const familiesDoc = "../../docs/families.md"

// familiesTable is docs/families.md: for each family of
// command-families.tsv, what the registry does with its probe commands
// (Y every probe rewritten, P some, N none) and the corpus cases whose
// rule is one of the family's (real captures, and samples).
func familiesTable(t *testing.T) (string, int, int) {
	byRule := map[string][]corpusCase{}
	for _, c := range loadCorpus(t) {
		byRule[c.match.Rule.ID] = append(byRule[c.match.Rule.ID], c)
	}
	var b strings.Builder
	b.WriteString("# Command families: coverage\n\n")
	b.WriteString("Generated from the registry (core/registry) and the filter corpus (runner/filter/testdata) by\n")
	b.WriteString("`go test ./filter -run TestFamilies -update-families` in runner/; the families and the RTK/snip columns\n")
	b.WriteString("are the team's command-families.tsv. `gotk` is what the registry does with the probe commands now\n")
	b.WriteString("(Y: every probe is rewritten, P: some, N: none); `before` is the tsv's column before the breadth pass.\n")
	b.WriteString("`corpus` counts the cases whose rule belongs to the family: real captures + samples written by hand.\n")
	b.WriteString("`?` in RTK/snip: a family the tsv does not list (added after a check of the peers' families).\n\n")
	b.WriteString("| category | family | RTK | snip | before | gotk | rules | probes | corpus (real+sample) |\n|---|---|---|---|---|---|---|---|---|\n")
	yes, before := 0, 0
	for _, f := range families {
		rules := map[string]bool{}
		hit := 0
		for _, p := range f.probes {
			if m, ok := registry.Classify(strings.Fields(p)); ok {
				rules[m.Rule.ID] = true
				hit++
			}
		}
		now := "N"
		switch {
		case len(f.probes) > 0 && hit == len(f.probes):
			now = "Y"
		case hit > 0:
			now = "P"
		}
		if now != "N" {
			yes++
		}
		if f.before != "N" {
			before++
		}
		ids := make([]string, 0, len(rules))
		real, samples := 0, 0
		for id := range rules {
			ids = append(ids, id)
			for _, c := range byRule[id] {
				if c.sample() {
					samples++
				} else {
					real++
				}
			}
		}
		sort.Strings(ids)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | `%s` | %d+%d |\n", f.category, f.name, f.rtk, f.snip, f.before, now,
			strings.Join(ids, ", "), strings.Join(f.probes, "`, `"), real, samples)
	}
	fmt.Fprintf(&b, "\n%d of %d families covered (Y or P); %d before the breadth pass.\n", yes, len(families), before)
	return b.String(), yes, before
}

// TestFamilies: docs/families.md is current.
func TestFamilies(t *testing.T) {
	text, _, _ := familiesTable(t)
	if *updateFamilies {
		if err := os.WriteFile(familiesDoc, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(familiesDoc)
	if err != nil || string(got) != text {
		t.Errorf("%s is stale: run `go test ./filter -run TestFamilies -update-families` in runner/", familiesDoc)
	}
}
