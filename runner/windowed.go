package runner

import (
	"github.com/gotk-dev/gotk/runner/filter"
	"github.com/gotk-dev/gotk/runner/store"
	"github.com/gotk-dev/gotk/runner/tokens"
	"github.com/gotk-dev/gotk/runner/window"
)

// finishWindowed prints and records a run whose output feeds a display
// window (`gotk --tail 30 go test ./... 2>&1 | tail -30`).
//
// The window sees stdout, and stderr too when both are one file (2>&1).
// gotk prints its compact output fitted to the window (window.Fit: at
// most its lines, failures first, then the summary) when that holds every
// fact the raw window would have shown and is smaller; else, for a
// listing, a log, a diff or a run its filter reads in parts, the window
// itself compacted (refitter); else
// exactly the raw window. Either way the agent's own head or tail then passes it
// unchanged. The run is recorded against the raw window — what the agent
// would have received without gotk —, never against the whole output the
// window would have cut (gotk gain does not credit gotk with the agent's
// own tail); its command names the window.
func (a *app) finishWindowed(run store.Run, plain plainText, shown filter.Output, rerr error, rf refitter, id string, keep, every bool, exit int) int {
	rawStream, rawSide := plain.stdout, plain.stderr
	compact, side := shown.Stdout, shown.Stderr
	if a.sameFile() {
		rawStream, rawSide = plain.combined, nil
		compact, side = append(append([]byte{}, shown.Stdout...), shown.Stderr...), nil
	}
	rawWin := a.win.Apply(rawStream)
	out, ok := []byte(nil), false
	if rerr == nil {
		out, ok = a.fitWindow(compact, side, rawWin, rawSide, rf.in.Recall(), every, rf.f, a.win.Apply(plain.stdout), a.win.Apply(plain.stderr))
	}
	if !ok {
		// no form of the whole run fits: the window itself, compacted
		if got, fits := rf.refit(a.win, rawWin, rawSide, window.Lines(rawStream)); fits {
			out, side, ok = got.Stdout, got.Stderr, true
		}
	}
	run.Mode = modeFiltered
	if !ok {
		run.Mode, out, side = modeFallback, rawWin, rawSide
	}
	run.Command += " | " + a.win.Pipe()
	run.RawBytes = int64(len(rawWin) + len(rawSide))
	run.Shown = int64(len(out) + len(side))
	a.stdout.Write(out)
	if len(side) > 0 {
		a.stderr.Write(side)
	}
	var kept *store.Kept
	if keep && ok {
		kept = &store.Kept{ID: id, Raw: plain.combined, Shown: append(append([]byte{}, out...), side...)}
	}
	a.record(run, kept)
	return exit
}

// refitter renders a run's filter over the agent's raw window alone
// (filter.Refit): for a listing, a log, a diff, or a run its filter reads
// in parts, whose whole compact form does not fit the window. For a run
// gotk gave flags of its own, only where the filter reads the output as
// typed too (ok: filter.CanRefit).
type refitter struct {
	f  filter.Filter
	in filter.Input
	ok bool // the command ran as typed
}

func (r refitter) refit(w window.Window, rawWin, rawSide []byte, total int) (filter.Output, bool) {
	if !r.ok || r.f == nil {
		return filter.Output{}, false
	}
	return filter.Refit(r.f, r.in, w, rawWin, rawSide, total)
}

// fitWindow fits compact to the agent's window (window.FitWith, rawFacts
// as there, f's boilerplate asked of no form): ok when it keeps every
// fact of the raw window and, with side (stderr, printed beside it),
// costs fewer tokens than the raw window and rawSide would have. Held and
// streamed runs decide by it alike.
func (a *app) fitWindow(compact, side, rawWin, rawSide []byte, recall string, every bool, f filter.Filter, rawFacts ...[]byte) ([]byte, bool) {
	out, ok := window.FitWith(compact, rawWin, a.win, recall, every, filter.BoilerplateOf(f), rawFacts...)
	return out, ok && tokens.Fewer([][]byte{out, side}, [][]byte{rawWin, rawSide})
}

// windowKeep is the most a streamed run's raw window may take (the
// keeper holds up to twice it): a window of longer lines is not known,
// and the streamed run prints its compact form as it would without one.
const windowKeep = 4 << 20
