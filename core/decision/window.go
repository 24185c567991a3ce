package decision

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/core/shell"
)

// A pipeline stage after a producer either shows lines (a display window:
// head, tail, cat, less, more) or reads them (everything else: grep, wc,
// sort, awk, xargs, while read, tee…). gotk rewrites a producer only when
// every later stage shows lines, and tells gotk the window (`gotk --tail
// 30 go test ./...`) so that it fits its output into the lines the agent
// will see. A stage that reads the text gets the command's own bytes:
// the producer stays as written, whatever it is.

// stageKind is what a stage after a producer does with its input.
type stageKind int

const (
	readsText stageKind = iota // parses, counts, selects, stores: needs the raw bytes
	showsAll                   // cat, less, more: shows every line
	showsHead                  // head -N: shows the first N lines
	showsTail                  // tail -N: shows the last N lines
)

// stage is one later stage of a pipeline, as gotk reads it.
type stage struct {
	kind stageKind
	n    int    // lines, for showsHead and showsTail
	text string // as typed, for explanations
}

// readStage reads a pipeline stage; idx < 0 is a compound command.
func readStage(s *shell.Script, idx int) stage {
	if idx < 0 {
		return stage{kind: readsText, text: "a compound command"}
	}
	c := &s.Commands[idx]
	st := stage{kind: readsText, text: joinRaw(c.Words)}
	if c.Kind != shell.Simple || len(c.Assigns) > 0 || len(c.Words) == 0 || c.Opaque {
		return st
	}
	args := make([]string, 0, len(c.Words))
	for _, w := range c.Words {
		if !w.Literal {
			return st
		}
		args = append(args, w.Value)
	}
	switch args[0] {
	case "cat":
		if len(args) == 1 || (len(args) == 2 && args[1] == "-") {
			st.kind = showsAll
		}
	case "less", "more":
		if pagerShowsAll(args[0], args[1:]) {
			st.kind = showsAll
		}
	case "head", "tail":
		if n, ok := lineCount(args[1:], args[0] == "tail"); ok {
			st.kind, st.n = showsHead, n
			if args[0] == "tail" {
				st.kind = showsTail
			}
		}
	}
	return st
}

// pagerShowsAll: less or more, with these options, shows every line of
// standard input from the first (as cat does where its output is no
// terminal). A file operand, a start line or pattern (`+5`, `+/x`, `-p
// x`, `+G`), or any option gotk does not know, may show another part:
// not a display gotk can fit.
func pagerShowsAll(name string, args []string) bool {
	letters := map[string]string{"less": "RrSXFKNnIiMmeEqQswW~", "more": "dlfpcsu"}[name]
	for _, a := range args {
		switch {
		case name == "less" && lessLong[a]:
		case len(a) < 2 || a[0] != '-' || a == "--":
			return false
		case name == "more" && shell.IsDigits(a[1:]):
			// -NUM: lines per screen
		case strings.Trim(a[1:], letters) != "":
			return false
		}
	}
	return true
}

// lessLong are long options of less that only change how lines look.
var lessLong = map[string]bool{
	"--RAW-CONTROL-CHARS": true, "--raw-control-chars": true, "--chop-long-lines": true, "--no-init": true,
	"--quit-if-one-screen": true, "--quit-at-eof": true, "--QUIT-AT-EOF": true, "--LINE-NUMBERS": true,
	"--line-numbers": true, "--ignore-case": true, "--IGNORE-CASE": true, "--squeeze-blank-lines": true,
}

// lineCount reads the options of head or tail reading standard input and
// returns the number of lines it shows: `-N`, `-n N`, `-nN`, `--lines=N`,
// `--lines N`, nothing (10). Anything else — a file operand, bytes (-c),
// counting from the start (tail -n +N), all but the last lines (head -n
// -N), following (-f) — is not a window gotk can fit.
func lineCount(args []string, tail bool) (int, bool) {
	n, seen := 10, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := ""
		switch {
		case a == "-n" || a == "--lines":
			if i+1 == len(args) {
				return 0, false
			}
			i++
			v = args[i]
		case strings.HasPrefix(a, "--lines="):
			v = strings.TrimPrefix(a, "--lines=")
		case strings.HasPrefix(a, "-n"):
			v = a[2:]
		case len(a) > 1 && a[0] == '-' && shell.IsDigits(a[1:]):
			v = a[1:]
		default:
			return 0, false
		}
		if seen || !shell.IsDigits(v) {
			return 0, false
		}
		k, err := strconv.Atoi(v)
		if err != nil || k <= 0 || k > 1<<20 {
			return 0, false
		}
		n, seen = k, true
	}
	return n, true
}

// producerWindow decides the first stage of a pipeline: why it may not be
// rewritten (""), and else the window gotk must fit its output to
// ("--tail 30", or "" when every later stage shows all lines).
func producerWindow(s *shell.Script, c *shell.Command, m registry.Match) (why, window string) {
	var bound *stage
	for _, idx := range s.Pipelines[c.PipeID].Stages[1:] {
		st := readStage(s, idx)
		switch st.kind {
		case readsText:
			return fmt.Sprintf("its output feeds `%s`, which reads the text itself and must get the command's own output", st.text), ""
		case showsHead, showsTail:
			if bound != nil {
				return "its output goes through two windows (`" + bound.text + "`, then `" + st.text + "`); gotk fits one only", ""
			}
			bound = &st
		}
	}
	if bound == nil {
		return "", ""
	}
	if bound.kind == showsHead {
		// Tests, builds, linters, git and listings run to their end, their
		// compact output fitted to the first lines; any other command gotk
		// stops where head stops it (registry.Rule.RunsToEnd).
		return "", "--head " + strconv.Itoa(bound.n)
	}
	return "", "--tail " + strconv.Itoa(bound.n)
}

// pipeNote says, in plain words, what a pipeline stage does with the
// output before it and what that means for gotk ("" outside pipelines).
func pipeNote(s *shell.Script, i int, p plan) string {
	c := &s.Commands[i]
	if c.PipeLen <= 1 {
		return ""
	}
	pos := fmt.Sprintf("stage %d of %d", c.PipeIndex+1, c.PipeLen)
	if c.PipeIndex == 0 {
		switch {
		case p.rewrite && p.window != "":
			f := strings.Fields(p.window)
			where := "first"
			if f[0] == "--tail" {
				where = "last"
			}
			r := p.match.Rule
			switch {
			case where == "first" && r != nil && !r.RunsToEnd():
				return fmt.Sprintf("%s: the agent sees the first %s lines of its output; gotk stops the command where head would (it reads no further once they have come) and prints at most %s lines: those lines compacted, or as they are where that would lose one of their facts (%s)", pos, f[1], f[1], p.window)
			case r != nil && !r.Category.Run():
				return fmt.Sprintf("%s: the agent sees the %s %s lines of its output; through gotk it prints at most %s lines: its compact form, or those lines compacted, or as they are where that would lose one of their rows or facts (%s)", pos, where, f[1], f[1], p.window)
			}
			return fmt.Sprintf("%s: the agent sees the %s %s lines of its output; through gotk it prints at most %s lines, failures and errors first, then the summary (%s)", pos, where, f[1], f[1], p.window)
		case p.rewrite:
			return pos + ": the stages after it only show its lines, so gotk's compact output can go to them"
		}
		return pos + ": produces the output"
	}
	st := readStage(s, i)
	switch st.kind {
	case showsAll:
		return pos + ": shows every line of the output before it"
	case showsHead:
		return fmt.Sprintf("%s: shows the first %d lines of the output before it", pos, st.n)
	case showsTail:
		return fmt.Sprintf("%s: shows the last %d lines of the output before it", pos, st.n)
	}
	return pos + ": reads the text of the output before it, so every stage before it stays as written"
}

// insertPrefixes inserts prefix (and the plan's window) before the program
// word of every rewritten plan: the result is the line with text inserted
// at byte offsets, nothing else changed.
func insertPrefixes(src string, plans []plan, prefix string) string {
	type ins struct {
		at   int
		text string
	}
	var all []ins
	for _, p := range plans {
		if !p.rewrite {
			continue
		}
		t := prefix + " "
		if p.window != "" {
			t = prefix + " " + p.window + " "
		}
		all = append(all, ins{p.offset, t})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at < all[j].at })
	var b strings.Builder
	prev, last := 0, -1
	for _, x := range all {
		if x.at == last || x.at < prev || x.at > len(src) {
			continue
		}
		b.WriteString(src[prev:x.at])
		b.WriteString(x.text)
		prev, last = x.at, x.at
	}
	b.WriteString(src[prev:])
	return b.String()
}
