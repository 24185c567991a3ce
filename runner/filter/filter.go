// Package filter turns a command's raw output into the compact form the
// model sees. One Filter per registry handler (core/registry: Rule.Handler);
// the runner looks it up with For and never knows any tool's format itself.
//
// Contract (ARCHITECTURE.md, "Runner contract"): aggressive on green,
// faithful on red — failures, file:line locations, panics and compiler
// errors survive verbatim; a success line is printed only when the tool's
// own output proves it; every cap says how to see the rest (Input.Recall);
// when parsing fails, Render returns an error and the runner prints the raw
// output.
package filter

import (
	"strings"
	"time"

	"github.com/gotk-dev/gotk/core/registry"
)

// Input is one finished run of a command.
type Input struct {
	Argv     []string // the command as the user gave it (argv[0] = program as typed)
	Tool     int      // index in Argv of the program the rule names (after launchers like npx)
	RanArgv  []string // what was really run (Args' result)
	Stdout   []byte
	Stderr   []byte
	Combined []byte // stdout and stderr interleaved in arrival order
	// Exit is the program's exit code (128+n for signal n), or Running
	// for the part of a long run shown before it goes live.
	Exit int
	// Getenv, Dir and Duration say where and how the command ran: its
	// environment, working directory and run time. Getenv is nil when
	// that is not known (a stored run rendered later): a filter then
	// assumes the tools' defaults.
	Getenv   func(string) string
	Dir      string
	Duration time.Duration
	// Recall returns the hint to print after a cap, naming the stored raw
	// output, e.g. "gotk recall 7f3a2c". Never nil.
	Recall func() string
	// RecallLines, when set, returns the hint for lines from..to (1-based,
	// inclusive) of the stored raw output ("gotk recall 7f3a2c --lines
	// 701-3008"). Only a filter whose output lines are the raw lines uses it.
	RecallLines func(from, to int) string
	// Window, when positive, says the input is an agent's window of that
	// many lines (Refit renders it): already bounded, so a filter shows
	// all of it that it would cap per group (grep's matches per file).
	Window int
	// Plain is the stored raw output RecallLines counts lines in (the
	// command as typed, stdout and stderr in arrival order), when the
	// runner has it: a filter that reshapes its lines finds there the
	// exact range of what it left out. Nil when not known.
	Plain []byte
	// Run: the command is a test run, a build or a linter (its rule's
	// category), whose filter reads a whole run: over a part (a stream's
	// first page) it would draw conclusions about the whole.
	Run bool
}

// Filter renders one handler's output.
type Filter interface {
	// Args returns the argv to run: argv itself, or argv plus flags that ask
	// the tool for machine-readable output the user did not already set.
	// It must never change what the command does.
	Args(argv []string, tool int) []string
	// Render returns the compact output. Streams stay separate (a command
	// may sit before a pipe, or have 2>/dev/null): compact stdout goes to
	// stdout; stderr keeps every line that is not known noise (progress bars,
	// download and compile chatter). An error means "could not parse": the
	// runner prints the raw output of both streams. Filters recognise their
	// machine-readable form from the output itself and the user's format
	// flags from Argv, so a run without the added flags still renders.
	// Render never claims a success the output does not show, and every
	// line it leaves out of a cap is announced with Input.Recall.
	Render(in Input) (Output, error)
}

// Plainer is a Filter whose Args ask the tool for machine-readable output
// it can turn back into the tool's own human format: Plain returns the
// stdout the command as typed would have printed (ok false: it cannot).
// That text, not the machine form, is what `gotk recall` prints, what
// `--lines A-B` pages and what `gotk gain` counts as the raw size.
type Plainer interface {
	Plain(in Input) ([]byte, bool)
}

// Running is Input.Exit while the program still runs: a long run renders
// what it printed so far before its output goes live. Filters read it as a
// run that has not succeeded (yet).
const Running = -1

// Streamer is a Plainer that can also turn its machine-readable output
// into the tool's own format as it arrives, for the live part of a long
// run. Stream returns a converter for one run: it gets stdout a line at a
// time (each with its newline, except perhaps the last), then nil at the
// end, and returns what the command as typed would have printed by then
// (often nothing yet: a tool may hold output until a test or a package
// ends, and so may the converter). Lines are not kept after the call.
type Streamer interface {
	Plainer
	Stream(in Input) func(line []byte) []byte
}

// Twin is a Filter whose Args ask the tool for machine-readable output
// it cannot turn back into the tool's own format: the runner runs the
// command as typed alongside (stdin closed, TwinEnv added to its
// environment so that it changes nothing, e.g. GIT_OPTIONAL_LOCKS=0) and
// keeps that output as the raw output. A Twin that is also a Plainer runs
// the command as typed only when Plain says it cannot, after the program
// (a run it can rebuild costs one process).
type Twin interface {
	TwinEnv() []string
}

// HeadBounder is a filter whose command can be told to stop after what an
// agent's head window of n lines shows: BoundHead returns argv (as typed)
// bounded so that its output's first n lines are the same as unbounded,
// and it prints more than n lines only where the unbounded output goes
// on past them (git log -n n+1: each commit takes a line at least); or
// argv itself where it cannot say so. A long history behind `| head -20`
// then ends at once, as raw does when head closes the pipe.
type HeadBounder interface {
	BoundHead(argv []string, tool, n int) []string
}

// Output is what the runner prints.
type Output struct {
	Stdout []byte
	Stderr []byte
}

// Ceiling is the most one compact output prints, both streams together.
// Claude Code keeps only the first 30,000 characters of a command's output
// (runner/gain.AgentLimit); gotk stays under that, so the note naming what
// was left out is never what the host cuts.
const Ceiling = 24 << 10

// Render runs f and holds what it prints to Ceiling: past it, each stream
// keeps its first and last lines and names the gap (Input.Recall). A
// failing run whose end f cut away gets it back (keepEnd).
func Render(f Filter, in Input) (Output, error) {
	out, err := f.Render(in)
	if err != nil {
		return out, err
	}
	out.Stdout = keepEnd(out.Stdout, in)
	return ceiling(out, in), nil
}

// Cap holds out to Ceiling as Render does: the raw output of a command
// printed whole (a retry) is cut where a compact one would be.
func Cap(out Output, in Input) Output { return ceiling(out, in) }

// ceiling caps an output longer than Ceiling. A stream that fits in its
// share (stdout 2/3, stderr 1/3) keeps all of it and leaves the rest to
// the other.
func ceiling(out Output, in Input) Output {
	o, e := len(out.Stdout), len(out.Stderr)
	if o+e <= Ceiling {
		return out
	}
	switch {
	case e <= Ceiling/3:
		o = Ceiling - e
	case o <= Ceiling*2/3:
		e = Ceiling - o
	default:
		o, e = Ceiling*2/3, Ceiling/3
	}
	note := func(from, to int) string { return moreLine(to-from, "lines", in) }
	if len(out.Stdout) > o {
		out.Stdout = join(capBytes(splitLines(out.Stdout), o, in, note))
	}
	if len(out.Stderr) > e {
		out.Stderr = join(capBytes(splitLines(out.Stderr), e, in, note))
	}
	return out
}

// splitLines splits b at newlines and nothing else: the lines a cap keeps
// stay byte for byte (no ANSI or carriage-return handling, unlike lines).
func splitLines(b []byte) []string {
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// For returns the Filter for a registry handler name, or nil when there is
// none (the runner then prints the raw output).
func For(handler string) Filter {
	if f, ok := filters[handler]; ok {
		return f
	}
	if strings.HasPrefix(handler, registry.UserHandlerPrefix) {
		if f := userFilter(handler); f != nil {
			return f
		}
		return nil
	}
	if f := builtinFilter(handler); f != nil {
		return f
	}
	return nil
}

// filters maps every registry handler to its Filter. Several handlers share
// one implementation; each file of this package holds one family of tools.
var filters = map[string]Filter{
	// tests
	"go-test":    goTest{},
	"cargo-test": cargoTest{},
	"cargo-fmt":  cargoFmt{},
	"pytest":     pytest{},
	"vitest":     jsTest{},
	"jest":       jsTest{},
	"playwright": jsTest{},
	"node-test":  nodeTest{},
	"rspec":      rspec{},
	// build
	"go-build":    lineFilter{noise: goNoise, diagnostics: true},
	"cargo-build": cargoBuild{},
	"npm":         npmRun{},
	"make":        makeFilter{lineFilter{noise: makeNoise, max: 200, diagnostics: true}},
	"dotnet":      lineFilter{noise: dotnetNoise, max: 200, summaryRepeats: dotnetSummary},
	"tsc":         lineFilter{max: 400, diagnostics: true},
	"esbuild":     esbuild{},
	"next":        lineFilter{noise: nextNoise, max: 200, codeFrames: true},
	"mvn":         maven{},
	// version control
	"git-status": gitStatus{},
	"git-log":    gitLog{},
	"git-diff":   gitDiff{},
	"git-branch": gitBranch{},
	"git-stash":  gitStash{},
	"git-blame":  gitBlame{},
	"git-change": lineFilter{noise: append(gitProgress, gitHints), max: 200},
	// linters
	"eslint":        eslint{},
	"biome":         biome{},
	"ruff":          ruff{},
	"golangci-lint": golangciLint{},
	"mypy":          lineFilter{max: 400},
	"prettier":      lineFilter{noise: prettierNoise, max: 400},
	// packages
	"pip":      pip{},
	"npm-list": treeList{},
	"go-list":  goList{},
	// files
	"ls":   ls{},
	"find": find{},
	"grep": grep{},
	"read": read{},
	"tree": treeList{},
	"wc":   wc{},
	"diff": diffFilter{},
	// infra
	"docker-ps":          table{},
	"ps":                 psList{},
	"docker-images":      table{},
	"docker-logs":        logs{},
	"docker-build":       dockerBuild{},
	"docker-compose":     compose{},
	"kubectl-get":        kubectlGet{},
	"kubectl-logs":       logs{},
	"kubectl-describe":   kubectlDescribe{},
	"helm":               table{},
	"helm-template":      helmTemplate{},
	"kubectl-apply":      kubectlApply{},
	"terraform-validate": terraformValidate{},
	"terraform-plan":     terraformPlan{},
	"aws":                awsFilter{},
	"psql":               psql{},
	// JSON the user asked for, and curl
	"json": jsonOut{},
	"curl": curlOut{},
}
