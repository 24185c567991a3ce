package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"syscall"

	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/runner/filter"
	"github.com/gotk-dev/gotk/runner/proc"
	"github.com/gotk-dev/gotk/runner/store"
)

// captureLimit bounds what a filtered run holds in memory (both streams
// plus their interleaved copy). Past it the output is passed through raw
// (no agent keeps that much anyway), so gotk's memory does not grow with
// the output: BenchmarkPeakRSS measures it for 150 MB (target ≤ 64 MiB,
// with the filter's work on what is held and the side run's output).
const captureLimit = 12 << 20

// memoryLimit is the Go heap gotk aims to stay under (debug.SetMemoryLimit):
// the garbage of a large capture is collected before the heap grows past it.
const memoryLimit = 40 << 20

// Modes of a run, as recorded.
const (
	modeFiltered    = "filtered"    // the filter's compact output was printed
	modeFallback    = "fallback"    // the filter failed or did not shrink it: raw printed
	modeOverflow    = "overflow"    // past captureLimit: raw passed through
	modePassthrough = "passthrough" // no rule or no filter: stdio straight through
	modeRaw         = "raw"         // --raw / GOTK_RAW=1: stdio straight through
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
	// kill gotk before it returns the program's exit code. A handler, not
	// SIG_IGN, so the program still starts with SIGPIPE at its default.
	if !signal.Ignored(syscall.SIGPIPE) {
		signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	}
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
		return res.Exit
	}

	ran := safeArgs(f, argv, m.Tool)
	injected := !slices.Equal(ran, argv)
	// gotk asked for machine-readable output: what the command as typed
	// prints comes from the filter (Plainer) or from running it alongside
	// (Twin). That text is what recall prints and gain counts as raw.
	var twin func() (proc.Collected, error)
	if tw, ok := f.(filter.Twin); ok && injected {
		twin, _ = proc.Collect(argv, tw.TwinEnv(), captureLimit/2)
	}
	// The raw output is spooled to the data directory as it arrives: if gotk
	// is killed (an agent's timeout), `gotk recall` still has it.
	tracking := !off(a.getenv("GOTK_TRACK"))
	keep := tracking && a.settings().keepRaw
	id := store.NewID()
	var spool *os.File
	if keep {
		spool = a.spool(id)
	}
	var spoolW io.Writer
	if spool != nil {
		spoolW = spool
		defer func() {
			spool.Close()
			os.Remove(spool.Name())
		}()
	}
	debug.SetMemoryLimit(memoryLimit)
	out, res, err := proc.Capture(ran, captureLimit, a.stdout, a.stderr, spoolW)
	defer a.interrupted(res, argv)
	var side *proc.Collected
	if twin != nil {
		if c, err := twin(); err == nil {
			side = &c
		}
	}
	if err != nil {
		return a.startFailed(err)
	}
	run.Exit, run.Duration = res.Exit, res.Duration
	run.Measured = true
	if out.Overflow {
		run.Mode, run.RawBytes, run.Shown = modeOverflow, out.Total, out.Total
		a.record(run, nil)
		return res.Exit
	}

	// The id is fixed before rendering: the filter prints it in its hints.
	in := filter.Input{
		Argv: argv, Tool: m.Tool, RanArgv: ran,
		Stdout: out.Stdout, Stderr: out.Stderr, Combined: out.Combined,
		Exit: res.Exit,
	}
	plain := plainOutput(f, in, injected, side)
	recall := "gotk recall " + id
	hint := recall
	if len(plain.combined) > filter.Ceiling {
		// Printed whole, it would be cut by the agent too: say how to page.
		hint += fmt.Sprintf(" (%d lines; --lines A-B prints a part)", bytes.Count(plain.combined, []byte("\n")))
	}
	switch {
	case !tracking:
		hint = "gotk --raw " + run.Command + " (GOTK_TRACK=0: nothing is kept)"
	case !keep:
		hint = "gotk --raw " + run.Command + " ([store] keep_raw = false: no output is kept)"
	}
	in.Recall = func() string { return hint }
	if keep {
		in.RecallLines = func(from, to int) string { return fmt.Sprintf("%s --lines %d-%d", recall, from, to) }
	}
	shown, rerr := safeRender(f, in)
	rawN := int64(len(plain.stdout) + len(plain.stderr))
	shownN := int64(len(shown.Stdout) + len(shown.Stderr))
	run.RawBytes = rawN
	if rerr != nil || shownN >= rawN {
		// Never worse: a failed or longer rendering prints the command's
		// own output (in its own format, not the one gotk asked for).
		run.Mode, run.Shown = modeFallback, rawN
		if a.sameFile() {
			a.stdout.Write(plain.combined)
		} else {
			a.stdout.Write(plain.stdout)
			a.stderr.Write(plain.stderr)
		}
		a.record(run, nil)
		return res.Exit
	}
	run.Mode, run.Shown = modeFiltered, shownN
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

// plainText is a command's output in its own format.
type plainText struct {
	stdout, stderr, combined []byte
}

// plainOutput is what the command as typed printed: the captured output
// when gotk ran it unchanged; else the filter's rebuilding of the tool's
// own format (Plainer), or the side run's output (Twin). When neither is
// to be had, the captured output is all there is.
func plainOutput(f filter.Filter, in filter.Input, injected bool, side *proc.Collected) plainText {
	p := plainText{in.Stdout, in.Stderr, in.Combined}
	if !injected {
		return p
	}
	if pl, ok := f.(filter.Plainer); ok {
		if s, ok := safePlain(pl, in); ok {
			return plainText{s, in.Stderr, append(append([]byte{}, in.Stderr...), s...)}
		}
		return p
	}
	if side != nil {
		return plainText{side.Stdout, side.Stderr, append(append([]byte{}, side.Stderr...), side.Stdout...)}
	}
	return p
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

// spool creates the spool file for run id; nil when it cannot (the run
// just is not recallable should gotk be killed).
func (a *app) spool(id string) *os.File {
	path, err := store.DefaultPath(a.getenv)
	if err != nil {
		return nil
	}
	f, err := store.CreateSpool(path, id)
	if err != nil {
		return nil
	}
	return f
}

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
	var se *proc.StartError
	if errors.As(err, &se) {
		fmt.Fprintf(a.stderr, "gotk: %s: %s%s\n", se.Program, se.Reason, typoHint(se))
		return se.Code
	}
	fmt.Fprintf(a.stderr, "gotk: %v\n", err)
	return 126
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
	s, err := store.Open(path)
	if err == nil {
		err = s.Record(run, kept)
		s.Close()
	}
	if err != nil {
		lost := ""
		if kept != nil {
			lost = fmt.Sprintf(" (gotk recall %s will not find it)", kept.ID)
		}
		a.warn("%s: %v; this run was not recorded%s", path, err, lost)
	}
}
