package filter

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// gitStatus renders `git status` from `git status --porcelain=v2 -b`: a
// `## branch...upstream [ahead 1]` line, then one line per kind of change
// (staged, modified, untracked, conflicts…) naming EVERY path.
type gitStatus struct{}

// gitStatusOwnFormat are the flags by which the user chose a format.
var gitStatusOwnFormat = []string{"--porcelain", "-s", "--short", "--long", "-z", "-v", "--verbose", "-h", "--help", "--null"}

// Args adds --porcelain=v2 -b unless the user chose a format.
func (gitStatus) Args(argv []string, tool int) []string {
	at := subIndex(argv, tool, "status")
	if at < 0 || subHas(argv, at, gitStatusOwnFormat...) {
		return argv
	}
	return insertAt(argv, at+1, "--porcelain=v2", "-b")
}

// statusGroup is one kind of change and the paths that have it.
type statusGroup struct {
	label string
	paths []string
}

// xLabels and yLabels name porcelain codes in the index (X) and in the
// worktree (Y), as git's long format does.
var (
	xLabels = map[byte]string{'M': "staged modified", 'A': "staged new", 'D': "staged deleted", 'R': "staged renamed", 'C': "staged copied", 'T': "staged typechange"}
	yLabels = map[byte]string{'M': "modified", 'D': "deleted", 'T': "typechange", 'A': "new (intent to add)", 'R': "renamed", 'C': "copied"}
	// groupOrder is the order groups are printed in.
	groupOrder = []string{"conflicts", "staged new", "staged modified", "staged renamed", "staged copied", "staged deleted", "staged typechange",
		"modified", "deleted", "typechange", "renamed", "copied", "new (intent to add)", "untracked", "ignored"}
)

// Render parses porcelain v2; a line it does not know fails the parse (the
// runner then prints the raw output).
func (gitStatus) Render(in Input) (Output, error) {
	if userHas(in.Argv, in.Tool, gitStatusOwnFormat...) {
		return raw(in), nil
	}
	var (
		head, oid, upstream, ab, stash string
		groups                         = map[string]*statusGroup{}
		any                            bool
	)
	add := func(label, path string) {
		g := groups[label]
		if g == nil {
			g = &statusGroup{label: label}
			groups[label] = g
		}
		g.paths = append(g.paths, path)
		any = true
	}
	for _, l := range lines(in.Stdout) {
		if l == "" {
			continue
		}
		switch {
		case strings.HasPrefix(l, "# branch.oid "):
			oid = strings.TrimPrefix(l, "# branch.oid ")
		case strings.HasPrefix(l, "# branch.head "):
			head = strings.TrimPrefix(l, "# branch.head ")
		case strings.HasPrefix(l, "# branch.upstream "):
			upstream = strings.TrimPrefix(l, "# branch.upstream ")
		case strings.HasPrefix(l, "# branch.ab "):
			ab = strings.TrimPrefix(l, "# branch.ab ")
		case strings.HasPrefix(l, "# stash "):
			stash = strings.TrimPrefix(l, "# stash ")
		case strings.HasPrefix(l, "# "):
			// other headers: nothing to show
		case strings.HasPrefix(l, "1 "):
			f := strings.SplitN(l, " ", 9)
			if len(f) != 9 || len(f[1]) != 2 {
				return Output{}, errors.New("git status: bad entry: " + l)
			}
			path := quotePath(f[8])
			if x := f[1][0]; x != '.' {
				add(xLabels[x], path)
			}
			if y := f[1][1]; y != '.' {
				add(yLabels[y], path)
			}
		case strings.HasPrefix(l, "2 "):
			f := strings.SplitN(l, " ", 10)
			if len(f) != 10 || len(f[1]) != 2 {
				return Output{}, errors.New("git status: bad entry: " + l)
			}
			to, from, ok := strings.Cut(f[9], "\t")
			if !ok {
				return Output{}, errors.New("git status: bad rename: " + l)
			}
			move := quotePath(from) + " -> " + quotePath(to)
			if x := f[1][0]; x != '.' {
				add(xLabels[x], move)
			}
			if y := f[1][1]; y != '.' {
				add(yLabels[y], quotePath(to))
			}
		case strings.HasPrefix(l, "u "):
			f := strings.SplitN(l, " ", 11)
			if len(f) != 11 {
				return Output{}, errors.New("git status: bad conflict: " + l)
			}
			add("conflicts", f[1]+" "+quotePath(f[10]))
		case strings.HasPrefix(l, "? "):
			add("untracked", quotePath(l[2:]))
		case strings.HasPrefix(l, "! "):
			add("ignored", quotePath(l[2:]))
		default:
			return Output{}, errors.New("git status: not porcelain v2: " + l)
		}
	}
	var res []string
	if head != "" || oid != "" {
		res = append(res, branchLine(head, oid, upstream, ab))
	}
	if stash != "" {
		res = append(res, "stash: "+plural(atoi(stash), "entry", "entries"))
	}
	for _, label := range groupOrder {
		if g := groups[label]; g != nil {
			res = append(res, fmt.Sprintf("%s (%d): %s", label, len(g.paths), pathList(g.paths)))
		}
	}
	if !any && (head != "" || oid != "") {
		note := "nothing to commit"
		if userHas(in.Argv, in.Tool, "-uno", "--untracked-files=no") {
			note += " (untracked files not listed)"
		}
		res = append(res, note)
	}
	return Output{Stdout: join(res), Stderr: in.Stderr}, nil
}

// branchLine renders the headers as `git status -sb` does.
func branchLine(head, oid, upstream, ab string) string {
	switch {
	case oid == "(initial)":
		return "## No commits yet on " + head
	case head == "(detached)":
		if len(oid) > 7 {
			oid = oid[:7]
		}
		return "## HEAD (detached at " + oid + ")"
	}
	s := "## " + head
	if upstream != "" {
		s += "..." + upstream
	}
	var parts []string
	for _, f := range strings.Fields(ab) {
		n := strings.TrimLeft(f, "+-")
		if n == "0" {
			continue
		}
		if f[0] == '+' {
			parts = append(parts, "ahead "+n)
		} else {
			parts = append(parts, "behind "+n)
		}
	}
	if upstream != "" && ab == "" {
		parts = append(parts, "gone")
	}
	if len(parts) > 0 {
		s += " [" + strings.Join(parts, ", ") + "]"
	}
	return s
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// quotePath quotes a path that a comma-separated list would make ambiguous
// (git already C-quotes paths with control or non-ASCII characters).
func quotePath(p string) string {
	if strings.ContainsAny(p, ", {}") && !strings.HasPrefix(p, `"`) {
		// Only the quote and the backslash are escaped: every other byte of
		// the name (tabs, CR, bytes that are not UTF-8) stays as it is.
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(p) + `"`
	}
	return p
}

// pathList joins paths with ", ", each verbatim (so a model can copy it).
func pathList(paths []string) string { return strings.Join(paths, ", ") }

// TwinEnv: git status as typed runs after the porcelain run only where
// Plain cannot rebuild the long format (gitstatus_long.go says where);
// without optional locks it never touches the index.
func (gitStatus) TwinEnv() []string { return []string{"GIT_OPTIONAL_LOCKS=0"} }
