package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"syscall"
	"time"

	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/runner/filter"
	"github.com/gotk-dev/gotk/runner/proc"
	"github.com/gotk-dev/gotk/runner/store"
	"github.com/gotk-dev/gotk/runner/tokens"
	"github.com/gotk-dev/gotk/runner/window"
)

// captureLimit bounds what a filtered run holds in memory (both streams
// plus their interleaved copy). Past it the output is compacted as it
// streams (stream.go), so gotk's memory does not grow with the output:
// BenchmarkPeakRSS and BenchmarkStream measure it (target ≤ 64 MiB, with
// the filter's work on what is held and the side run's output). A
// variable: tests lower it.
var captureLimit = 12 << 20

// memoryLimit is the Go heap gotk aims to stay under (debug.SetMemoryLimit):
// the garbage of a large capture is collected before the heap grows past it.
const memoryLimit = 40 << 20

// Modes of a run, as recorded.
const (
	modeFiltered    = "filtered"    // the filter's compact output was printed
	modeFallback    = "fallback"    // the filter failed or did not shrink it: raw printed
	modePassthrough = "passthrough" // no rule or no filter: stdio straight through
	modeRaw         = "raw"         // --raw / GOTK_RAW=1: stdio straight through
	modeLive        = "live"        // still running after GOTK_LIVE_AFTER: compact, then live
)

// runProgram runs argv (no shell) and returns its exit code.
//
// Without a filter (no rule matches, the rule's filter is not written, or
// --raw) the program gets gotk's own stdio: nothing is captured, so the run
// is recorded with its exit code and duration but no byte counts (gain
// counts it as a run that saved nothing). With a filter, both streams are
// captured, the filter renders them, and whichever of compact or raw is
// smaller is printed, once.
func (a *app) runProgram(argv []string, raw bool) int {
	if len(argv) == 0 {
		return a.usage("no command given (usage: gotk [--raw] <program> [args…])")
	}
	// A closed stdout (`gotk git log | head`) must fail our writes, not
	// kill gotk before it returns the program's exit code: proc sets that
	// up once the program runs (proc.SurviveClosedOutput), as it does the
	// forwarding of signals, while the program's start leaves gotk idle.
	run := store.Run{At: a.now(), Command: commandLine(argv)}
	m, matched := registry.Classify(argv)
	var f filter.Filter
	if matched {
		run.Rule = m.Rule.ID
		if !raw {
			f = a.filter(m.Rule.Handler)
		}
	}
	if f == nil {
		res, err := proc.Run(argv)
		if err != nil {
			return a.startFailed(err)
		}
		run.Mode = modePassthrough
		if raw {
			run.Mode = modeRaw
		}
		run.Exit, run.Duration = res.Exit, res.Duration
		a.record(run, nil)
		a.endLike(res, 0)
		return res.Exit
	}

	bounded := false
	if hb, ok := f.(filter.HeadBounder); ok && a.win.Set() && !a.win.Tail {
		// the agent's head shows the first lines only: a command that can
		// be told to stop after them is (git log -n N); run.Command stays
		// the line as typed
		typed := argv
		argv = safeBound(hb, argv, m.Tool, a.win.N)
		bounded = !slices.Equal(argv, typed)
	}
	ran := safeArgs(f, argv, m.Tool)
	injected := !slices.Equal(ran, argv)
	// The output is spooled to the data directory as it arrives: if gotk
	// is killed (an agent's timeout), `gotk recall` still has it.
	tracking := !off(a.getenv("GOTK_TRACK"))
	keep := tracking && a.settings().keepRaw
	id := store.NewID()
	var spool *store.Spool
	if keep {
		spool = a.spool(id, store.SpoolMeta{Argv: argv, Ran: ran})
	}
	if spool != nil {
		defer spool.Discard()
	}
	// gotk asked for machine-readable output: what the command as typed
	// prints comes from the filter (Plainer) or from running it as typed
	// (Twin): alongside when the filter cannot rebuild it, afterwards
	// where its rebuilding says it cannot. That text is what recall prints
	// and gain counts as raw.
	side := a.sideRun(f, argv, injected, spool)
	debug.SetMemoryLimit(memoryLimit)

	// The id is fixed before rendering: the filter prints it in its hints.
	base := filter.Input{Argv: argv, Tool: m.Tool, RanArgv: ran, Getenv: a.getenv, Run: m.Rule.Category.Run()}
	base.Dir, _ = a.getwd()
	recall := "gotk recall " + id
	hint := func(plain []byte) string {
		h := recall
		if len(plain) > filter.Ceiling {
			// Printed whole, it would be cut by the agent too: say how to page.
			h += fmt.Sprintf(" (%d lines; --lines A-B prints a part)", bytes.Count(plain, []byte("\n")))
		}
		switch {
		case !tracking:
			h = "gotk --raw " + run.Command + " (GOTK_TRACK=0: nothing is kept)"
		case !keep:
			h = "gotk --raw " + run.Command + " ([store] keep_raw = false: no output is kept)"
		}
		return h
	}
	if keep {
		base.RecallLines = func(from, to int) string { return fmt.Sprintf("%s --lines %d-%d", recall, from, to) }
	}
	lv := &liveRun{}
	tap := newStreamTap(f, base, spool)
	if spool != nil && !injected && filter.Streams(f) {
		tap.ref = newReadRef(argv, m.Tool, base.Dir)
	}
	if a.win.Set() && !injected {
		// past the capture's limit the output streams: the agent's
		// window is kept as it goes, within bytes of its own
		tap.win, tap.winBoth, tap.every = window.NewKeeper(a.win, windowKeep), a.sameFile(), !m.Rule.Category.Run()
	}
	opts := proc.Options{Limit: tap.limit(), Stdout: tap.writer(0), Stderr: tap.writer(1), Spool: tap.spoolWrite}
	if tap.win != nil && !a.win.Tail && !m.Rule.RunsToEnd() {
		// A log, a plan, a process table: gotk stops it where the agent's
		// head would, once the window's lines have come.
		opts.Stop = tap.headStop
	}
	if after := a.liveAfter(); after > 0 && !a.win.Set() {
		opts.LiveAfter = after
		opts.GoLive = func(held proc.Output) (io.Writer, io.Writer) {
			in := base
			in.Stdout, in.Stderr, in.Combined, in.Exit = held.Stdout, held.Stderr, held.Combined, filter.Running
			plain := plainOutput(f, in, injected, nil)
			in.Recall = func() string { return hint(plain.combined) }
			return a.goLive(lv, f, in, plain, injected, after, keep, recall)
		}
	}
	out, res, err := proc.Capture(ran, opts)
	defer a.interrupted(res, argv)
	// past: the output as typed goes on past the agent's head window (the
	// bounded run printed more than it): where head quits, the program
	// would have met the closed pipe
	past := false
	defer func() {
		a.endLike(res, int64(len(out.Stdout)))
		if f, ok := a.stdout.(*os.File); ok && past && a.dieOf == nil {
			a.dieOf = proc.WentOnPastReader(f)
		}
	}()
	if _, ok := f.(filter.Plainer); !ok {
		side.wait() // the side run started with the program: reap it
	}
	if err != nil {
		return a.startFailed(err)
	}
	run.Exit, run.Duration = res.Exit, res.Duration
	run.Measured = true
	in := base
	in.Stdout, in.Stderr, in.Combined, in.Exit, in.Duration = out.Stdout, out.Stderr, out.Combined, res.Exit, res.Duration
	if out.Live {
		plain := plainOutput(f, in, injected, side)
		lv.finish(plain)
		run.Mode, run.RawBytes, run.Shown = modeLive, lv.rawBefore+lv.live, lv.shownBefore+lv.live
		var kept *store.Kept
		if keep {
			kept = &store.Kept{ID: id, Raw: plain.combined, Shown: append(lv.shownText, lv.liveText...)}
			if out.Cut {
				kept.Size = run.RawBytes
			}
		}
		a.record(run, kept)
		return res.Exit
	}
	if out.Overflow || !injected && hasNUL(out.Combined) {
		tap.stopped = tap.stopped || out.Stopped
		in.Recall = func() string { return hint(nil) }
		return a.finishStream(tap, run, res, in, id, out)
	}

	plain := plainOutput(f, in, injected, side)
	in.Recall = func() string { return hint(plain.combined) }
	if keep {
		in.Plain = plain.combined
	}
	past = bounded && window.Lines(plain.stdout) > a.win.N
	if a.win.Set() {
		shown, rerr := filter.Output{}, errHeadStopped
		if !out.Stopped { // else only the window's start was read: no form of it is the run's
			shown, rerr = safeRender(f, in)
		}
		return a.finishWindowed(run, plain, shown, rerr, refitter{f, in, filter.CanRefit(f, !m.Rule.Category.Run(), injected)}, id, keep, !m.Rule.Category.Run(), res.Exit)
	}
	shown, rerr := safeRender(f, in)
	rawN := int64(len(plain.stdout) + len(plain.stderr))
	shownN := int64(len(shown.Stdout) + len(shown.Stderr))
	run.RawBytes = rawN
	fewer := rerr == nil && tokens.Fewer([][]byte{shown.Stdout, shown.Stderr}, [][]byte{plain.stdout, plain.stderr})
	if fewer && a.repeated(a.runKey(argv, base.Dir)) {
		shown = a.retryOutput(plain, in)
		shownN = int64(len(shown.Stdout) + len(shown.Stderr))
		run.Mode = modeRepeat
	}
	if run.Mode != modeRepeat && !fewer {
		// Never worse: a failed or longer rendering prints the command's
		// own output (in its own format, not the one gotk asked for).
		run.Mode, run.Shown = modeFallback, rawN
		a.printPlain(plain)
		a.record(run, nil)
		return res.Exit
	}
	if run.Mode == "" {
		run.Mode = modeFiltered
	}
	run.Shown = shownN
	a.stdout.Write(shown.Stdout)
	a.stderr.Write(shown.Stderr)
	// Every compact run keeps its raw output (within the store's caps), so
	// whatever the filter left out can be recalled, whether or not it
	// printed a hint; with keep_raw = false only its sizes are recorded.
	var kept *store.Kept
	if keep {
		kept = &store.Kept{ID: id, Raw: plain.combined, Shown: append(shown.Stdout, shown.Stderr...)}
	}
	a.record(run, kept)
	return res.Exit
}

// printPlain prints the command's own output: in arrival order when
// stdout and stderr are one file.
func (a *app) printPlain(p plainText) {
	if a.sameFile() {
		a.stdout.Write(p.combined)
		return
	}
	a.stdout.Write(p.stdout)
	a.stderr.Write(p.stderr)
}

// plainText is a command's output in its own format.
type plainText struct {
	stdout, stderr, combined []byte
}

// plainOutput is what the command as typed printed: the captured output
// when gotk ran it unchanged; else the filter's rebuilding of the tool's
// own format (Plainer), or the side run's output (Twin). When neither is
// to be had, the captured output is all there is. side may be nil (no
// side run can be had: the live part of a run, a stored run).
func plainOutput(f filter.Filter, in filter.Input, injected bool, side *sideRun) plainText {
	p := plainText{in.Stdout, in.Stderr, in.Combined}
	if !injected {
		return p
	}
	if pl, ok := f.(filter.Plainer); ok {
		if s, ok := safePlain(pl, in); ok {
			return plainText{s, in.Stderr, append(append([]byte{}, in.Stderr...), s...)}
		}
	}
	if c := side.wait(); c != nil {
		return plainText{c.Stdout, c.Stderr, append(append([]byte{}, c.Stderr...), c.Stdout...)}
	}
	return p
}

// sideRun is the command as typed, run for its output when gotk injected
// flags whose output the filter cannot always turn back (filter.Twin).
type sideRun struct {
	start   func() (func() (proc.Collected, error), error)
	collect func() (proc.Collected, error) // nil until started
	done    bool
	out     *proc.Collected
}

// sideRun returns the side run of a Twin filter's injected run (nil for
// any other): started now, alongside the program, when the filter has no
// rebuilding of its own (Plainer); else only if that rebuilding says it
// cannot, after the program (so a run gotk can rebuild costs one process).
// Its output is spooled too (recall after a kill prints it).
func (a *app) sideRun(f filter.Filter, argv []string, injected bool, spool *store.Spool) *sideRun {
	tw, ok := f.(filter.Twin)
	if !ok || !injected {
		return nil
	}
	var spoolTwin func(int, []byte) error
	if spool != nil {
		spoolTwin = func(stream int, p []byte) error { return spool.Write(store.SpoolTwinStdout+stream, p) }
	}
	s := &sideRun{start: func() (func() (proc.Collected, error), error) {
		return proc.Collect(argv, tw.TwinEnv(), captureLimit/2, spoolTwin)
	}}
	if _, ok := f.(filter.Plainer); !ok {
		s.collect, _ = s.start()
	}
	return s
}

// wait returns the side run's output, running it first if it was not
// started; nil when there is none or it failed to start.
func (s *sideRun) wait() *proc.Collected {
	if s == nil {
		return nil
	}
	if !s.done {
		s.done = true
		if s.collect == nil {
			s.collect, _ = s.start()
		}
		if s.collect != nil {
			if c, err := s.collect(); err == nil {
				s.out = &c
			}
		}
	}
	return s.out
}

// safePlain is Plain with a panic turned into "cannot".
func safePlain(p filter.Plainer, in filter.Input) (out []byte, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = nil, false
		}
	}()
	return p.Plain(in)
}

// spool starts the spool file for run id (store.CreateSpool); nil when
// there is no data directory (the run just is not recallable should gotk
// be killed).
func (a *app) spool(id string, meta store.SpoolMeta) *store.Spool {
	path, err := store.DefaultPath(a.getenv)
	if err != nil {
		return nil
	}
	return store.CreateSpool(path, id, meta, spoolAfter)
}

// spoolAfter is how long a run lasts before its output goes to a spool
// file (held in memory until then): an agent's timeout kills far later,
// and most runs are over long before.
const spoolAfter = 100 * time.Millisecond

// interrupted says, after what was captured is printed, that a signal
// stopped the run: what is shown is what the program printed until then.
func (a *app) interrupted(res proc.Result, argv []string) {
	if res.Signal == nil {
		return
	}
	fmt.Fprintf(a.stderr, "gotk: interrupted (%s): above is what %s printed until it stopped (exit %d)\n", signalName(res.Signal), argv[0], res.Exit)
}

// signalName is SIGINT, SIGTERM, …
func signalName(s os.Signal) string {
	if sig, ok := s.(syscall.Signal); ok {
		switch sig {
		case syscall.SIGINT:
			return "SIGINT"
		case syscall.SIGTERM:
			return "SIGTERM"
		case syscall.SIGHUP:
			return "SIGHUP"
		case syscall.SIGQUIT:
			return "SIGQUIT"
		}
	}
	return s.String()
}

// safeArgs asks the filter for the argv to run; a panicking filter runs
// the command unchanged.
func safeArgs(f filter.Filter, argv []string, tool int) (ran []string) {
	defer func() {
		if recover() != nil {
			ran = argv
		}
	}()
	ran = f.Args(argv, tool)
	if len(ran) == 0 {
		ran = argv
	}
	return ran
}

// safeBound is BoundHead, argv unchanged where it panics.
func safeBound(hb filter.HeadBounder, argv []string, tool, n int) (bounded []string) {
	defer func() {
		if recover() != nil {
			bounded = argv
		}
	}()
	if bounded = hb.BoundHead(argv, tool, n); len(bounded) == 0 {
		bounded = argv
	}
	return bounded
}

// safeRender renders, turning a panic into an error (the raw output is
// printed instead).
func safeRender(f filter.Filter, in filter.Input) (out filter.Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("filter panicked: %v", r)
		}
	}()
	return filter.Render(f, in)
}

// startFailed reports a program that could not start, like a shell does.
func (a *app) startFailed(err error) int {
	proc.SurviveClosedOutput() // no program ran, so it is not set up yet
	var se *proc.StartError
	if errors.As(err, &se) {
		fmt.Fprintf(a.stderr, "gotk: %s: %s%s\n", se.Program, se.Reason, typoHint(se))
		return se.Code
	}
	fmt.Fprintf(a.stderr, "gotk: %v\n", err)
	return 126
}

// foldPending folds the pending runs into the database (store.Open does);
// a database that does not open costs one warning line.
func (a *app) foldPending() int {
	path, err := store.DefaultPath(a.getenv)
	if err != nil {
		a.warn("%v", err)
		return exitFail
	}
	s, err := store.Open(path)
	if err != nil {
		a.warn("%s: %v; runs wait in %s until it opens", path, err, store.PendingDir(path))
		return exitFail
	}
	s.Close()
	return 0
}

// record stores the run unless GOTK_TRACK=0. A database that cannot be
// opened or written costs one warning line naming the file; the program's
// output and exit code are already settled.
func (a *app) record(run store.Run, kept *store.Kept) {
	if off(a.getenv("GOTK_TRACK")) {
		return
	}
	path, err := store.DefaultPath(a.getenv)
	if err != nil {
		a.warn("%v; this run was not recorded", err)
		return
	}
	run.Project = a.project()
	// One record appended, no database opened (store.Journal); reports
	// fold the pending runs in, and so does the run that finds more than
	// store.FoldAt of them waiting.
	full, err := store.Journal(path, run, kept)
	if full {
		if store.Linked() {
			a.foldPending()
		} else {
			a.companion([]string{foldPending})
		}
	}
	if err != nil {
		lost := ""
		if kept != nil {
			lost = fmt.Sprintf(" (gotk recall %s will not find it)", kept.ID)
		}
		a.warn("%s: %v; this run was not recorded%s", path, err, lost)
	}
}
