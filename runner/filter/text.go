package filter

import (
	"bytes"
	"fmt"
	"strings"
)

// This file holds the line tools every filter shares: splitting, ANSI
// stripping, noise dropping, deduplication and the one way to cap output
// (capLines), so every truncation says what was left out and how to see it.

// ansi matches terminal escape sequences (colours, cursor moves, OSC links,
// and the charset selection `ESC ( B` that tput sgr0 ends a colour with).
var ansi = lazy(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()*+][0-9A-Za-z]`)

// lines splits output into lines without their newlines, dropping ANSI
// escapes and the carriage-return overdraws of progress bars (only the last
// state of a `\r`-rewritten line is kept, as a terminal would show it). A
// CRLF line ending is the line's own: it stays (join writes the \n back).
func lines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := string(b)
	if strings.Contains(s, "\x1b") {
		s = ansi.ReplaceAllString(s, "")
	}
	s = strings.TrimSuffix(s, "\n")
	out := strings.Split(s, "\n")
	for i, l := range out {
		crlf := strings.HasSuffix(l, "\r")
		l = strings.TrimSuffix(l, "\r")
		if j := strings.LastIndexByte(l, '\r'); j >= 0 {
			l = l[j+1:]
		}
		if crlf {
			l += "\r"
		}
		out[i] = l
	}
	return out
}

// join renders lines back to output bytes, one per line, newline-terminated.
func join(ls []string) []byte {
	if len(ls) == 0 {
		return nil
	}
	var b bytes.Buffer
	for _, l := range ls {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// moreLine is the one form of a truncation note.
func moreLine(n int, unit string, in Input) string {
	return fmt.Sprintf("… %d more %s: %s", n, unit, in.Recall())
}

// capSlack is how far past its cap an output may run before it is cut: a
// note that hides three lines costs about what they do.
const capSlack = 5

// capLines keeps at most max lines: the first head and the last max-head,
// with a note naming how many lines were left out and how to see them.
func capLines(ls []string, max, head int, in Input) []string {
	if len(ls) <= max+capSlack {
		return ls
	}
	tail := max - head
	// Long lines: the lines kept would pass the ceiling, which would cut
	// them again around a second note (two gaps, neither the whole
	// story). Fewer of them, in the same proportion, so one note tells.
	for head > 1 && linesSize(ls[:head])+linesSize(ls[len(ls)-tail:]) > stdoutRoom(in) {
		head, tail = head*3/4, tail*3/4
	}
	out := make([]string, 0, head+tail+1)
	out = append(out, ls[:head]...)
	out = append(out, moreLine(len(ls)-head-tail, "lines", in))
	return append(out, ls[len(ls)-tail:]...)
}

// stdoutRoom is what stdout may hold of Ceiling beside in's stderr (the
// ceiling's share), less room for notes: a cap that keeps within it is
// not cut again.
func stdoutRoom(in Input) int {
	return Ceiling - min(len(in.Stderr), Ceiling/3) - 2*noteRoom
}

// noteRoom is the room capBytes leaves for its note.
const noteRoom = 256

// capBytes keeps at most budget bytes of ls (counting newlines): whole
// lines from the head (2/3 of it) and from the tail (1/3), with one note in
// the gap; note gets the 0-based range [from, to) of the lines left out. A
// line too long for a share is shortened first (shortLine).
func capBytes(ls []string, budget int, in Input, note func(from, to int) string) []string {
	size := 0
	for i, l := range ls {
		if len(l) > budget/4 {
			ls[i] = shortLine(l, budget/4, in)
		}
		size += len(ls[i]) + 1
	}
	if size <= budget {
		return ls
	}
	budget -= noteRoom
	head, n := 0, 0
	for head < len(ls) && n+len(ls[head])+1 <= budget*2/3 {
		n += len(ls[head]) + 1
		head++
	}
	tail, n := len(ls), 0
	for tail > head && n+len(ls[tail-1])+1 <= budget/3 {
		n += len(ls[tail-1]) + 1
		tail--
	}
	if tail == head {
		return ls
	}
	out := make([]string, 0, head+len(ls)-tail+1)
	out = append(out, ls[:head]...)
	out = append(out, note(head, tail))
	return append(out, ls[tail:]...)
}

// dropBlankRuns collapses runs of blank lines into one and trims blank
// lines at both ends.
func dropBlankRuns(ls []string) []string {
	out := ls[:0:0]
	for _, l := range ls {
		if strings.TrimSpace(l) == "" && (len(out) == 0 || strings.TrimSpace(out[len(out)-1]) == "") {
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out
}

// dedupe folds runs of identical consecutive lines into one line followed
// by a count, e.g. "GET /healthz 200 (×57)".
func dedupe(ls []string) []string {
	out := ls[:0:0]
	for i := 0; i < len(ls); {
		j := i + 1
		for j < len(ls) && ls[j] == ls[i] {
			j++
		}
		if n := j - i; n > 2 && strings.TrimSpace(ls[i]) != "" {
			out = append(out, fmt.Sprintf("%s (×%d)", ls[i], n))
		} else {
			out = append(out, ls[i:j]...)
		}
		i = j
	}
	return out
}

// dropMatching removes the lines any of the patterns match.
func dropMatching(ls []string, noise ...*lazyRegexp) []string {
	out := ls[:0:0]
next:
	for _, l := range ls {
		for _, re := range noise {
			if re.MatchString(l) {
				continue next
			}
		}
		out = append(out, l)
	}
	return out
}

// keepStderr returns stderr without the lines the noise patterns match;
// everything else reaches the user.
func keepStderr(in Input, noise ...*lazyRegexp) []byte {
	return join(dropBlankRuns(dropMatching(lines(in.Stderr), noise...)))
}

// raw is the pass-through rendering: both streams unchanged.
func raw(in Input) Output { return Output{Stdout: in.Stdout, Stderr: in.Stderr} }

// plural writes "1 file" / "3 files".
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// shortLine caps one very long line (minified code, base64 blobs) and says
// how many characters were left out.
func shortLine(l string, max int, in Input) string {
	if len(l) <= max {
		return l
	}
	cut := max
	for cut > 0 && !utf8Start(l[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… [%d more chars: %s]", l[:cut], len(l)-cut, in.Recall())
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// pageBudget is the first page of an unbounded listing (git log without
// -n, tree, find, grep -r, ls -R): about 1,800 tokens, what an agent reads
// before deciding where to look next. Past it the filter prints counts
// and the exact range of raw lines to recall for the rest.
const pageBudget = 6 << 10 // bytes; ~3.5 bytes a token for paths and code

// pageCut returns how many of out's lines the first page holds: all of
// them when they fit (with a quarter of slack: a note that hides a few
// lines costs about what they do), else as many as fit in budget bytes.
func pageCut(out []string, budget int) int {
	if linesSize(out) <= budget*5/4 {
		return len(out)
	}
	return max(fitting(out, budget), 1)
}

// fitting is how many of ls's first lines fit in budget bytes printed.
func fitting(ls []string, budget int) int {
	size := 0
	for i, l := range ls {
		if size += len(l) + 1; size > budget {
			return i
		}
	}
	return len(ls)
}

// linesSize is the size of ls printed, newlines included.
func linesSize(ls []string) int {
	n := 0
	for _, l := range ls {
		n += len(l) + 1
	}
	return n
}

// recallRange names raw lines from..to (1-based, inclusive) of a filter
// whose raw output is its stdout: "lines 701-3008: gotk recall ID --lines
// 701-3008". When those numbers are not the stored output's (stderr is
// interleaved in it, or nothing is kept line by line) it names the whole
// output's recall.
func recallRange(in Input, from, to int) string {
	if in.RecallLines == nil || len(in.Stderr) > 0 || from > to {
		return in.Recall()
	}
	return fmt.Sprintf("lines %d-%d: %s", from, to, in.RecallLines(from, to))
}

// relPath shows the paths under the working directory relative, as the
// tool would have printed them run with relative arguments: "/proj/x/a.go"
// becomes "x/a.go" when gotk ran in /proj. Only a whole path starting at a
// word boundary is touched.
func relPath(s, dir string) string {
	if len(dir) < 2 || !strings.HasPrefix(dir, "/") {
		return s
	}
	prefix := strings.TrimSuffix(dir, "/") + "/"
	if !strings.Contains(s, prefix) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, prefix)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		if i > 0 && pathByte(s[i-1]) {
			b.WriteString(prefix)
		}
		s = s[i+len(prefix):]
	}
}

// pathByte reports whether c may sit inside a path word (so a prefix
// after it is not the start of a path).
func pathByte(c byte) bool {
	return c == '/' || c == '.' || c == '_' || c == '-' || c == '~' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}
