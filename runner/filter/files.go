package filter

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gotk-dev/gotk/core/shell"
)

// ls renders ls: a long listing loses the owner and group columns when
// every entry shares them (named once on top); a short listing is kept and
// capped when very long.
type ls struct{ same }

var lsLong = lazy(`^([-dlcbps][-rwxsStTl@+.]{9,10})\s+(\d+)\s+(\S+)\s+(\S+)\s+(.*)$`)

// Render compacts the listing without losing an entry.
func (ls) Render(in Input) (Output, error) {
	ll := lines(in.Stdout)
	if userHas(in.Argv, in.Tool, "-l", "-n") && !userHas(in.Argv, in.Tool, "-g", "-o") {
		ll = compactLong(ll)
	}
	ll = capKeeping(ll, 400, nil, in)
	return Output{Stdout: join(ll), Stderr: in.Stderr}, nil
}

// compactLong drops the owner and group columns of `ls -l`: the pair most
// entries share is named once on top; an entry with another pair shows it
// as owner:group.
func compactLong(ll []string) []string {
	count := map[string]int{}
	best, bestN := "", 0
	for _, l := range ll {
		if m := lsLong.FindStringSubmatch(l); m != nil {
			k := m[3] + " " + m[4]
			count[k]++
			if count[k] > bestN {
				best, bestN = k, count[k]
			}
		}
	}
	if bestN < 3 {
		return ll
	}
	owner, group, _ := strings.Cut(best, " ")
	note := "(owner " + owner + ", group " + group + ")"
	if len(count) > 1 {
		note = "(owner " + owner + ", group " + group + " unless shown as owner:group)"
	}
	out := []string{note}
	for _, l := range ll {
		if m := lsLong.FindStringSubmatch(l); m != nil {
			f := strings.Fields(m[5])
			if len(f) < 5 {
				out = append(out, l)
				continue
			}
			who := ""
			if m[3]+" "+m[4] != best {
				who = m[3] + ":" + m[4] + " "
			}
			l = m[1] + " " + m[2] + " " + who + strings.Join(f[:4], " ") + " " + nameAfterDate(m[5])
		}
		out = append(out, l)
	}
	return out
}

// nameAfterDate returns what follows size, month, day and time in a long
// listing line: the name, spaces included.
func nameAfterDate(s string) string {
	rest := s
	for range 4 {
		rest = strings.TrimLeft(rest, " ")
		i := strings.IndexByte(rest, ' ')
		if i < 0 {
			return rest
		}
		rest = rest[i:]
	}
	return strings.TrimPrefix(rest, " ")
}

// find renders find's paths grouped by directory: `dir/: a, b/, c`, a
// directory named once for all its entries. Every path is still there.
type find struct{ same }

// Render groups the paths. With -exec and friends the output is the
// commands' own, not paths: it is only capped.
func (find) Render(in Input) (Output, error) {
	if userHas(in.Argv, in.Tool, "-exec", "-execdir", "-ok", "-okdir", "-print0", "-printf", "-fprint", "-ls", "-fls") {
		return Output{Stdout: join(capLines(lines(in.Stdout), 500, 400, in)), Stderr: in.Stderr}, nil
	}
	paths := lines(in.Stdout)
	out := groupPaths(paths)
	out = capLines(out, 300, 250, in)
	return Output{Stdout: join(out), Stderr: in.Stderr}, nil
}

// groupPaths writes paths grouped by parent directory, in order of first
// appearance. Entries that are themselves parents of others get a slash.
func groupPaths(paths []string) []string {
	isDir := map[string]bool{}
	for _, p := range paths {
		if i := strings.LastIndexByte(p, '/'); i > 0 {
			isDir[p[:i]] = true
		}
	}
	type group struct {
		dir   string
		names []string
	}
	var order []*group
	byDir := map[string]*group{}
	for _, p := range paths {
		if p == "" {
			continue
		}
		dir, name := "", p
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			dir, name = p[:i+1], p[i+1:]
		}
		if isDir[p] && !strings.HasSuffix(name, "/") {
			name += "/"
		}
		g := byDir[dir]
		if g == nil {
			g = &group{dir: dir}
			byDir[dir] = g
			order = append(order, g)
		}
		g.names = append(g.names, quotePath(name))
	}
	var out []string
	for _, g := range order {
		if len(g.names) == 1 || g.dir == "" {
			for _, n := range g.names {
				out = append(out, g.dir+n)
			}
			continue
		}
		out = append(out, g.dir+": "+strings.Join(g.names, ", "))
	}
	return out
}

// grep renders grep and rg matches grouped by file: the file named once,
// then `  line: text` for each match. Very long lines (minified code) are
// shortened with a note; a very long result is capped.
type grep struct{ same }

const (
	grepLineMax = 300
	grepMax     = 250
)

// Render groups matches; output it cannot attribute is kept as is.
func (grep) Render(in Input) (Output, error) {
	args := toolArgs(in.Argv, in.Tool)
	prog := ""
	if len(in.Argv) > in.Tool {
		prog = in.Argv[in.Tool]
	}
	ll := lines(in.Stdout)
	switch {
	case userHas(in.Argv, in.Tool, "-l", "-L", "--files-with-matches", "--files-without-match", "--files", "--type-list"):
		return Output{Stdout: join(capLines(groupPaths(ll), 300, 250, in)), Stderr: in.Stderr}, nil
	case userHas(in.Argv, in.Tool, "-c", "--count", "-A", "-B", "-C", "--context", "--after-context", "--before-context", "--heading", "--json", "--vimgrep", "-q", "--quiet", "-o", "--only-matching"):
		for i, l := range ll {
			ll[i] = shortLine(l, grepLineMax, in)
		}
		return Output{Stdout: join(capLines(ll, grepMax, grepMax-50, in)), Stderr: in.Stderr}, nil
	}
	withFile := grepShowsFile(prog, args)
	withNum := userHas(in.Argv, in.Tool, "-n", "--line-number")
	type match struct{ file, num, text string }
	var ms []match
	for _, l := range ll {
		m := match{text: l}
		if withFile {
			f, rest, ok := strings.Cut(l, ":")
			if !ok {
				ms = append(ms, match{text: l, num: "?"})
				continue
			}
			m.file, m.text = f, rest
		}
		if withNum {
			n, rest, ok := strings.Cut(m.text, ":")
			if ok && shell.IsDigits(n) {
				m.num, m.text = n, rest
			}
		}
		ms = append(ms, m)
	}
	var out []string
	shown := 0
	for i := 0; i < len(ms); {
		j := i + 1
		for j < len(ms) && ms[j].file == ms[i].file && ms[i].num != "?" && ms[j].num != "?" {
			j++
		}
		if shown >= grepMax {
			files := map[string]bool{}
			for _, m := range ms[i:] {
				files[m.file] = true
			}
			out = append(out, fmt.Sprintf("… %d more matches in %s: %s", len(ms)-i, plural(len(files), "file", "files"), in.Recall()))
			break
		}
		group := ms[i:j]
		if ms[i].num == "?" || ms[i].file == "" || len(group) == 1 {
			for _, m := range group {
				out = append(out, shortLine(grepLine(m.file, m.num, m.text), grepLineMax, in))
			}
		} else {
			out = append(out, ms[i].file+":")
			for _, m := range group {
				l := "  " + m.text
				if m.num != "" {
					l = "  " + m.num + ": " + m.text
				}
				out = append(out, shortLine(l, grepLineMax, in))
			}
		}
		shown += len(group)
		i = j
	}
	return Output{Stdout: join(out), Stderr: in.Stderr}, nil
}

// grepLine rebuilds one match as grep printed it.
func grepLine(file, num, text string) string {
	if num == "?" {
		return text
	}
	s := text
	if num != "" {
		s = num + ":" + s
	}
	if file != "" {
		s = file + ":" + s
	}
	return s
}

// grepShowsFile reports whether grep (or rg) prefixes matches with the
// file name: recursive searches and several file operands do, -h does not.
func grepShowsFile(prog string, args []string) bool {
	noName := []string{"-h", "--no-filename"}
	if strings.HasSuffix(prog, "rg") {
		noName = []string{"-I", "--no-filename"}
	}
	if registryHas(args, noName...) {
		return false
	}
	if registryHas(args, "-H", "--with-filename") {
		return true
	}
	ops := 0
	skip := false
	patternGiven := registryHas(args, "-e", "-f", "--regexp", "--file")
	for _, a := range args {
		if skip {
			skip = false
			continue
		}
		if a == "-e" || a == "-f" || a == "-m" || a == "--regexp" || a == "--file" || a == "-g" || a == "--glob" || a == "-t" || a == "--type" || a == "--max-count" {
			skip = true
			continue
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			ops++
		}
	}
	if !patternGiven {
		ops-- // the first operand is the pattern
	}
	if strings.HasSuffix(prog, "rg") {
		return ops != 1 || registryHas(args, "-r")
	}
	return ops > 1 || registryHas(args, "-r", "-R", "--recursive", "--dereference-recursive")
}

func registryHas(args []string, flags ...string) bool {
	return userHas(append([]string{""}, args...), 0, flags...)
}

// read renders cat/head/tail: the content the model asked for, unchanged;
// only output past Ceiling (or with lines longer than readLineMax) is
// capped: the first and last lines kept, the gap named with the raw line
// numbers to page through it.
type read struct{ same }

const readLineMax = 4000 // bytes of one line shown (minified code, blobs)

// Render passes the content through, capping only very long output.
func (read) Render(in Input) (Output, error) {
	long := false
	for _, l := range bytes.Split(in.Stdout, []byte("\n")) {
		if len(l) > readLineMax {
			long = true
			break
		}
	}
	if len(in.Stdout)+len(in.Stderr) <= Ceiling && !long {
		return raw(in), nil
	}
	ll := strings.Split(strings.TrimSuffix(string(in.Stdout), "\n"), "\n")
	for i, l := range ll {
		ll[i] = shortLine(l, readLineMax, in)
	}
	note := func(from, to int) string {
		// The stored raw output is stdout and stderr interleaved: its
		// line numbers are the file's only when stderr is empty.
		if in.RecallLines == nil || len(in.Stderr) > 0 {
			return moreLine(to-from, "lines", in)
		}
		return fmt.Sprintf("… %d more lines (%d-%d): %s", to-from, from+1, to, in.RecallLines(from+1, to))
	}
	budget := Ceiling - min(len(in.Stderr), Ceiling/3)
	return Output{Stdout: join(capBytes(ll, budget, in, note)), Stderr: in.Stderr}, nil
}

// wc renders wc with its alignment padding collapsed.
type wc struct{ same }

// Render collapses runs of blanks; counts and names are unchanged.
func (wc) Render(in Input) (Output, error) {
	ll := lines(in.Stdout)
	for i, l := range ll {
		rest := strings.TrimLeft(l, " \t")
		var counts []string
		for {
			f, after, ok := strings.Cut(rest, " ")
			if !ok || !shell.IsDigits(f) {
				break
			}
			counts = append(counts, f)
			rest = strings.TrimLeft(after, " ")
		}
		if len(counts) > 0 {
			ll[i] = strings.Join(append(counts, rest), " ")
		}
	}
	return Output{Stdout: join(ll), Stderr: in.Stderr}, nil
}
