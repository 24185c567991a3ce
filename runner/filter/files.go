package filter

import (
	"bytes"
	"fmt"
	"path"
	"sort"
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
		ll = compactLong(ll, in.Window > 0)
	}
	if userHas(in.Argv, in.Tool, "-R", "--recursive") {
		if n := pageCut(ll, pageBudget); n < len(ll) {
			// raw line numbers: compactLong may have put a note on top
			raw := n - (len(ll) - len(lines(in.Stdout)))
			dirs := 0 // headings: a line ending in ':' after a blank one
			for i, l := range ll[n:] {
				if lsHeading(l, n+i > 0 && ll[n+i-1] == "") {
					dirs++
				}
			}
			ll = append(ll[:n:n], fmt.Sprintf("… %d more lines, %s (%s)", len(ll)-n, plural(dirs, "more directory", "more directories"), recallRange(in, raw+1, len(lines(in.Stdout)))))
		}
	} else {
		ll = capKeeping(ll, 400, nil, in)
	}
	return Output{Stdout: join(ll), Stderr: in.Stderr}, nil
}

// compactLong folds the columns of `ls -l` that repeat across the
// listing, said once on top: the owner and group most entries share (an
// entry with another pair shows it as owner:group); the date most entries
// share (shown where an entry has another; the time alone when every
// entry has the same day), or the day alone when only the times differ;
// per kind of entry (file, directory, link…) the mode and link count most
// of them share, shown only where an entry differs (a directory whose
// mode is folded ends in /). Sizes and names always stay.
//
// inWindow: the listing is an agent's window of rows (`ls -la | tail
// -30`), which has no line to spare for the note on top: the note opens
// the first line (after `total N`, when there) and the rows after it are
// indented under it.
func compactLong(ll []string, inWindow bool) []string {
	type long struct {
		mode, links, who, size, date, name string
	}
	es := make([]*long, len(ll))
	count := map[string]int{}
	modes := map[byte]map[string]int{}
	dates, days := map[string]int{}, map[string]int{}
	n := 0
	for i, l := range ll {
		m := lsLong.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		f := strings.Fields(m[5])
		if len(f) < 5 || !isSize(f[0]) {
			continue // a device (major, minor) or a form gotk does not know
		}
		e := &long{mode: m[1], links: m[2], who: m[3] + " " + m[4], size: f[0], date: f[1] + " " + f[2] + " " + f[3], name: nameAfterDate(m[5])}
		es[i] = e
		n++
		count[e.who]++
		if modes[e.mode[0]] == nil {
			modes[e.mode[0]] = map[string]int{}
		}
		modes[e.mode[0]][e.mode+" "+e.links]++
		dates[e.date]++
		days[f[1]+" "+f[2]]++
	}
	if n < 3 {
		return ll
	}
	best := mostCommon(count)
	var parts []string
	owner, group, _ := strings.Cut(best, " ")
	if len(count) == 1 {
		parts = append(parts, "all "+owner+" "+group)
	} else {
		parts = append(parts, "owner "+owner+", group "+group+" unless shown as owner:group")
	}
	date, day := "", ""
	switch common := mostCommon(dates); {
	case len(dates) == 1:
		date = common
		parts[0] += ", " + date
	case 2*dates[common] >= n:
		date = common
		parts[0] += ", " + date + " unless shown"
		if len(days) == 1 {
			day = mostCommon(days)
		}
	case len(days) == 1:
		day = mostCommon(days)
		parts[0] += ", " + day + " (times shown)"
	}
	kinds := map[byte]string{}
	var kindNotes []string
	for _, k := range []byte{'-', 'd', 'l'} {
		if c := modes[k]; c != nil {
			if def := mostCommon(c); c[def] >= 2 {
				kinds[k] = def
				what := map[byte]string{'-': "files", 'd': "directories (name/)", 'l': "symlinks"}[k]
				kindNotes = append(kindNotes, def+" for "+what)
			}
		}
	}
	if len(kindNotes) > 0 {
		parts = append(parts, "mode and links "+strings.Join(kindNotes, ", ")+" unless shown")
	}
	note := "(" + strings.Join(parts, "; ") + "; then size, date, name)"
	if date != "" {
		note = "(" + strings.Join(parts, "; ") + "; then size, name)"
	}
	var out []string
	if !inWindow {
		out = append(out, note)
	}
	for i, l := range ll {
		e := es[i]
		if e == nil {
			if inWindow && note != "" && totalRe.MatchString(l) {
				l, note = l+" "+note, ""
			}
			out = append(out, l)
			continue
		}
		var b strings.Builder
		switch {
		case !inWindow:
		case note != "":
			b.WriteString(note + " ")
			note = ""
		default:
			b.WriteString("  ")
		}
		name := e.name
		if kinds[e.mode[0]] == e.mode+" "+e.links {
			if e.mode[0] == 'd' {
				name += "/"
			}
		} else {
			b.WriteString(e.mode + " " + e.links + " ")
		}
		if e.who != best {
			b.WriteString(strings.Replace(e.who, " ", ":", 1) + " ")
		}
		b.WriteString(e.size + " ")
		switch {
		case e.date == date:
		case day != "":
			b.WriteString(e.date[strings.LastIndexByte(e.date, ' ')+1:] + " ")
		default:
			b.WriteString(e.date + " ")
		}
		b.WriteString(name)
		out = append(out, b.String())
	}
	return out
}

// totalRe is the line `ls -l` starts a listing with (its blocks).
var totalRe = lazy(`^total \d+(\.\d+)?[KMGT]?$`)

// isSize reports whether s is a size column: digits, or a -h size (4.0K).
func isSize(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.,KMGTPEkB") == ""
}

// mostCommon returns the key with the highest count (the first in sort
// order on a tie, so the choice is stable).
func mostCommon(c map[string]int) string {
	best, bestN := "", -1
	for k, n := range c {
		if n > bestN || n == bestN && k < best {
			best, bestN = k, n
		}
	}
	return best
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
	return Output{Stdout: join(pathPage(lines(in.Stdout), "paths", in)), Stderr: in.Stderr}, nil
}

// pathPage groups paths by directory (groupPaths) as far as a page holds
// them, in the order they came, then counts the rest (unit: "paths",
// "files") with their raw lines.
func pathPage(paths []string, unit string, in Input) []string {
	out := groupPaths(paths)
	if pageCut(out, pageBudget) < len(out) {
		n := sort.Search(len(paths), func(n int) bool {
			return linesSize(groupPaths(paths[:n+1])) > pageBudget
		})
		out = append(groupPaths(paths[:n]), fmt.Sprintf("… %d more %s (%s)", len(paths)-n, unit, recallRange(in, n+1, len(paths))))
	}
	return out
}

// groupPaths writes paths grouped by parent directory, in order of first
// appearance. Entries that are themselves parents of others get a slash.
func groupPaths(paths []string) []string { return groupByParent(paths, true) }

// groupByParent groups paths by parent as groupPaths does; markDirs says
// whether a path that is the parent of others gets a slash (a directory
// of find's; not an import path, which is a package either way).
func groupByParent(paths []string, markDirs bool) []string {
	isDir := map[string]bool{}
	for _, p := range paths {
		if i := strings.LastIndexByte(p, '/'); i > 0 && markDirs {
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
// on its first match's line as grep wrote it (`path:12:text`), then
// `  line: text` for each other match. Very long lines (minified code) are
// shortened with a note; a very long result is capped.
type grep struct{ same }

const (
	grepLineMax = 300
	grepMax     = 250 // lines of a -c/-A/-o… listing shown before the cap
)

// Render groups matches; output it cannot attribute is kept as is. A run
// that failed (grep's 2, git grep's 128: not "no match") is shown as
// printed, capped around its end.
func (grep) Render(in Input) (Output, error) {
	args := toolArgs(in.Argv, in.Tool)
	prog := ""
	if len(in.Argv) > in.Tool {
		prog = in.Argv[in.Tool]
	}
	ll := lines(in.Stdout)
	switch {
	case userHas(in.Argv, in.Tool, "-l", "-L", "--files-with-matches", "--files-without-match", "--files", "--type-list", "--name-only"):
		return Output{Stdout: join(pathPage(ll, "files", in)), Stderr: in.Stderr}, nil
	case in.Exit > 1 || userHas(in.Argv, in.Tool, "-c", "--count", "-A", "-B", "-C", "--context", "--after-context", "--before-context", "--heading", "--json", "--vimgrep", "-q", "--quiet", "-o", "--only-matching") || grepContext(args):
		for i, l := range ll {
			ll[i] = shortLine(l, grepLineMax, in)
		}
		return Output{Stdout: join(capLines(ll, grepMax, grepMax-50, in)), Stderr: in.Stderr}, nil
	}
	withFile := grepShowsFile(prog, args)
	withNum := userHas(in.Argv, in.Tool, "-n", "--line-number")
	var ms []grepMatch
	for _, l := range ll {
		m := grepMatch{text: l}
		if withFile {
			f, rest, ok := strings.Cut(l, ":")
			if !ok {
				ms = append(ms, grepMatch{text: l, num: "?"})
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
	// The first page: the matches, in grep's order, whose rendering fits
	// pageBudget; every file past it is still named, with its count.
	shown := len(ms)
	if out := grepGroups(ms, 0, in); pageCut(out, pageBudget) < len(out) {
		lo, hi := 1, len(ms)
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if linesSize(grepGroups(ms[:mid], 0, in)) <= pageBudget {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		shown = lo
	}
	out := grepGroups(ms[:shown], 0, in)
	if shown < len(ms) {
		rest := ms[shown:]
		var files []string
		count := map[string]int{}
		for _, m := range rest {
			if count[m.file] == 0 {
				files = append(files, m.file)
			}
			count[m.file]++
		}
		if len(files) == 1 && files[0] == "" { // one file, not named by grep
			out = append(out, fmt.Sprintf("… %d more matches (%s)", len(rest), recallRange(in, shown+1, len(ms))))
		} else {
			out = append(out, fmt.Sprintf("… %d more matches in %s (%s):", len(rest), plural(len(files), "file", "files"), recallRange(in, shown+1, len(ms))))
			out = append(out, countedPaths(files, count)...)
		}
	}
	return Output{Stdout: join(out), Stderr: in.Stderr}, nil
}

// grepMatch is one line of grep's output: num "?" when it is not a match
// line gotk could split.
type grepMatch struct{ file, num, text string }

// grepPerFile is how many matches of one file a page shows; the rest of
// that file is counted with its raw line range.
const grepPerFile = 40

// grepGroups renders matches grouped by file: the file named once, on its
// first match's line (no heading line of its own: a window of N matches
// fits N lines), then `  line: text`; raw is the raw line number of ms[0]
// minus one.
func grepGroups(ms []grepMatch, raw int, in Input) []string {
	var out []string
	for i := 0; i < len(ms); {
		j := i + 1
		for j < len(ms) && ms[j].file == ms[i].file && ms[i].num != "?" && ms[j].num != "?" {
			j++
		}
		group := ms[i:j]
		if ms[i].num == "?" || ms[i].file == "" || len(group) == 1 {
			for _, m := range group {
				out = append(out, shortLine(grepLine(m.file, m.num, m.text), grepLineMax, in))
			}
		} else {
			if len(group) > grepPerFile+capSlack && in.Window == 0 {
				group = group[:grepPerFile]
			}
			for k, m := range group {
				l := "  " + m.text
				switch {
				case k == 0:
					// the file named once, on its first match's line
					l = grepLine(m.file, m.num, m.text)
				case m.num != "":
					l = "  " + m.num + ": " + m.text
				}
				out = append(out, shortLine(l, grepLineMax, in))
			}
			if n := j - i - len(group); n > 0 {
				from := raw + i + len(group) + 1
				out = append(out, fmt.Sprintf("  … %d more in this file (%s)", n, recallRange(in, from, raw+j)))
			}
		}
		i = j
	}
	return out
}

// countedPaths names files with their counts, grouped by directory (in
// order of first appearance) as find's paths are: "dir/: a.go (3), b.go (12)".
func countedPaths(files []string, count map[string]int) []string {
	var dirs []string
	names := map[string][]string{}
	for _, f := range files {
		dir := path.Dir(f) + "/"
		if _, ok := names[dir]; !ok {
			dirs = append(dirs, dir)
		}
		names[dir] = append(names[dir], fmt.Sprintf("%s (%d)", quotePath(path.Base(f)), count[f]))
	}
	var out []string
	for _, d := range dirs {
		if len(names[d]) == 1 {
			out = append(out, "  "+strings.TrimPrefix(d, "./")+names[d][0])
			continue
		}
		out = append(out, "  "+d+": "+strings.Join(names[d], ", "))
	}
	return out
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

// grepContext reports context lines asked for with their count in the
// same word (`-A2`, `-nC3`, grep's `-5`): the output then holds context
// lines (`file-12-text`) and `--` between matches, not matches alone.
func grepContext(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			continue
		}
		i := 1
		for i < len(a) && (a[i] >= 'a' && a[i] <= 'z' || a[i] >= 'A' && a[i] <= 'Z') {
			i++
		}
		if i < len(a) && a[i] >= '0' && a[i] <= '9' && (i == 1 || strings.ContainsAny(a[1:i], "ABC")) {
			return true
		}
	}
	return false
}

// grepShowsFile reports whether grep (or rg) prefixes matches with the
// file name: recursive searches and several file operands do, -h does not.
func grepShowsFile(prog string, args []string) bool {
	if prog == "git" { // git grep names the file unless told not to
		return !registryHas(args, "-h")
	}
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
