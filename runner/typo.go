package runner

import (
	"strings"

	"github.com/alecthomas/kong"

	"github.com/gotk-dev/gotk/runner/proc"
)

// commandNames are gotk's own commands, from its grammar.
func commandNames() []string {
	var g grammar
	p, err := kong.New(&g, kong.Name("gotk"), grammarVars(""))
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range p.Model.Children {
		if !c.Hidden {
			out = append(out, c.Name)
		}
	}
	return out
}

// didYouMean names the gotk command a program that was not found is a
// typo of (`gotk gian` → gain): one edit away, or two for longer words; ""
// when none is close. The program was looked up first, so a real program
// named like a typo always runs.
func didYouMean(prog string) string {
	best, bestD := "", 3 // 0 is the command itself, run as a program after --
	for _, c := range commandNames() {
		d := editDistance(prog, c)
		limit := 1
		if len(c) >= 5 {
			limit = 2
		}
		if d > 0 && d <= limit && d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of two neighbours (gian → gain) each
// cost 1.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// typoHint is the end of the "command not found" line for a program that
// looks like a misspelled gotk command.
func typoHint(se *proc.StartError) string {
	if se.Code != 127 || strings.Contains(se.Program, "/") {
		return ""
	}
	if c := didYouMean(se.Program); c != "" {
		return " — did you mean `gotk " + c + "`?"
	}
	return ""
}
