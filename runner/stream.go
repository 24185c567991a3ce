package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gotk-dev/gotk/runner/filter"
	"github.com/gotk-dev/gotk/runner/proc"
	"github.com/gotk-dev/gotk/runner/store"
	"github.com/gotk-dev/gotk/runner/window"
)

// An output past captureLimit is not held: the capture hands what it held
// and everything after to streamTap's writers, which feed the filter's
// stream compactor (filter.Stream) in arrival order, while the spool gets
// every byte on disk; at the end the spool becomes the run's raw file,
// which `gotk recall ID --lines A-B` pages through. Memory stays bounded
// whatever the output's size.

const modeStreamed = "streamed" // past captureLimit: compacted as it streamed

// streamTap sits between the capture and the spool. The capture calls
// spool (in arrival order, under its lock) for every chunk, and past its
// limit writes what it held (stdout's, then stderr's) and the rest to
// the writers; the tap records the order of the chunks it held so the
// stream compactor sees them as they arrived.
type streamTap struct {
	f     filter.Filter
	in    filter.Input
	spool *store.Spool // nil: nothing is kept
	// spoolErr is why the spool stopped (a full disk, an unwritable
	// directory): recall is unavailable.
	spoolErr error
	maxRaw   int64 // bytes the raw file keeps
	spooled  int64 // bytes given to the spool
	cutAt    int64 // raw lines kept when maxRaw was reached (0: none)
	cut      bool
	// ref, for a read of files, leaves the rest of a large output in
	// them (nil: the spool gets it all).
	ref *readRef

	// win keeps the raw window the agent's head or tail would show (nil:
	// no window, or gotk changed what the command prints); winBoth: it
	// sees stderr too (both are one file); every: each of its lines is a
	// fact (window.Fit).
	win     *window.Keeper
	winBoth bool
	every   bool
	// headDone: 0 while the head window is incomplete, 1 once complete,
	// -1 complete and binary (not stopped: counted to its end)
	headDone int
	stopped  bool // the head window was complete: the program was stopped

	st        *filter.Stream // nil until the capture passed its limit
	chunks    []tapChunk     // the held chunks, in arrival order
	disorder  bool           // too many to record: held stdout comes first
	total     [2]int         // bytes of each stream given before the limit
	last      tapChunk       // the chunk that passed the limit (not held)
	pending   [2][][]byte    // what the capture held, as it hands it over
	pendingN  [2]int         // bytes in pending
	want      [2]int
	streaming bool
	replayed  bool // the held output went to the stream compactor
}

type tapChunk struct {
	stream int
	n      int
}

// maxChunks bounds the order a tap records (a program writing a byte at a
// time to both streams): past it the held output is replayed stdout first.
const maxChunks = 1 << 16

func newStreamTap(f filter.Filter, in filter.Input, spool *store.Spool) *streamTap {
	return &streamTap{f: f, in: in, spool: spool, maxRaw: store.MaxRawFile}
}

// spoolWrite is the capture's Spool: it records the chunk's place and
// passes it on to the spool file, up to maxRaw bytes. It never fails
// (the capture would stop calling it).
func (t *streamTap) spoolWrite(stream int, p []byte) error {
	if t.win != nil && (stream == 0 || t.winBoth) {
		t.win.Write(p)
	}
	if !t.streaming {
		t.last = tapChunk{stream, len(p)}
		t.total[stream] += len(p)
		switch n := len(t.chunks); {
		case t.disorder:
		case n > 0 && t.chunks[n-1].stream == stream:
			t.chunks[n-1].n += len(p)
		case n < maxChunks:
			t.chunks = append(t.chunks, tapChunk{stream, len(p)})
		default:
			t.disorder = true
		}
	}
	if t.spool == nil || t.spoolErr != nil || t.cut {
		return nil
	}
	if t.ref != nil && !t.ref.add(stream, p, t.spooled) {
		return nil
	}
	if t.spooled+int64(len(p)) > t.maxRaw {
		// The raw file keeps the output up to its cap, to the byte.
		t.cut = true
		p = p[:t.maxRaw-t.spooled]
		if t.st != nil {
			t.cutAt = t.st.Lines() + int64(bytes.Count(p, []byte{'\n'}))
		}
	}
	t.spooled += int64(len(p))
	if err := t.spool.Write(stream, p); err != nil {
		t.spoolErr = err
	}
	return nil
}

// writer is where the capture sends stream's bytes past its limit.
func (t *streamTap) writer(stream int) io.Writer { return tapWriter{t, stream} }

type tapWriter struct {
	t      *streamTap
	stream int
}

func (w tapWriter) Write(p []byte) (int, error) {
	if w.t.headShown(w.stream) {
		// The agent's head has its lines and would have closed the pipe:
		// the program meets a closed one (the capture closes its end).
		w.t.stopped = true
		return 0, errHeadShown
	}
	w.t.take(w.stream, p)
	return len(p), nil
}

// errHeadShown stops a stream whose agent's head window is complete.
var errHeadShown = errors.New("the head window is complete")

// headShown: past the capture limit, the first lines of a listing's
// output that the agent's head shows are all here, and every line of
// them is a fact (no compact form would fit them tighter): as head does,
// gotk reads no further — `find / | head -50` would otherwise read the
// whole disk where the raw pipeline stops at once. The run prints the
// raw window. Not for tests, builds and linters, whose summary comes at
// the end and which gotk runs to completion.
func (t *streamTap) headShown(stream int) bool {
	return t.win != nil && t.every && (stream == 0 || t.winBoth) && t.headComplete()
}

// headStop is the capture's Stop for a command gotk stops as the agent's
// head would: once the head window has its lines, stdout is read no
// further, and stderr neither when the window sees it too (2>&1).
func (t *streamTap) headStop() (stdout, stderr bool) {
	done := t.headComplete()
	return done, done && t.winBoth
}

// headComplete: the agent's head window has all its lines, and they are
// text (binary is counted to its end, never shown). Once complete, the
// window no longer changes: the answer is worked out once.
func (t *streamTap) headComplete() bool {
	if t.headDone == 0 && t.win.Complete() {
		t.headDone = 1
		if win, _ := t.win.Window(); hasNUL(win) {
			t.headDone = -1
		}
	}
	return t.headDone > 0
}

// errHeadStopped: the run was stopped at the agent's head window.
var errHeadStopped = errors.New("stopped at the head window")

// take gets the capture's bytes past its limit: first what it held,
// stdout's then stderr's (each in one or more buffers), then each chunk
// as it comes.
func (t *streamTap) take(stream int, p []byte) {
	if !t.streaming {
		t.streaming = true
		t.want = t.total
		t.want[t.last.stream] -= t.last.n
		t.replayed = false
	}
	if !t.replayed {
		if t.pendingN[stream] < t.want[stream] {
			// the capture drops its buffers: not copied
			t.pending[stream] = append(t.pending[stream], p)
			t.pendingN[stream] += len(p)
			if t.pendingN[0] < t.want[0] || t.pendingN[1] < t.want[1] {
				return
			}
			p = nil
		}
		t.replay(t.pending[0], t.pending[1])
	}
	t.st.Write(stream, p)
}

// replay feeds the held output (each stream's buffers, in order) to the
// stream compactor in the order it arrived, and forgets it.
func (t *streamTap) replay(stdout, stderr [][]byte) {
	if t.st == nil {
		t.st = filter.NewStream(t.f, t.in)
	}
	if t.disorder {
		t.chunks = []tapChunk{{0, bufsLen(stdout)}, {1, bufsLen(stderr)}}
	}
	held := [2][][]byte{stdout, stderr}
	for _, c := range t.chunks {
		for n, h := c.n, &held[c.stream]; n > 0 && len(*h) > 0; {
			b := (*h)[0]
			k := min(n, len(b))
			t.st.Write(c.stream, b[:k])
			if k == len(b) {
				*h = (*h)[1:]
			} else {
				(*h)[0] = b[k:]
			}
			n -= k
		}
	}
	t.chunks, t.pending, t.pendingN, t.replayed = nil, [2][][]byte{}, [2]int{}, true
}

func bufsLen(bufs [][]byte) int {
	n := 0
	for _, b := range bufs {
		n += len(b)
	}
	return n
}

// finish ends a streamed run: the spool kept as the run's raw file (or why
// it is not), the compact form printed, the run recorded.
// out is what the capture held: the whole output when it did not pass
// its limit (binary output is compacted as a stream too).
func (a *app) finishStream(t *streamTap, run store.Run, res proc.Result, in filter.Input, id string, out proc.Output) int {
	switch {
	case !t.streaming:
		t.replay([][]byte{out.Stdout}, [][]byte{out.Stderr})
	case !t.replayed:
		t.replay(t.pending[0], t.pending[1]) // nothing came past the limit after it
	}
	in.Exit, in.Duration = res.Exit, res.Duration
	var note []string
	kept := false
	if t.spool != nil {
		err := t.spoolErr
		if err == nil && t.ref != nil && t.ref.on {
			ref, bad := t.ref.ref()
			if bad != "" {
				err = errors.New(bad)
			} else {
				err = t.spool.WriteRef(ref)
			}
		}
		if err == nil {
			err = t.spool.Keep()
		}
		if err != nil {
			in.RecallLines = nil
			in.Recall = func() string { return "recall unavailable" }
			note = append(note, fmt.Sprintf("gotk: recall unavailable: the raw output could not be kept (%v); gotk --raw %s prints it", err, run.Command))
		} else {
			kept = true
			dbPath, _ := store.DefaultPath(a.getenv)
			if dropped := store.TrimRaw(dbPath, id, store.MaxRawTotal); len(dropped) > 0 {
				note = append(note, fmt.Sprintf("gotk: the store dropped the raw output of %d older streamed run%s (%s) to stay within %s of raw files", len(dropped), map[bool]string{true: "s"}[len(dropped) > 1], joinIDs(dropped), sizeName(store.MaxRawTotal)))
			}
		}
	}
	if t.cut && kept {
		lines := ""
		if t.cutAt > 0 {
			lines = fmt.Sprintf(" (lines 1-%d)", t.cutAt)
		}
		note = append(note, fmt.Sprintf("gotk: the store keeps the first %s of this output%s; the rest is not kept", sizeName(t.maxRaw), lines))
	}
	st := t.st
	if st == nil {
		st = filter.NewStream(t.f, t.in)
	}
	shown := st.Render(in, strings.Join(note, "\n"))
	total := st.Bytes()
	run.Mode, run.Measured, run.RawBytes = modeStreamed, true, total
	if t.win != nil {
		if rawWin, exact := t.win.Window(); exact {
			// not beside a stderr streamed past
			rf := refitter{t.f, in, t.winBoth && filter.CanRefit(t.f, t.every, false)}
			if t.stopped {
				// what was read is only the start: no count of it is the
				// run's; the window itself, compacted where that holds it
				run.Command += " | " + a.win.Pipe()
				run.Mode, run.RawBytes, shown = modeFallback, int64(len(rawWin)), filter.Output{Stdout: rawWin}
				if got, ok := rf.refit(a.win, rawWin, nil, 0); ok {
					run.Mode, shown = modeFiltered, got
				}
			} else {
				shown = a.fitStream(&run, shown, rawWin, rf, t.every, t.winBoth, st.Lines())
			}
		}
	}
	a.stdout.Write(shown.Stdout)
	a.stderr.Write(shown.Stderr)
	run.Shown = int64(len(shown.Stdout) + len(shown.Stderr))
	var k *store.Kept
	if kept {
		// The raw file holds the output; the record says how large it is.
		k = &store.Kept{ID: id, Shown: append(shown.Stdout, shown.Stderr...), Size: total}
	}
	a.record(run, k)
	return res.Exit
}

// limit is what the capture holds before it streams: for a read or a
// listing, whose compact form past a megabyte is the stream's anyway,
// less than captureLimit (holding costs memory and, on some machines,
// more time in page faults than the rest of the run).
func (t *streamTap) limit() int {
	if filter.Streams(t.f) {
		return min(captureLimit, streamAfter)
	}
	return captureLimit
}

// streamAfter is the capture limit of a read or a listing (both copies
// of what is held count: it streams past about 1 MB of output).
const streamAfter = 2 << 20

// hasNUL reports binary output: it is compacted as a stream (counted,
// never printed).
func hasNUL(b []byte) bool { return bytes.IndexByte(b, 0) >= 0 }

func joinIDs(ids []string) string {
	if len(ids) > 5 {
		return fmt.Sprintf("%s, %s, … %d more", ids[0], ids[1], len(ids)-2)
	}
	return strings.Join(ids, ", ")
}

// sizeName is a size in MiB or GiB.
func sizeName(n int64) string {
	if n >= 1<<30 && n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// fitStream shapes a streamed run's compact form to the agent's window,
// as finishWindowed does for a held one: fitted (window.Fit) where that
// keeps every fact of the raw window and costs fewer tokens, else the
// raw window itself — never binary output (NUL bytes), which only the
// compact form's count shows. The run's raw size is the raw window's.
// both: the window sees stderr too (one file).
func (a *app) fitStream(run *store.Run, shown filter.Output, rawWin []byte, rf refitter, every, both bool, total int64) filter.Output {
	compact, side := shown.Stdout, shown.Stderr
	if both {
		compact, side = append(append([]byte{}, shown.Stdout...), shown.Stderr...), nil
	}
	run.Command += " | " + a.win.Pipe()
	run.RawBytes = int64(len(rawWin))
	if out, ok := a.fitWindow(compact, side, rawWin, nil, rf.in.Recall(), every, rf.f); ok {
		return filter.Output{Stdout: out, Stderr: side}
	}
	if hasNUL(rawWin) {
		return shown
	}
	if got, ok := rf.refit(a.win, rawWin, nil, int(total)); ok {
		return got
	}
	run.Mode = modeFallback
	return filter.Output{Stdout: rawWin, Stderr: side}
}
