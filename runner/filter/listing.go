package filter

import (
	"fmt"
	"strings"
)

// gitBlame renders git blame's default format grouped by commit: a run of
// lines from one commit is headed once by its hash, author and date (the
// time of day and zone left out), then `LINE) code` for each line (after
// the file and original line -f and -n add); a
// commit headed before is headed again by its hash alone. Every line
// number and line of code stays. Output it cannot parse line by line is
// shown as git printed it.
//
// In an agent's window of lines (`git blame f | tail -30`), which has no
// line to spare for a heading, a run's first line is the heading (as git
// printed it) and the run's other lines are indented under it.
type gitBlame struct{ same }

var (
	// hash, what -f/-n add before the parenthesis, the author and date,
	// the final line number, the code
	blameLine = lazy(`^(\^?[0-9a-f]{4,64})( [^(]*?)? *\((.*?) +(\d+)\) ?(.*)$`)
	blameDate = lazy(`^(.*?) +(\d{4}-\d\d-\d\d) \d\d:\d\d:\d\d [+-]\d{4}$`)
)

// blameMax and blameHead bound a blame of a long file (lines of the
// rendering: the first blameHead, then the end).
const blameMax, blameHead = 500, 350

// Render groups the lines by commit.
func (gitBlame) Render(in Input) (Output, error) {
	ls := lines(in.Stdout)
	out := make([]string, 0, len(ls))
	seen := map[string]bool{}
	last := ""
	for _, l := range ls {
		m := blameLine.FindStringSubmatch(l)
		if m == nil {
			return raw(in), nil
		}
		meta := m[3]
		if d := blameDate.FindStringSubmatch(meta); d != nil {
			meta = d[1] + " " + d[2]
		}
		meta = strings.Join(strings.Fields(meta), " ")
		key := m[1] + " " + meta
		// what -f and -n add (the file and line the code came from)
		// belongs to the line, not to the commit
		line := m[4] + ") " + m[5]
		if extra := strings.TrimSpace(m[2]); extra != "" {
			line = extra + " " + line
		}
		if in.Window > 0 {
			if key != last {
				out, last = append(out, l), key
			} else {
				out = append(out, "  "+line)
			}
			continue
		}
		if key != last {
			head := m[1]
			if !seen[key] {
				head = key
			}
			out = append(out, head+":")
			seen[key], last = true, key
		}
		out = append(out, line)
	}
	return Output{Stdout: join(capLines(out, blameMax, blameHead, in)), Stderr: in.Stderr}, nil
}

// goList renders `go list` and `go mod graph`. Import paths are grouped
// by parent (`example.com/m/internal/: a, b, c`); module lines `path
// version` likewise as path@version; `go mod graph`'s edges as one line
// per module: `from: to, to, …`. Lines of any other shape (replacements,
// -u upgrades, -versions lists) are kept as printed. Errors (stderr) stay
// whole.
type goList struct{ same }

// goListMax and goListHead bound a very long listing (lines).
const goListMax, goListHead = 400, 300

// Render picks the rendering by subcommand.
func (goList) Render(in Input) (Output, error) {
	ls := lines(in.Stdout)
	var out []string
	switch {
	case wordIndex(in.Argv, in.Tool, "graph") >= 0:
		out = modGraph(ls)
	case userHas(in.Argv, in.Tool, "-m"):
		out = ls
		paths := make([]string, 0, len(ls))
		for _, l := range ls {
			f := strings.Fields(l)
			if len(f) == 0 || len(f) > 2 || strings.ContainsAny(l, "\t,{}") || strings.Count(l, " ") != len(f)-1 {
				paths = nil
				break
			}
			paths = append(paths, strings.Join(f, "@"))
		}
		if paths != nil {
			out = groupByParent(paths, false)
		}
	default:
		out = ls
		if !strings.ContainsAny(string(in.Stdout), " \t,{}") {
			out = groupByParent(ls, false)
		}
	}
	return Output{Stdout: join(capLines(out, goListMax, goListHead, in)), Stderr: in.Stderr}, nil
}

// modGraph folds `go mod graph`'s `from to` lines into one per module
// (in order of first appearance); a line of another shape stays as is.
func modGraph(ls []string) []string {
	var order []string
	to := map[string][]string{}
	var odd []string
	for _, l := range ls {
		f := strings.Fields(l)
		if len(f) != 2 {
			odd = append(odd, l)
			continue
		}
		if _, ok := to[f[0]]; !ok {
			order = append(order, f[0])
		}
		to[f[0]] = append(to[f[0]], f[1])
	}
	out := make([]string, 0, len(order)+len(odd))
	for _, from := range order {
		out = append(out, from+": "+strings.Join(to[from], ", "))
	}
	if len(odd) > 0 {
		out = append(out, fmt.Sprintf("(%s of another shape, as printed:)", plural(len(odd), "line", "lines")))
		out = append(out, odd...)
	}
	return out
}
