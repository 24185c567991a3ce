package filter

import (
	"bytes"

	"github.com/gotk-dev/gotk/runner/tokens"
	"github.com/gotk-dev/gotk/runner/window"
)

// Refit renders f over the agent's raw window alone: for a listing, a log
// or a diff (every line a fact), whose compact form of the whole run
// cannot be fitted to the window (no form of N rows fits in N lines with
// a line saying what was left out), the window itself compacted as the
// filter compacts any output — rows regrouped, repeats folded, long lines
// cut, each cut naming recall — is what the agent receives.
//
// in is the run's input (its command, environment, exit and recall);
// rawWin is the window's raw text, rawSide stderr printed beside it (nil
// when the window sees both streams); total is the number of lines of
// the whole output the window was taken from, so that a filter naming a
// range of a tail window's lines names it in the whole output. ok: the result holds within the
// window's lines, keeps every fact and row of the window (window.Refits),
// and costs fewer tokens than the raw window and rawSide; then out is
// what to print (its Stdout goes through the window). For a run gotk gave
// flags of its own, only where CanRefit says the filter reads the
// output as typed.
func Refit(f Filter, in Input, w window.Window, rawWin, rawSide []byte, total int) (out Output, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = Output{}, false
		}
	}()
	if len(rawWin) == 0 || bytes.IndexByte(rawWin, 0) >= 0 {
		return Output{}, false
	}
	in.RanArgv = in.Argv
	in.Stdout, in.Stderr = rawWin, rawSide
	in.Combined = append(append([]byte{}, rawWin...), rawSide...)
	in.Plain = nil // the whole run's text: its lines are not the window's
	in.Window = w.N
	if rl := in.RecallLines; rl != nil {
		offset := 0 // the raw lines before the window
		if w.Tail {
			offset = total - window.Lines(rawWin)
		}
		in.RecallLines = func(from, to int) string { return rl(from+offset, to+offset) }
	}
	if len(rawSide) > 0 {
		// recall counts lines of both streams as they came: a range of
		// stdout's alone is not one of them
		in.RecallLines = nil
	}
	got, err := Render(f, in)
	if err != nil {
		return Output{}, false
	}
	if rawSide == nil {
		got = Output{Stdout: append(append([]byte{}, got.Stdout...), got.Stderr...)}
	}
	recall := ""
	if in.Recall != nil {
		recall = in.Recall()
	}
	got.Stdout = joinNote(got.Stdout, w.N, recall)
	if !window.Refits(got.Stdout, rawWin, w, recall) || !tokens.Fewer([][]byte{got.Stdout, got.Stderr}, [][]byte{rawWin, rawSide}) {
		return Output{}, false
	}
	return got, true
}

// PlainReader is a filter that renders the command's output as typed as
// well as the form the flags it adds ask for (git log's commits in git's
// own format): Refit may give it the window of a run gotk gave flags.
type PlainReader interface{ ReadsPlain() }

// PartReader is a filter of a test, build or lint run whose rendering of
// any part of the run says only what that part says: it regroups and
// folds the part's lines and adds no count or verdict of its own (a count
// of a window would read as the run's). Refit may render it over the
// agent's window of such a run, as it does a listing's.
type PartReader interface{ ReadsParts() }

// CanRefit: Refit may render f over the raw window of a run — a listing,
// a log or a diff (every line a fact), or a run f reads in parts
// (PartReader) — that gotk ran as typed, or gave flags (injected) when f
// reads the output as typed too (PlainReader).
func CanRefit(f Filter, every, injected bool) bool {
	if _, parts := f.(PartReader); !every && !parts {
		return false
	}
	if !injected {
		return true
	}
	_, ok := f.(PlainReader)
	return ok
}

// joinNote: a rendering one line longer than the window whose last line
// is a note naming recall (`... (3 lines cut at 200 characters; gotk
// recall ID)`) gets that note at the end of the line before it: the
// window's rows and what the note says of them, in the window's lines.
func joinNote(out []byte, n int, recall string) []byte {
	if recall == "" || window.Lines(out) != n+1 || !bytes.HasSuffix(out, []byte("\n")) {
		return out
	}
	body := out[:len(out)-1]
	i := bytes.LastIndexByte(body, '\n')
	if i < 0 {
		return out
	}
	note := bytes.TrimSpace(body[i+1:])
	if !window.NamesRecall(note, recall) || !(bytes.HasPrefix(note, []byte("...")) || bytes.HasPrefix(note, []byte("…")) || bytes.HasPrefix(note, []byte("("))) {
		return out
	}
	joined := append(append([]byte{}, body[:i]...), ' ')
	return append(append(joined, note...), '\n')
}

// Boilerplater is a filter that knows its tool's boilerplate: lines the
// tool prints whatever went wrong (Maven's "re-run Maven using the -X
// switch"), which say nothing of this run. The window check does not ask
// a form to keep them (window.FitWith).
type Boilerplater interface{ Boilerplate(line string) bool }

// BoilerplateOf is f's Boilerplate, or nil.
func BoilerplateOf(f Filter) func(string) bool {
	if b, ok := f.(Boilerplater); ok {
		return b.Boilerplate
	}
	return nil
}
