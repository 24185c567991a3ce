package filter

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// gitDiff renders `git diff` and `git show`: a unified diff with one header
// line per file, every added and removed line, one line of context around
// each change (hunk headers recomputed, so line numbers stay true), and a
// cap on very large files. Formats that are not patches pass unchanged.
type gitDiff struct{ same }

// diffFilter renders diff(1): unified output like git's, other formats
// capped only.
type diffFilter struct{ same }

const (
	diffContext  = 1    // context lines kept around a change
	diffFileMax  = 120  // hunk lines shown per file before capping
	diffTotalMax = 3000 // lines shown in all
)

// statLine is one file of a --stat table: " path   |  12 +++--" or
// " path | Bin 0 -> 1234 bytes".
var statLine = lazy(`^ (\S.*?) +\| +(\d+(?: [-+]+)?|Bin .*)$`)

// compactStat drops the padding git aligns --stat tables with (the path
// column is padded to the longest path): " a.go | 3 ++-". Paths, counts
// and the +/- bar stay.
func compactStat(ls []string) []string {
	for i, l := range ls {
		if m := statLine.FindStringSubmatch(l); m != nil {
			ls[i] = " " + m[1] + " | " + m[2]
		}
	}
	return ls
}

// Render compacts a patch.
func (gitDiff) Render(in Input) (Output, error) {
	if !looksLikeDiff(in.Stdout) {
		return Output{Stdout: join(capLines(compactStat(compactCommitHeaders(lines(in.Stdout))), 600, 500, in)), Stderr: in.Stderr}, nil
	}
	return Output{Stdout: compactDiff(in.Stdout, in), Stderr: in.Stderr}, nil
}

// Render compacts unified output; normal and context diffs are capped only.
func (diffFilter) Render(in Input) (Output, error) {
	return gitDiff{}.Render(in)
}

var hunkRe = lazy(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$`)

// looksLikeDiff reports whether out holds a unified diff.
func looksLikeDiff(out []byte) bool {
	return bytes.Contains(out, []byte("\n@@ -")) && (bytes.Contains(out, []byte("\n+++ ")) || bytes.HasPrefix(out, []byte("diff ")) || bytes.Contains(out, []byte("\ndiff ")))
}

// diffFile is one file's section of a patch.
type diffFile struct {
	name    string   // the file's path (the new one)
	header  []string // the compact header line(s)
	body    []string // hunks
	deleted bool     // the file is deleted: its old content is not shown
	plain   bool     // diff(1), not git: two names may both matter
}

// compactDiff rewrites a (possibly multi-commit) patch. Lines outside file
// sections (commit headers of git show/log -p) are kept verbatim.
func compactDiff(out []byte, in Input) []byte {
	cut := false
	ls := compactDiffLines(compactCommitHeaders(lines(out)), in, &cut)
	if cut {
		ls = append(ls, contextNote(in))
	}
	return join(ls)
}

// contextNote says that hunks show less context than the tool printed.
func contextNote(in Input) string {
	return fmt.Sprintf("(context cut to %d line; full diff: %s)", diffContext, in.Recall())
}

// compactDiffLines is compactDiff over lines already split; *cut is set
// when a hunk lost context lines.
func compactDiffLines(ls []string, in Input, cut *bool) []string {
	var res []string
	var files []diffPart // where each file's section is in res
	emit := func(f *diffFile) {
		if f == nil {
			return
		}
		part := diffPart{at: len(res), name: f.name}
		for _, b := range f.body {
			switch {
			case strings.HasPrefix(b, "+"):
				part.add++
			case strings.HasPrefix(b, "-"):
				part.del++
			}
		}
		body := f.body
		switch {
		case f.deleted && len(body) > 0:
			// a deleted file's old content: counted, not shown
			body = []string{moreLine(len(body)-1, "deleted lines", in)}
		case len(body) > diffFileMax+capSlack:
			body = append(body[:diffFileMax:diffFileMax], moreLine(len(body)-diffFileMax, "lines in this file", in))
		}
		res = append(res, f.header...)
		res = append(res, body...)
		part.end = len(res)
		files = append(files, part)
	}
	var cur *diffFile
	var meta []string // extended header lines of the current file
	var oldName, newName string
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		switch {
		case strings.HasPrefix(l, "diff --git ") || strings.HasPrefix(l, "diff --cc ") || strings.HasPrefix(l, "diff --combined ") || (strings.HasPrefix(l, "diff ") && i+1 < len(ls) && strings.HasPrefix(ls[i+1], "--- ")):
			emit(cur)
			cur = &diffFile{}
			meta = nil
			oldName, newName = diffNames(l)
			cur.header = []string{"## " + newName}
			cur.name = newName
			if !strings.HasPrefix(l, "diff --git ") {
				cur.plain = true
				cur.header = []string{plainHeader(oldName, newName)}
			}
			if strings.HasPrefix(l, "diff --cc ") || strings.HasPrefix(l, "diff --combined ") {
				cur.header = []string{l}
			}
		case cur == nil && strings.HasPrefix(l, "--- ") && i+1 < len(ls) && strings.HasPrefix(ls[i+1], "+++ "):
			emit(cur)
			cur = &diffFile{}
			meta = nil
			oldName, newName = stripPrefix(fieldPath(l[4:])), stripPrefix(fieldPath(ls[i+1][4:]))
			cur.header = []string{plainHeader(oldName, newName)}
			cur.name = newName
			i++
		case cur != nil && len(cur.body) == 0 && !strings.HasPrefix(l, "@@"):
			// extended header: index, modes, renames, ---/+++
			switch {
			case strings.HasPrefix(l, "--- "):
				if p := fieldPath(l[4:]); p != "/dev/null" {
					oldName = stripPrefix(p)
				}
			case strings.HasPrefix(l, "+++ "):
				if p := fieldPath(l[4:]); p != "/dev/null" {
					newName = stripPrefix(p)
				}
			case strings.HasPrefix(l, "index "):
				if f := strings.Fields(l); len(f) == 3 && f[2] != "100644" {
					meta = append(meta, "mode "+f[2])
				}
			case strings.HasPrefix(l, "similarity index "):
				meta = append(meta, strings.TrimPrefix(l, "similarity index ")+" similar")
			case strings.HasPrefix(l, "rename from ") || strings.HasPrefix(l, "copy from "):
				oldName = l[strings.Index(l, "from ")+5:]
			case strings.HasPrefix(l, "rename to ") || strings.HasPrefix(l, "copy to "):
				newName = l[strings.Index(l, "to ")+3:]
				meta = append(meta, strings.Fields(l)[0]+"d from "+oldName)
			case strings.HasPrefix(l, "new file mode "):
				meta = append(meta, "new file"+modeNote(l, "new file mode "))
			case strings.HasPrefix(l, "deleted file mode "):
				meta = append(meta, "deleted"+modeNote(l, "deleted file mode "))
				cur.deleted = true
			case strings.HasPrefix(l, "old mode ") || strings.HasPrefix(l, "new mode "):
				meta = append(meta, l)
			case strings.HasPrefix(l, "dissimilarity index "):
				meta = append(meta, l)
			default:
				meta = append(meta, l) // "Binary files … differ" and the unknown
			}
			if !strings.HasPrefix(cur.header[0], "diff --c") {
				h := "## " + newName
				if cur.plain {
					h = plainHeader(oldName, newName)
				}
				if len(meta) > 0 {
					h += " (" + strings.Join(meta, ", ") + ")"
				}
				cur.header = []string{h}
				cur.name = newName
			}
		case cur != nil && strings.HasPrefix(l, "@@"):
			j := hunkEnd(l, ls, i+1)
			if strings.HasPrefix(l, "@@@") {
				cur.body = append(cur.body, ls[i:j]...)
			} else {
				trimmed := trimHunk(l, ls[i+1:j])
				if hunkLines(trimmed) < j-i-1 {
					*cut = true
				}
				cur.body = append(cur.body, trimmed...)
			}
			i = j - 1
		default:
			emit(cur)
			cur = nil
			res = append(res, l)
		}
	}
	emit(cur)
	if out, ok := diffPage(res, files, in); ok {
		return out
	}
	return capLines(res, diffTotalMax, diffTotalMax-200, in)
}

// diffPart is one file's section of a compact patch: res[at:end].
type diffPart struct {
	at, end  int
	name     string
	add, del int
}

// diffPage shapes a patch too large to show whole, when it is files
// alone (a git diff, one commit's show): every file named with the lines
// it adds and removes, grouped by directory — which files a change
// touched is what a cap must not lose — after as many first files shown
// whole as leave room for that list. Not for several commits' patches
// (their headers between the files): ok false.
func diffPage(res []string, files []diffPart, in Input) ([]string, bool) {
	room := stdoutRoom(in)
	if linesSize(res) <= room && len(res) <= diffTotalMax || len(files) < 2 {
		return nil, false
	}
	for i := 1; i < len(files); i++ {
		if files[i].at != files[i-1].end {
			return nil, false // lines between two files: commits
		}
	}
	if files[len(files)-1].end != len(res) {
		return nil, false
	}
	// listed[k]: about the bytes the list of files[k:] takes (a
	// directory named once in it)
	listed := make([]int, len(files)+1)
	dirs := map[string]bool{}
	for k := len(files) - 1; k >= 0; k-- {
		dir, base := path.Split(files[k].name)
		listed[k] = listed[k+1] + len(base) + 16
		if !dirs[dir] {
			dirs[dir] = true
			listed[k] += len(dir) + 4
		}
	}
	const noteLen = 120
	lead := files[0].at // lines before the first file (none in a diff)
	n := 0              // files shown whole
	for size, from := 0, 0; n < len(files); n++ {
		size, from = size+linesSize(res[from:files[n].end]), files[n].end
		if size+listed[n+1]+noteLen > room {
			break
		}
	}
	out := append([]string{}, res[:lead]...)
	if n > 0 {
		out = append(out[:0], res[:files[n-1].end]...)
	} else if avail := room - linesSize(out) - listed[1] - 2*noteLen; avail > 0 {
		// the first file alone passes the room: as much of it as fits
		// beside the list of the others, and what it left out
		first := res[files[0].at:files[0].end]
		if k := fitting(first, avail); k > 0 {
			out = append(out, first[:k]...)
			out = append(out, moreLine(len(first)-k, "lines in this file", in))
			n = 1
		}
	}
	rest := files[n:]
	add, del := 0, 0
	for _, f := range rest {
		add, del = add+f.add, del+f.del
	}
	what := plural(len(rest), "file", "files") + " changed"
	if n > 0 {
		what = plural(len(rest), "more file", "more files") + " changed"
	}
	out = append(out, fmt.Sprintf("… %s, +%d -%d (%s):", what, add, del, in.Recall()))
	// grouped by directory, in the patch's order
	var order []string
	names := map[string][]string{}
	for _, f := range rest {
		dir, base := path.Split(f.name)
		if _, ok := names[dir]; !ok {
			order = append(order, dir)
		}
		name := quotePath(base)
		if f.add+f.del > 0 { // else binary, or a mode alone: named
			name += fmt.Sprintf(" +%d -%d", f.add, f.del)
		}
		names[dir] = append(names[dir], name)
	}
	var list []string
	for _, d := range order {
		if d == "" {
			list = append(list, "  "+strings.Join(names[d], ", "))
			continue
		}
		list = append(list, "  "+d+": "+strings.Join(names[d], ", "))
	}
	room -= linesSize(out)
	for i, l := range list {
		if room -= len(l) + 1; room < noteRoom {
			left := 0
			for _, d := range order[i:] {
				left += len(names[d])
			}
			list = append(list[:i:i], fmt.Sprintf("  … %s in %s more (%s)", plural(left, "file", "files"), plural(len(order)-i, "directory", "directories"), in.Recall()))
			break
		}
	}
	return append(out, list...), true
}

// hunkEnd returns the index after the hunk whose header is h and whose
// body starts at ls[from]: the header's line counts say where it ends.
func hunkEnd(h string, ls []string, from int) int {
	m := hunkRe.FindStringSubmatch(h)
	if m == nil { // combined diff: marker columns, no blank lines
		j := from
		for j < len(ls) && ls[j] != "" && strings.ContainsRune(" +-\\", rune(ls[j][0])) {
			j++
		}
		return j
	}
	end, _, _ := hunkSpan(m, ls, from)
	return end
}

// hunkSpan walks the hunk whose header hunkRe matched as m, its body from
// ls[from]: the index after it, and the old and new lines it still lacks
// there (more than zero: the text ends first).
func hunkSpan(m []string, ls []string, from int) (end, o, n int) {
	o, n = 1, 1
	if m[2] != "" {
		o, _ = strconv.Atoi(m[2])
	}
	if m[4] != "" {
		n, _ = strconv.Atoi(m[4])
	}
	j := from
	for j < len(ls) && (o > 0 || n > 0 || strings.HasPrefix(ls[j], "\\")) {
		switch lineKind(ls[j]) {
		case ' ':
			o--
			n--
		case '-':
			o--
		case '+':
			n--
		case '\\':
		default:
			return j, o, n
		}
		j++
	}
	return j, o, n
}

func modeNote(l, prefix string) string {
	if m := strings.TrimPrefix(l, prefix); m != "100644" {
		return " " + m
	}
	return ""
}

// diffNames extracts the two paths of a `diff --git a/x b/y` line.
func diffNames(l string) (string, string) {
	f := strings.Fields(l)
	if len(f) >= 4 && strings.HasPrefix(l, "diff --git ") {
		return stripPrefix(f[2]), stripPrefix(f[len(f)-1])
	}
	if len(f) >= 2 {
		return f[len(f)-2], f[len(f)-1]
	}
	return "", ""
}

// plainHeader names the files a diff(1) compares: the new one, or both
// when they are not the same file in two trees (diff -u a.txt b.txt).
func plainHeader(oldName, newName string) string {
	if oldName != "" && oldName != newName && oldName != "/dev/null" && newName != "/dev/null" && path.Base(oldName) != path.Base(newName) {
		return "## " + oldName + " → " + newName
	}
	return "## " + newName
}

// fieldPath drops the timestamp diff(1) writes after a tab.
func fieldPath(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		return s[:i]
	}
	return s
}

// stripPrefix drops git's a/ and b/ prefixes.
func stripPrefix(p string) string {
	if strings.HasPrefix(p, "a/") || strings.HasPrefix(p, "b/") {
		return p[2:]
	}
	return p
}

// truncatedHunk: body has fewer lines than the hunk header m counts.
func truncatedHunk(m []string, body []string) bool {
	_, o, n := hunkSpan(m, body, 0)
	return o > 0 || n > 0
}

// trimHunk keeps each change with diffContext lines of context and splits
// the hunk where longer context ran between changes; every header it
// writes gives the true line numbers of the lines below it.
func trimHunk(header string, body []string) []string {
	m := hunkRe.FindStringSubmatch(header)
	if m == nil {
		return append([]string{header}, body...)
	}
	if truncatedHunk(m, body) {
		// the hunk goes on past the text (a window's cut): as it is, its
		// header's counts saying how far
		return append([]string{header}, body...)
	}
	oldStart, _ := strconv.Atoi(m[1])
	newStart, _ := strconv.Atoi(m[3])
	// An empty range names the line before it ("-0,0": a new file);
	// oldStart and newStart are the numbers of the next lines.
	if m[2] == "0" {
		oldStart++
	}
	if m[4] == "0" {
		newStart++
	}
	keep := make([]bool, len(body))
	for i, l := range body {
		if l != "" && (l[0] == '+' || l[0] == '-') {
			for k := max(0, i-diffContext); k <= min(len(body)-1, i+diffContext); k++ {
				keep[k] = true
			}
		}
		if l != "" && l[0] == '\\' { // "\ No newline at end of file" goes with its line
			keep[i] = i > 0 && keep[i-1]
		}
	}
	var out []string
	oldLine, newLine := oldStart, newStart
	first := true
	for i := 0; i < len(body); {
		if !keep[i] {
			oldLine, newLine = advance(body[i], oldLine, newLine)
			i++
			continue
		}
		j := i
		o, n := 0, 0
		for j < len(body) && keep[j] {
			switch c := lineKind(body[j]); c {
			case ' ':
				o++
				n++
			case '-':
				o++
			case '+':
				n++
			}
			j++
		}
		h := "@@ -" + hunkRange(oldLine, o) + " +" + hunkRange(newLine, n) + " @@"
		if first {
			h += m[5]
			first = false
		}
		out = append(out, h)
		out = append(out, body[i:j]...)
		for k := i; k < j; k++ {
			oldLine, newLine = advance(body[k], oldLine, newLine)
		}
		i = j
	}
	return out
}

// hunkLines counts the lines of hunks that are not hunk headers.
func hunkLines(ls []string) int {
	n := 0
	for _, l := range ls {
		if !strings.HasPrefix(l, "@@") {
			n++
		}
	}
	return n
}

// lineKind is a hunk line's marker (an empty line is context whose
// leading space an editor stripped).
func lineKind(l string) byte {
	if l == "" {
		return ' '
	}
	return l[0]
}

func advance(l string, o, n int) (int, int) {
	switch lineKind(l) {
	case ' ':
		return o + 1, n + 1
	case '-':
		return o + 1, n
	case '+':
		return o, n + 1
	}
	return o, n
}

// hunkRange writes a side of a hunk header as git does: "start,count",
// "start" when count is 1, and start-1 when count is 0.
func hunkRange(start, count int) string {
	switch count {
	case 1:
		return strconv.Itoa(start)
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	}
	return fmt.Sprintf("%d,%d", start, count)
}
