package filter

import (
	"fmt"
	"strings"
)

// pip renders pip/uv pip list, install and show: `pip list` as name==version
// words, install without download and "already satisfied" chatter (counted),
// show without its empty fields.
type pip struct{ same }

var (
	pipNoise = []*lazyRegexp{
		lazy(`^\s*(Collecting|Downloading|Using cached|Obtaining|Preparing metadata|Getting requirements|Installing build dependencies|Building wheels? for|Created wheel for|Stored in directory|Looking in indexes|Processing) `),
		lazy(`^\s*(━|-|\|)+\s+[\d.]+/[\d.]+ [kMG]?B`),
		lazy(`^\s*(Attempting uninstall|Found existing installation|Uninstalling|Successfully uninstalled)\b`),
		lazy(`^\s*(Resolved|Prepared|Installed|Audited|Uninstalled) \d+ packages? in `),
	}
	pipSatisfied = lazy(`^Requirement already satisfied: `)
	pipTableSep  = lazy(`^-+( +-+)+$`)
	pipEmptyShow = lazy(`^[A-Z][\w-]*:\s*$`)
)

// Render picks the rendering by subcommand.
func (pip) Render(in Input) (Output, error) {
	switch {
	case wordIndex(in.Argv, in.Tool, "list") >= 0:
		if userHas(in.Argv, in.Tool, "--format", "--freeze", "-v", "--verbose", "-o", "--outdated") {
			return Output{Stdout: join(capLines(lines(in.Stdout), 500, 450, in)), Stderr: in.Stderr}, nil
		}
		return pipList(in), nil
	case wordIndex(in.Argv, in.Tool, "show") >= 0:
		return Output{Stdout: join(dropMatching(lines(in.Stdout), pipEmptyShow)), Stderr: in.Stderr}, nil
	}
	var out []string
	satisfied := 0
	for _, l := range dropMatching(lines(in.Stdout), pipNoise...) {
		if pipSatisfied.MatchString(l) {
			satisfied++
			continue
		}
		out = append(out, l)
	}
	if satisfied > 0 {
		out = append(out, fmt.Sprintf("(%s already satisfied)", plural(satisfied, "requirement", "requirements")))
	}
	return Output{Stdout: join(dropBlankRuns(out)), Stderr: keepStderr(in, pipNoise...)}, nil
}

// pipList writes the table as name==version words, several to a line.
// An agent's window of the table (Input.Window) may lack its header: its
// rows alone are read the same way, and no count of gotk's own is added.
func pipList(in Input) Output {
	ll := lines(in.Stdout)
	rows := ll
	switch {
	case len(ll) >= 3 && pipTableSep.MatchString(ll[1]):
		rows = ll[2:]
	case in.Window == 0 || len(ll) == 0:
		return raw(in)
	}
	var out []string
	var row []string
	for _, l := range rows {
		f := strings.Fields(l)
		if len(f) < 2 {
			return raw(in)
		}
		w := f[0] + "==" + f[1]
		if len(f) > 2 {
			w += " (" + strings.Join(f[2:], " ") + ")" // editable project location
		}
		row = append(row, w)
		if len(row) == 8 {
			out = append(out, strings.Join(row, " "))
			row = nil
		}
	}
	if len(row) > 0 {
		out = append(out, strings.Join(row, " "))
	}
	if len(rows) < len(ll) {
		out = append([]string{plural(len(rows), "package", "packages") + ":"}, out...)
	}
	return Output{Stdout: join(out), Stderr: in.Stderr}
}
