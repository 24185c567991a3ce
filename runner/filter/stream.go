package filter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/gotk-dev/gotk/runner/window"
)

// Stream compacts an output too large to hold, as it arrives, in bounded
// memory: the first page of stdout (rendered by the filter itself, as if
// it were the whole output), exact counts of everything after it (lines,
// bytes; per file for grep, per top directory for find, per directory for
// ls -R, per entry of the root for tree), the last lines, and the raw line
// ranges to recall each part.
// Filters that need the whole output (JSON, structured tool output) get
// the same: their first page, the counts, the end; never the raw stream.
// Lines holding NUL bytes (binary output) are counted, never printed.
type Stream struct {
	f    Filter
	kind streamKind
	// grepFile: grep prefixes its lines with the file name.
	grepFile bool

	line    int64     // newlines seen, both streams in arrival order
	open    [2]bool   // a stream's last line has no newline yet
	part    [2][]byte // that line's first bytes, while lines are looked at
	partNUL [2]bool   // that line holds a NUL byte
	partLen [2]int    // its length so far
	bytes   [2]int64
	lines   [2]int64
	binary  [2]int64 // lines holding NUL bytes

	head      [2][]byte // the first lines of each stream
	headFull  [2]bool
	headLines int64 // stdout lines in head
	headEnd   int64 // raw line number of the last of them
	errEarly  bool  // stderr lines arrived among the head's
	lastErr   int64 // raw line number of stderr's last line

	tail [2]tailRing

	// Past the head: groups of consecutive lines with one key (a file, a
	// top directory), the first ones listed, the rest counted.
	cur      group
	listed   []group
	listSize int
	more     group // the groups not listed, together (key: how many)
	groups   int64
	roots    [][]byte // find: the search roots the keys are under
	// ls -R: stdout's last line was blank (a directory's heading comes
	// after one); the last heading in the head
	prevBlank   bool
	headHeading string

	// Past the head of a run's output (tests, builds, logs: not a read
	// or a listing), the lines that tell a failure or an error, with up
	// to tellContext lines before each, kept wherever they are; told
	// counts them all.
	telling  bool
	kept     []toldLine
	keptLen  int
	told     int64
	goJSON   bool // the lines are go test -json events: shown as their output
	recent   [tellContext]recentLine
	goEvents goEventCount // go test: its results, counted from every event
	// lastTold is the raw number of the last line told: a line open
	// across two chunks is seen in both; keptOpen: it was kept, and
	// its end is yet to come
	lastTold int64
	keptOpen bool
}

// toldLine is a line kept past the head: its raw number and text.
type toldLine struct {
	n    int64
	text string
	ctx  bool // context before a telling line
}

// Bounds of the lines kept past the head.
const (
	tellMax     = 80      // lines kept (telling lines and their context)
	tellBytes   = 6 << 10 // their bytes
	tellContext = 2       // lines kept before each telling line
	tellLineMax = 300     // bytes of one kept line
)

// tellWords are what a telling line holds one of (window.Telling then
// judges the line): a chunk is searched for them, not split into lines.
var tellWords = [][]byte{[]byte("rror"), []byte("RROR"), []byte("ail"), []byte("AIL"), []byte("anic"), []byte("ANIC"),
	[]byte("atal"), []byte("ATAL"), []byte("xception"), []byte("raceback"), []byte("✗"), []byte("✕")}

type streamKind int

const (
	streamText  streamKind = iota // lines: a read, a log, test or build output
	streamGrep                    // grep matches: grouped by file
	streamPaths                   // find / grep -l: grouped by top directory
	streamDirs                    // ls -R: grouped by directory
	streamTree                    // tree: grouped by the entries under the root
)

// group is a run of lines with one key: n lines, raw lines from..to.
type group struct {
	key      string
	n        int64
	from, to int64
}

// Budgets of the compact form, all within Ceiling.
const (
	streamHead     = pageBudget     // stdout lines a listing's filter renders
	streamTextHead = 2 * pageBudget // stdout lines of text (a read, a log)
	streamErrHead  = 2 << 10        // stderr's first lines
	streamList     = 8 << 10        // the groups listed
	streamTail     = 6 << 10        // stdout's last lines (text)
	streamErrTail  = 1 << 10        // stderr's last lines
	streamLineMax  = 1000           // bytes of one line shown
	streamPartMax  = streamLineMax  // bytes of an open line held
	streamTailRing = 2 * streamTail // bytes of each stream's end held
)

// Streams reports whether f's compact form of a large output is the
// stream's (a read, a listing, a search): such a run need not hold more
// than a first page before it streams.
func Streams(f Filter) bool {
	switch f.(type) {
	case read, grep, find, ls, treeList:
		return true
	}
	return false
}

// NewStream starts the compact form of one run of f; in names the
// command (Argv, Tool).
func NewStream(f Filter, in Input) *Stream {
	s := &Stream{f: f}
	switch f.(type) {
	case grep:
		args := toolArgs(in.Argv, in.Tool)
		prog := ""
		if len(in.Argv) > in.Tool {
			prog = in.Argv[in.Tool]
		}
		switch {
		case userHas(in.Argv, in.Tool, "-l", "-L", "--files-with-matches", "--files-without-match", "--files"):
			s.kind = streamPaths
		case userHas(in.Argv, in.Tool, "-c", "--count", "-A", "-B", "-C", "--context", "--after-context", "--before-context", "--heading", "--json", "-o", "--only-matching", "-Z", "--null") || grepContext(args):
			s.kind = streamText
		default:
			s.kind, s.grepFile = streamGrep, grepShowsFile(prog, args)
		}
	case find:
		s.kind, s.roots = streamPaths, findRoots(in.Argv, in.Tool)
		if userHas(in.Argv, in.Tool, "-exec", "-execdir", "-ok", "-okdir", "-print0", "-printf", "-fprint", "-ls", "-fls") {
			s.kind = streamText
		}
	case ls:
		if userHas(in.Argv, in.Tool, "-R", "--recursive") {
			s.kind = streamDirs
		}
	case treeList:
		// tree's own drawing (npm ls draws another, and its depth is the
		// user's); not without indentation, nor as JSON, XML or HTML
		if len(in.Argv) > in.Tool && path.Base(in.Argv[in.Tool]) == "tree" && !userHas(in.Argv, in.Tool, "-i", "-J", "-X", "-H") {
			s.kind = streamTree
		}
	}
	if s.kind == streamText && !Streams(f) {
		s.telling = true
		_, s.goJSON = f.(goTest)
	}
	for i := range s.tail {
		s.tail[i].buf = make([]byte, 0, streamTailRing)
	}
	return s
}

// Write takes the next bytes of stream (0 stdout, 1 stderr), in the
// order they arrived. p is not kept.
func (s *Stream) Write(stream int, p []byte) {
	if len(p) == 0 {
		return
	}
	s.bytes[stream] += int64(len(p))
	s.tail[stream].add(p)
	// One look for a NUL in the chunk: a line is searched for one only
	// when the chunk holds one.
	nulIn := bytes.IndexByte(p, 0) >= 0
	// go test's events are each looked at (one line each): the counts
	// of tests and packages come from all of them
	if s.headFull[stream] && (stream == 1 || s.kind == streamText && !s.goJSON) && !nulIn {
		// Nothing to look at line by line: count (and, in a run's
		// output, keep the lines that tell a failure).
		if s.telling {
			s.tell(stream, p)
		}
		n := int64(bytes.Count(p, []byte{'\n'}))
		if n > 0 {
			if s.partNUL[stream] {
				s.binary[stream]++
				s.partNUL[stream] = false
			}
			s.part[stream], s.partLen[stream] = s.part[stream][:0], 0
			s.line += n
			s.lines[stream] += n
			if stream == 1 {
				s.lastErr = s.line
			}
		}
		if s.telling {
			// the open line's start, for a failure word that ends in
			// the next chunk
			open := p[bytes.LastIndexByte(p, '\n')+1:]
			s.partLen[stream] += len(open)
			if room := streamPartMax - len(s.part[stream]); room > 0 {
				s.part[stream] = append(s.part[stream], open[:min(room, len(open))]...)
			}
		}
		s.open[stream] = p[len(p)-1] != '\n'
		return
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.keepPart(stream, p)
			s.open[stream] = true
			return
		}
		l := p[:i]
		nul, size := s.partNUL[stream], len(l)
		if s.partLen[stream] > 0 || nul {
			s.keepPart(stream, l)
			l, nul, size = s.part[stream], s.partNUL[stream], s.partLen[stream]
			s.part[stream], s.partNUL[stream], s.partLen[stream] = s.part[stream][:0], false, 0
		}
		s.line++
		s.lines[stream]++
		s.open[stream] = false
		s.onLine(stream, l, size, nul || nulIn && bytes.IndexByte(l, 0) >= 0)
		p = p[i+1:]
	}
}

// tell keeps the lines of p (stream's next bytes, past its head) that
// tell a failure or an error, with the lines before them: the chunk is
// searched for tellWords, and only the lines holding one are judged. The
// line open before p (s.part) is joined to p's first line.
func (s *Stream) tell(stream int, p []byte) {
	var hits []int
	for _, w := range tellWords {
		for from := 0; ; {
			i := bytes.Index(p[from:], w)
			if i < 0 {
				break
			}
			hits = append(hits, from+i)
			from += i + len(w)
			if len(hits) > 4096 {
				break // enough to judge: most of the chunk tells
			}
		}
	}
	// the line open before p: a word in its start (which the line by
	// line path does not judge until the line ends), or cut by p's start
	if s.open[stream] && len(s.part[stream]) > 0 {
		edge := append(append([]byte{}, s.part[stream]...), p[:min(12, len(p))]...)
		for _, w := range tellWords {
			if bytes.Contains(edge, w) {
				hits = append(hits, 0)
				break
			}
		}
	}
	if s.keptOpen {
		hits = append(hits, 0) // the kept line goes on here
	}
	if len(hits) == 0 {
		return
	}
	slices.Sort(hits)
	base, at, counted := s.line, 0, 0 // counted: newlines in p[:at]
	lastStart := -1
	for _, h := range hits {
		start := bytes.LastIndexByte(p[:h], '\n') + 1
		if start == lastStart {
			continue
		}
		lastStart = start
		counted += bytes.Count(p[at:start], []byte{'\n'})
		at = start
		end := bytes.IndexByte(p[start:], '\n')
		open := end < 0 // the line goes on in the next chunk
		if open {
			end = len(p) - start
		}
		text := p[start : start+end]
		if start == 0 && s.open[stream] {
			text = append(append([]byte{}, s.part[stream]...), text...)
		}
		n := base + 1 + int64(counted)
		if n == s.lastTold {
			// a line open across chunks, told already: kept whole
			if k := len(s.kept) - 1; s.keptOpen && k >= 0 && s.kept[k].n == n {
				s.kept[k].text = shortKept(s.shownText(text))
				s.keptOpen = open
			}
			continue
		}
		shown := s.shownText(text)
		if tells, room := s.tells(n, shown); !tells || !room {
			continue
		}
		// the lines before it in p, as context
		ctx := start
		var before [][]byte
		for k := 0; k < tellContext && ctx > 0; k++ {
			prev := bytes.LastIndexByte(p[:ctx-1], '\n') + 1
			before = append([][]byte{p[prev : ctx-1]}, before...)
			ctx = prev
		}
		for k, b := range before {
			s.keep(n-int64(len(before)-k), b, true)
		}
		s.keepShown(n, shown, false)
		s.keptOpen = open
	}
}

// tells counts line n, shown as shown, when it tells a failure or an
// error (once: a line open across two chunks is seen in both); room: it
// may be kept.
func (s *Stream) tells(n int64, shown string) (tells, room bool) {
	if n == s.lastTold || !window.Telling(shown) {
		return false, false
	}
	s.told++
	s.lastTold = n
	return true, len(s.kept) < tellMax && s.keptLen < tellBytes
}

// count reads one event's action (and whether it is a test's) without
// decoding the whole line: the results are a small part of the events.
func (c *goEventCount) count(l []byte) {
	i := bytes.Index(l, []byte(`"Action":"`))
	if i < 0 || len(l) == 0 || l[0] != '{' {
		return
	}
	rest := l[i+len(`"Action":"`):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return
	}
	if action := string(rest[:j]); action != "pass" && action != "fail" && action != "skip" {
		return
	}
	var e testEvent
	if json.Unmarshal(l, &e) != nil {
		return
	}
	c.add(e)
}

// shortKept bounds a kept line's text.
func shortKept(t string) string {
	if len(t) > tellLineMax {
		return t[:utf8Cut([]byte(t), tellLineMax)] + " …"
	}
	return t
}

// renderTold writes the kept lines that tell a failure past the head,
// those before the last lines (from tailFrom on, shown anyway).
func (s *Stream) renderTold(out *bytes.Buffer, tailFrom int64, in Input, room int) {
	var shown []toldLine
	told := s.told
	for _, k := range s.kept {
		if k.n >= tailFrom {
			if !k.ctx {
				told--
			}
			continue
		}
		if room -= len(k.text) + 12; room < 0 {
			break // the rest are counted
		}
		shown = append(shown, k)
	}
	for len(shown) > 0 && shown[len(shown)-1].ctx {
		shown = shown[:len(shown)-1] // context of a line not shown
	}
	if told <= 0 || len(shown) == 0 {
		return
	}
	telling := 0
	for _, k := range shown {
		if !k.ctx {
			telling++
		}
	}
	more := ""
	if int64(telling) < told {
		more = fmt.Sprintf("; the first %d of them here, all: %s", telling, in.Recall())
	}
	verb := "tell"
	if told == 1 {
		verb = "tells"
	}
	fmt.Fprintf(out, "%s past the first page %s a failure or an error (raw line: text, with up to %d lines before each%s):\n", plural64(told, "line", "lines"), verb, tellContext, more)
	for _, k := range shown {
		fmt.Fprintf(out, "  %d: %s\n", k.n, k.text)
	}
}

// tellLine judges one whole line past the head (raw number s.line), as
// tell does a chunk's (the line by line path: a chunk with NUL bytes, the
// one that filled the head).
func (s *Stream) tellLine(l []byte) {
	defer func() {
		// the lines before the next one, for its context
		free := s.recent[0].text[:0] // the oldest's buffer, reused
		copy(s.recent[:], s.recent[1:])
		s.recent[len(s.recent)-1] = recentLine{s.line, append(free, l[:min(len(l), streamPartMax)]...)}
	}()
	for _, w := range tellWords {
		if bytes.Contains(l, w) {
			shown := s.shownText(l)
			if tells, room := s.tells(s.line, shown); tells && room {
				for _, r := range s.recent {
					if r.n > 0 && r.n >= s.line-tellContext {
						s.keep(r.n, r.text, true)
					}
				}
				s.keepShown(s.line, shown, false)
			}
			return
		}
	}
}

// recentLine is a line the line by line path saw last.
type recentLine struct {
	n    int64
	text []byte
}

// keep adds one line past the head to the kept ones (once).
func (s *Stream) keep(n int64, text []byte, ctx bool) {
	s.keepShown(n, s.shownText(text), ctx)
}

// keepShown is keep of a line already as the reader sees it.
func (s *Stream) keepShown(n int64, shown string, ctx bool) {
	if k := len(s.kept); k > 0 && s.kept[k-1].n >= n {
		if s.kept[k-1].n == n && !ctx {
			s.kept[k-1].ctx = false
		}
		return
	}
	t := shortKept(shown)
	s.kept = append(s.kept, toldLine{n: n, text: t, ctx: ctx})
	s.keptLen += len(t) + 12
}

// shownText is a kept line as the reader sees it: a go test -json event
// as the output it carries (with its test's name), any other line as it
// is.
func (s *Stream) shownText(l []byte) string {
	if !s.goJSON || len(l) == 0 || l[0] != '{' {
		return string(l)
	}
	var e testEvent
	if json.Unmarshal(l, &e) != nil {
		return string(l)
	}
	switch {
	case e.Action == "output" || e.Action == "build-output":
		text := strings.TrimRight(e.Output, "\n")
		if e.Test != "" {
			return e.Test + ": " + strings.TrimLeft(text, " \t")
		}
		return text
	case e.Test != "":
		return fmt.Sprintf("%s %s (%s)", e.Action, e.Test, e.Package)
	}
	return fmt.Sprintf("%s %s", e.Action, e.Package)
}

// Lines is how many whole lines came so far, both streams.
func (s *Stream) Lines() int64 { return s.line }

// Bytes is how many bytes came, both streams.
func (s *Stream) Bytes() int64 { return s.bytes[0] + s.bytes[1] }

// keepPart holds the start of an open line (bounded: the rest is only
// counted) and notes a NUL byte in it.
func (s *Stream) keepPart(stream int, p []byte) {
	s.partLen[stream] += len(p)
	if bytes.IndexByte(p, 0) >= 0 {
		s.partNUL[stream] = true
	}
	if room := streamPartMax - len(s.part[stream]); room > 0 {
		s.part[stream] = append(s.part[stream], p[:min(room, len(p))]...)
	}
}

// onLine looks at one whole line of stream (its raw number is s.line).
// size is its length: l may be only its start.
func (s *Stream) onLine(stream int, l []byte, size int, nul bool) {
	if nul {
		s.binary[stream]++
	}
	if s.goJSON && stream == 0 && size == len(l) {
		s.goEvents.count(l)
	}
	if stream == 1 {
		s.lastErr = s.line
		if !s.headFull[0] {
			s.errEarly = true
		}
		if !s.headFull[1] {
			s.addHead(1, l, size, nul, streamErrHead)
		} else if s.telling && !nul {
			s.tellLine(l)
		}
		return
	}
	if !s.headFull[0] {
		budget := streamHead
		if s.kind == streamText {
			budget = streamTextHead
		}
		if s.addHead(0, l, size, nul, budget) {
			s.headLines++
			s.headEnd = s.line
			switch s.kind {
			case streamDirs:
				s.headDir(l, size, nul)
			case streamTree:
				if name, depth := treeEntry(l, nul); depth == 0 {
					s.headHeading = name
				}
			}
			return
		}
	}
	if s.kind == streamText {
		if s.telling && !nul {
			s.tellLine(l)
		}
		return
	}
	switch s.kind {
	case streamDirs:
		s.dirLine(l, nul)
		return
	case streamTree:
		s.treeLine(l, nul)
		return
	}
	key := s.key(l, nul)
	if s.cur.n > 0 && string(key) == s.cur.key {
		s.cur.n++
		s.cur.to = s.line
		return
	}
	s.endGroup()
	s.cur = group{key: string(key), n: 1, from: s.line, to: s.line}
}

// dirLine counts one line of ls -R past the head: a directory's heading
// (`path:` after the blank line that ends the directory before) starts
// its group, each entry after it counts; the blank lines are neither.
// The group's lines run from its heading to its last entry.
func (s *Stream) dirLine(l []byte, nul bool) {
	blank := len(l) == 0
	heading := !nul && lsHeading(l, s.prevBlank)
	s.prevBlank = blank
	switch {
	case heading:
		s.endGroup()
		s.cur = group{key: string(l), from: s.line, to: s.line}
	case blank:
	default:
		s.countInGroup()
	}
}

// countInGroup counts line s.line in the current group: past the head,
// first in the group the head ended in (named headHeading), which goes on.
func (s *Stream) countInGroup() {
	if s.cur.from == 0 {
		s.cur = group{key: s.headHeading, from: s.line}
	}
	s.cur.n++
	s.cur.to = s.line
}

// treeLine counts one line of tree past the head: an entry right under
// the root starts its group, every entry below it counts in it (itself
// too); the root, blank lines and the totals line are none.
func (s *Stream) treeLine(l []byte, nul bool) {
	name, depth := treeEntry(l, nul)
	switch {
	case depth == 0:
		s.endGroup()
		s.cur = group{key: name, n: 1, from: s.line, to: s.line}
	case depth > 0:
		s.countInGroup()
	}
}

// treeEntry reads a line of tree's drawing: an entry right under the
// root gives its name (a link's target left out) and depth 0; an entry
// deeper, depth 1; any other line (the root, the totals, a blank line)
// depth -1. Byte tests, not a pattern: a tree of a disk is millions of
// lines.
func treeEntry(l []byte, nul bool) (string, int) {
	if nul || len(l) == 0 {
		return "", -1
	}
	for _, c := range treeConnectors {
		if bytes.HasPrefix(l, c) {
			name, _, _ := strings.Cut(string(l[len(c):]), " -> ")
			return name, 0
		}
	}
	switch {
	case l[0] == ' ' || l[0] == '|' || bytes.HasPrefix(l, []byte("│")) || bytes.HasPrefix(l, []byte("\u00a0")):
		return "", 1
	}
	return "", -1
}

// treeConnectors start an entry right under the root (tree's UTF-8 and
// ASCII drawings).
var treeConnectors = [][]byte{[]byte("├── "), []byte("└── "), []byte("|-- "), []byte("`-- ")}

// lsHeading: l is a directory's heading in ls -R's output, given that
// the line before it was blank (or that it is the first line): it ends
// in ':' (a name may hold spaces and colons, an entry may end in one;
// only the blank line before tells).
func lsHeading[T ~string | ~[]byte](l T, afterBlank bool) bool {
	return afterBlank && len(l) > 0 && l[len(l)-1] == ':'
}

// headDir follows ls -R's headings through the head: the directory it
// ends in goes on past it. (The first heading comes first, with no blank
// line before it: `ls -R dir` prints `dir:` first.)
func (s *Stream) headDir(l []byte, size int, nul bool) {
	if !nul && size == len(l) && lsHeading(l, s.prevBlank || s.headLines == 1) {
		s.headHeading = string(l)
	}
	s.prevBlank = size == 0
}

// addHead adds l to a stream's head unless that is full (then it says
// false and the head stays as it is).
func (s *Stream) addHead(stream int, l []byte, size int, nul bool, budget int) bool {
	shown := l
	if nul {
		shown = fmt.Appendf(nil, "[binary: a line of %d bytes with NUL bytes, not shown]", size)
	} else if size > streamLineMax {
		cut := utf8Cut(l, streamLineMax)
		shown = fmt.Appendf(append([]byte{}, l[:cut]...), "… [%d more bytes]", size-cut)
	}
	if len(s.head[stream])+len(shown)+1 > budget && len(s.head[stream]) > 0 {
		s.headFull[stream] = true
		return false
	}
	s.head[stream] = append(append(s.head[stream], shown...), '\n')
	return true
}

// utf8Cut is the largest cut ≤ n of l that starts no UTF-8 sequence's
// middle.
func utf8Cut(l []byte, n int) int {
	for n > 0 && n < len(l) && !utf8Start(l[n]) {
		n--
	}
	return min(n, len(l))
}

// key is the group a line past the head is counted in.
func (s *Stream) key(l []byte, nul bool) []byte {
	if nul {
		return []byte("(binary)")
	}
	switch s.kind {
	case streamGrep:
		if !s.grepFile {
			return nil
		}
		if i := bytes.IndexByte(l, ':'); i >= 0 {
			return l[:i]
		}
		return nil
	case streamPaths:
		return s.topDir(l)
	}
	return nil
}

// topDir is the directory right under the search root a path is in
// (find's operands; "." when none), or its first directory when it is
// under none of them: what find prints under it is contiguous.
func (s *Stream) topDir(l []byte) []byte {
	for _, r := range s.roots {
		if bytes.HasPrefix(l, r) {
			rest := l[len(r):]
			if i := bytes.IndexByte(rest, '/'); i >= 0 {
				return l[:len(r)+i]
			}
			return l
		}
	}
	lead := 0
	for _, p := range [][]byte{[]byte("./"), []byte("/")} {
		if bytes.HasPrefix(l, p) {
			lead = len(p)
			break
		}
	}
	if i := bytes.IndexByte(l[lead:], '/'); i >= 0 {
		return l[:lead+i]
	}
	return l
}

// findRoots are the directories find searches, each with a slash.
func findRoots(argv []string, tool int) [][]byte {
	var roots [][]byte
	for _, a := range toolArgs(argv, tool) {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		roots = append(roots, []byte(strings.TrimSuffix(a, "/")+"/"))
	}
	if len(roots) == 0 {
		roots = [][]byte{[]byte("./")}
	}
	return roots
}

// endGroup lists the current group while the list has room, else counts
// it with the rest.
func (s *Stream) endGroup() {
	g := s.cur
	if g.n == 0 {
		return
	}
	s.cur = group{}
	s.groups++
	line := len(g.key) + 48
	if s.more.n == 0 && s.listSize+line <= streamList {
		s.listed = append(s.listed, g)
		s.listSize += line
		return
	}
	if s.more.n == 0 {
		s.more.from = g.from
	}
	s.more.n += g.n
	s.more.to = g.to
	s.more.key = fmt.Sprint(s.groups - int64(len(s.listed)))
}

// Render is the compact form of the whole run, once it ended: in is the
// run (Argv…, Exit, Recall, RecallLines as they stand now: the raw output
// may have failed to be kept), note lines the runner adds (what the store
// kept, or why nothing is).
func (s *Stream) Render(in Input, note string) Output {
	for i := range s.open {
		if s.open[i] {
			// The last line, without its newline, is a line for recall too.
			s.line++
			s.lines[i]++
			s.open[i] = false
			s.onLine(i, s.part[i], s.partLen[i], s.partNUL[i])
		}
	}
	s.endGroup()
	total := s.line
	ranged := in.RecallLines != nil
	span := func(from, to int64) string {
		if !ranged || from > to {
			return ""
		}
		return fmt.Sprintf("lines %d-%d", from, to)
	}
	var out bytes.Buffer
	out.Write(s.renderHead(in))
	if rest := s.lines[0] - s.headLines; rest > 0 {
		from := s.headEnd + 1
		what := fmt.Sprintf("%s more lines", count(rest))
		switch s.kind {
		case streamGrep:
			if s.grepFile {
				what = fmt.Sprintf("%s more matches in %s", count(rest), plural64(s.groups, "file", "files"))
			} else {
				what = fmt.Sprintf("%s more matches", count(rest))
			}
		case streamPaths:
			what = fmt.Sprintf("%s more paths", count(rest))
		case streamDirs:
			what = fmt.Sprintf("%s more lines in %s", count(rest), plural64(s.groups, "directory", "directories"))
		case streamTree:
			what = fmt.Sprintf("%s more lines under %s", count(rest), plural64(s.groups, "entry of the root", "entries of the root"))
		}
		where := in.Recall()
		if ranged {
			where = span(from, total) + ": " + in.RecallLines(int(from), int(total))
		}
		fmt.Fprintf(&out, "… %s (%s)\n", what, where)
		unit := map[streamKind]string{streamGrep: "match", streamPaths: "path", streamDirs: "entry", streamTree: "path"}[s.kind]
		for _, g := range s.listed {
			fmt.Fprintf(&out, "  %s (%s)", strings.TrimSuffix(g.key, ":"), plural64(g.n, unit, pluralOf(unit)))
			if r := span(g.from, g.to); r != "" {
				fmt.Fprintf(&out, ": %s", r)
			}
			out.WriteByte('\n')
		}
		if s.more.n > 0 {
			fmt.Fprintf(&out, "  … %s more, %s", s.more.key, plural64(s.more.n, unit, pluralOf(unit)))
			if r := span(s.more.from, s.more.to); r != "" {
				fmt.Fprintf(&out, ": %s", r)
			}
			out.WriteByte('\n')
		}
		tailMax := streamTail
		if s.kind != streamText {
			tailMax = streamTail / 6
		}
		ll := s.tail[0].lines(tailMax, s.lines[0]-s.headLines)
		tailFrom := s.line - int64(len(ll)) + 1
		// what is printed stays within Ceiling: the kept lines get what
		// the page, the last lines, stderr's parts and the notes leave
		room := Ceiling - out.Len() - linesSize(ll) - streamErrHead - streamErrTail - 4*noteRoom - len(note)
		s.renderTold(&out, tailFrom, in, room)
		if s.goJSON {
			for i, l := range ll {
				ll[i] = s.shownText([]byte(l))
			}
		}
		if len(ll) > 0 {
			last := s.line
			if s.lastErr >= last-int64(len(ll))+1 {
				ranged = false // stderr ends among them: no exact numbers
			}
			if r := span(last-int64(len(ll))+1, last); r != "" {
				fmt.Fprintf(&out, "the last %s (%s):\n", plural(len(ll), "line", "lines"), r)
			} else {
				fmt.Fprintf(&out, "the last %s:\n", plural(len(ll), "line", "lines"))
			}
			for _, l := range ll {
				out.WriteString(l)
				out.WriteByte('\n')
			}
		}
	}
	var errOut bytes.Buffer
	errOut.Write(s.head[1])
	headErr := int64(bytes.Count(s.head[1], []byte{'\n'}))
	if rest := s.lines[1] - headErr; rest > 0 {
		ll := s.tail[1].lines(streamErrTail, rest)
		if int64(len(ll)) < rest {
			fmt.Fprintf(&errOut, "… %s more lines on stderr (%s)\n", count(rest-int64(len(ll))), in.Recall())
		}
		for _, l := range ll {
			errOut.WriteString(l)
			errOut.WriteByte('\n')
		}
	}
	if c := s.goEvents; s.goJSON && c != (goEventCount{}) {
		// go test's own result, from every event
		fmt.Fprintln(&out, c.summary())
	}
	sum := fmt.Sprintf("gotk: %s bytes, %s lines streamed", count(s.bytes[0]+s.bytes[1]), count(total))
	if b := s.binary[0] + s.binary[1]; b > 0 {
		sum += fmt.Sprintf(" (%s with NUL bytes: binary, not shown)", count(b))
	}
	if ranged || in.RecallLines != nil {
		sum += "; all of it: " + in.RecallLines(1, int(max(total, 1)))
	} else {
		sum += "; " + in.Recall()
	}
	fmt.Fprintln(&out, sum)
	if note != "" {
		out.WriteString(strings.TrimSuffix(note, "\n") + "\n")
	}
	return Output{Stdout: out.Bytes(), Stderr: errOut.Bytes()}
}

// renderHead is the filter's rendering of the first page, as if it were
// the whole output; the page itself when the filter cannot render a part.
func (s *Stream) renderHead(in Input) []byte {
	if len(s.head[0]) == 0 {
		return nil
	}
	in.Stdout, in.Combined, in.Plain = s.head[0], s.head[0], s.head[0]
	if s.errEarly {
		in.RecallLines, in.Plain = nil, nil
	}
	if s.telling && (in.Run || s.goJSON) {
		// A run's filter reads a whole run: over its first page alone
		// it would count and conclude (go test said "no tests ran" of a
		// run whose tests were still printing). The page as the tool
		// prints it instead.
		if p, ok := s.f.(Plainer); ok {
			if b, ok := safePlain(p, in); ok {
				return b
			}
		}
		return s.head[0]
	}
	out, err := safeStreamRender(s.f, in)
	if err != nil || len(out.Stdout) > len(s.head[0])+streamHead {
		return s.head[0]
	}
	return out.Stdout
}

func safePlain(p Plainer, in Input) (b []byte, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			b, ok = nil, false
		}
	}()
	return p.Plain(in)
}

func safeStreamRender(f Filter, in Input) (out Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("filter panicked: %v", r)
		}
	}()
	return f.Render(in)
}

func pluralOf(unit string) string {
	switch unit {
	case "match":
		return "matches"
	case "entry":
		return "entries"
	}
	return unit + "s"
}

func plural64(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return count(n) + " " + many
}

// count writes n with thousands separators: counts of streamed output run
// to millions.
func count(n int64) string {
	s := fmt.Sprint(n)
	if n < 10000 && n > -10000 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre == 0 {
		pre = 3
	}
	b.WriteString(s[:pre])
	for i := pre; i < len(s); i += 3 {
		b.WriteByte(',')
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// tailRing holds the last bytes of a stream.
type tailRing struct {
	buf []byte
}

// add keeps the end of p: the buffer slides when full (copying at most
// its own size per call, however large p is).
func (t *tailRing) add(p []byte) {
	c := cap(t.buf)
	if len(p) >= c {
		t.buf = append(t.buf[:0], p[len(p)-c:]...)
		return
	}
	if len(t.buf)+len(p) > c {
		drop := len(t.buf) + len(p) - c
		t.buf = t.buf[:copy(t.buf, t.buf[drop:])]
	}
	t.buf = append(t.buf, p...)
}

// lines returns the last whole lines held, within max bytes and at most
// limit of them, binary ones replaced by a note.
func (t *tailRing) lines(max int, limit int64) (ll []string) {
	b := bytes.TrimSuffix(t.buf, []byte{'\n'})
	all := strings.Split(string(b), "\n")
	if len(t.buf) == cap(t.buf) && len(all) > 0 {
		all = all[1:] // the first may be cut
	}
	size := 0
	for i := len(all) - 1; i >= 0 && int64(len(ll)) < limit; i-- {
		l := all[i]
		if strings.IndexByte(l, 0) >= 0 {
			l = fmt.Sprintf("[binary: a line of %d bytes with NUL bytes, not shown]", len(l))
		} else if len(l) > streamLineMax {
			l = l[:utf8Cut([]byte(l), streamLineMax)] + "…"
		}
		if size+len(l)+1 > max {
			break
		}
		size += len(l) + 1
		ll = append(ll, l)
	}
	for i, j := 0, len(ll)-1; i < j; i, j = i+1, j-1 {
		ll[i], ll[j] = ll[j], ll[i]
	}
	return ll
}
