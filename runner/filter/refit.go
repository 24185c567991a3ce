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
// when the window sees both streams); offset is the number of raw lines
// before the window (a tail window), so that a filter naming a range of
// lines names it in the whole output. ok: the result holds within the
// window's lines, keeps every fact and row of the window (window.Refits),
// and costs fewer tokens than the raw window and rawSide; then out is
// what to print (its Stdout goes through the window). Never for a run gotk
// changed (injected flags), whose window is not in the filter's format.
func Refit(f Filter, in Input, w window.Window, rawWin, rawSide []byte, offset int) (out Output, ok bool) {
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
	if rl := in.RecallLines; rl != nil {
		in.RecallLines = func(from, to int) string { return rl(from+offset, to+offset) }
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
	if !window.Refits(got.Stdout, rawWin, w, recall) || !tokens.Fewer([][]byte{got.Stdout, got.Stderr}, [][]byte{rawWin, rawSide}) {
		return Output{}, false
	}
	return got, true
}
