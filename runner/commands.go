package runner

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/gotk-dev/gotk/core/cli"
	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/core/version"
	"github.com/gotk-dev/gotk/runner/filter"
	"github.com/gotk-dev/gotk/runner/gain"
	"github.com/gotk-dev/gotk/runner/store"
)

// grammar is gotk's own command line. `gotk <program> args…` never reaches
// kong: main dispatches it first, so a program's flags are never parsed.
type grammar struct {
	Version kong.VersionFlag `help:"Print gotk's version."`
	Raw     bool             `help:"gotk --raw <program> args…: run it unchanged, no filter (also GOTK_RAW=1); still recorded."`

	Rewrite cli.Args   `cmd:"" help:"Print the rewritten command (exit 0 allow, 1 none, 2 deny, 3 ask); --json always exits 0."`
	Explain cli.Args   `cmd:"" help:"Explain how a command would be rewritten, and why."`
	Recall  recallCmd  `cmd:"" help:"Print the raw output of a recent compact run."`
	Gain    gainCmd    `cmd:"" help:"Report the tokens gotk saved."`
	Verify  struct{}   `cmd:"" help:"Check that gotk's hooks are installed and answer (exit 1 when one fails)."`
	Doctor  struct{}   `cmd:"" help:"Diagnose the installation: agents found, binaries, PATH, and how to fix each problem."`
	Filters filtersCmd `cmd:"" help:"List the declarative filters in force, or run their inline tests."`
	Trust   trustCmd   `cmd:"" help:"Trust a project's .gotk/filters.toml: pin its SHA-256 so its filters apply (until it changes)."`
	Untrust trustCmd   `cmd:"" help:"Stop trusting a project filter file."`

	Commands   struct{}      `cmd:"" help:"List every command gotk compacts, with its family."`
	Completion completionCmd `cmd:"" help:"Print a shell completion script: bash, zsh or fish (source <(gotk completion bash))."`
	Discover   discoverCmd   `cmd:"" help:"Read the agents' own transcripts: what ran without gotk, what went through it, what to filter next."`
	// FoldPending is how gotk, which does not link SQLite, has its
	// companion fold the pending runs in once they pass store.FoldAt.
	FoldPending struct{} `cmd:"" name:"fold-pending" hidden:"" help:"Fold the pending runs into the database."`
}

// foldPending is the hidden command's name.
const foldPending = "fold-pending"

type recallCmd struct {
	ID    string `arg:"" optional:"" help:"The id a compact output named (gotk recall 7f3a2c); none: the last run."`
	List  bool   `short:"l" help:"List the kept outputs, newest first."`
	Lines string `short:"n" placeholder:"A-B" help:"Print only lines A to B of it (1-based, inclusive; A- runs to the end): a page of a long output."`
}

// gainCmd is `gotk gain`. Flags that cannot go together are in one xor
// group: one period, one output form, and --history and --exact only with
// what they can be shown in.
type gainCmd struct {
	Daily   bool `xor:"period" help:"Savings per day (the default)."`
	Weekly  bool `xor:"period" help:"Savings per week (ISO weeks)."`
	Monthly bool `xor:"period" help:"Savings per month."`
	History *int `xor:"period,hist,xh" placeholder:"N" help:"The last N runs: time, command, raw → shown bytes, exit code, duration."`
	Graph   bool `xor:"format,hist,xg" help:"Bar chart of the tokens saved in each active day (week, month), as wide as the terminal."`
	JSON    bool `name:"json" xor:"format" help:"Print JSON."`
	CSV     bool `name:"csv" xor:"format,xc" help:"Print CSV."`
	Project bool `short:"p" help:"Only runs in the current project (git top level, or this directory)."`
	Exact   bool `xor:"xg,xh,xc" help:"Recount the kept samples with the o200k tokenizer (slow)."`
	// Sessions reads the agents' transcripts (as discover does) for what
	// their requests read and what gotk removed from it.
	Sessions bool   `xor:"period,hist,xg,xc" help:"Per session, from the usage the agents record: what their requests read, and the share gotk removed (docs/sessions.md)."`
	Since    string `placeholder:"DURATION|DATE" help:"With --sessions: only since then (7d, 2w, 36h, 2026-01-31; default all)."`
}

func (c gainCmd) period() gain.Period {
	switch {
	case c.Weekly:
		return gain.Week
	case c.Monthly:
		return gain.Month
	}
	return gain.Day
}

// grammarVars are the values the grammar's help interpolates.
func grammarVars(name string) kong.Vars {
	return kong.Vars{"version": version.Line(cmp.Or(name, "gotk")), "hosts": cli.HostList()}
}

// kongExit carries kong's requested exit (after --help, --version) out of
// the parser.
type kongExit int

// command runs one of gotk's own commands.
func (a *app) command(args []string) (code int) {
	var g grammar
	parser, err := kong.New(&g,
		kong.Name("gotk"),
		kong.Description("gotk <program> [args…] runs the program and prints a compact, faithful form of its output, keeping its exit code.\n"+
			"gotk -- <program> runs a program named like a gotk command.\n"+
			"Environment: GOTK_RAW=1 (no filter), GOTK_TRACK=0 (record nothing), GOTK_LIVE_AFTER=30s (a command still running then shows its output live), GOTK_RETRY_RAW=0 (a command run again within 5 minutes stays compact), XDG_DATA_HOME (where gotk.db lives)."),
		kong.Writers(a.stdout, a.stderr),
		grammarVars(a.name),
		kong.Exit(func(c int) { panic(kongExit(c)) }),
	)
	if err != nil {
		return a.fail("%v", err)
	}
	defer func() {
		if r := recover(); r != nil {
			c, ok := r.(kongExit)
			if !ok {
				panic(r)
			}
			code = int(c)
		}
	}()
	env := cli.Env{Stdout: a.stdout, Stderr: a.stderr}
	kctx, err := parser.Parse(args)
	// rewrite and explain read their cli.Args with cli.Parse, as the fast
	// path does (kong has shown --help by now), and keep their own error
	// forms: rewrite --json answers passthrough whatever it was given.
	switch args[0] {
	case "rewrite":
		return cli.Rewrite(args[1:], env)
	case "explain":
		return cli.Explain(args[1:], env)
	}
	if err != nil {
		return a.usage(oneLine(err.Error()))
	}
	switch cmd := kctx.Command(); {
	case cmd == "commands":
		return a.commands()
	case strings.HasPrefix(cmd, "completion"):
		return a.completion(parser.Model, g.Completion.Shell)
	case strings.HasPrefix(cmd, "recall"):
		return a.recall(g.Recall)
	case strings.HasPrefix(cmd, "gain"):
		return a.gain(g.Gain)
	case strings.HasPrefix(cmd, "discover"):
		return a.discover(g.Discover)
	case cmd == foldPending:
		return a.foldPending()
	case cmd == "verify", cmd == "doctor":
		return installerChecks(cmd, a)
	case strings.HasPrefix(cmd, "filters test"):
		return a.filtersTest(g.Filters.Test.File)
	case strings.HasPrefix(cmd, "filters"):
		return a.filtersList()
	case strings.HasPrefix(cmd, "trust"):
		return a.trust(g.Trust.File)
	case strings.HasPrefix(cmd, "untrust"):
		return a.untrust(g.Untrust.File)
	}
	if g.Raw {
		return a.usage("--raw needs a command (usage: gotk --raw <program> [args…])")
	}
	return a.usage("no command given (usage: gotk <program> [args…]; gotk --help lists the commands)")
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// openExisting opens the database for a report; ok is false when there is
// nothing to report or it failed (already said).
func (a *app) openExisting(cmd string) (s *store.Store, code int, ok bool) {
	path, err := store.DefaultPath(a.getenv)
	if err != nil {
		return nil, a.fail("%s: %v", cmd, err), false
	}
	s, err = store.OpenExisting(path)
	if errors.Is(err, store.ErrNoDatabase) {
		return nil, 0, false
	}
	if err != nil {
		return nil, a.fail("%s: %s: %v", cmd, path, err), false
	}
	if w := s.Warning(); w != "" {
		a.warn("%s: %s", path, w)
	}
	return s, 0, true
}

func (a *app) recall(c recallCmd) int {
	if c.ID != "" && c.List {
		return a.usage("recall: give an id or --list, not both")
	}
	if c.List && c.Lines != "" {
		return a.usage("recall: --lines goes with an id, not --list")
	}
	from, to, err := lineRange(c.Lines)
	if err != nil {
		return a.usage(fmt.Sprintf("recall: --lines %q: %v", c.Lines, err))
	}
	s, code, ok := a.openExisting("recall")
	if !ok && code != 0 {
		return code
	}
	// Runs whose gotk was killed left only their spool file.
	dbPath, _ := store.DefaultPath(a.getenv)
	spooled := store.Spooled(dbPath)
	if c.List {
		for _, id := range spooled {
			fi, err := os.Stat(store.SpoolPath(dbPath, id))
			if err != nil {
				continue
			}
			out, _, err := a.spooledOutput(dbPath, id)
			if err != nil {
				continue
			}
			fmt.Fprintf(a.stdout, "%s  %s  killed   %8d B  (gotk was stopped before the run ended: its output until then)\n", id, fi.ModTime().Local().Format("2006-01-02 15:04:05"), len(out))
		}
		var list []store.Entry
		if ok {
			defer s.Close()
			var err error
			if list, err = s.List(); err != nil {
				return a.fail("recall: %s: %v", s.Path(), err)
			}
		}
		if len(list) == 0 && len(spooled) == 0 {
			fmt.Fprintln(a.stdout, "gotk recall: nothing kept yet (gotk keeps the raw output of each compact run)")
			return 0
		}
		for _, e := range list {
			kept := ""
			if e.KeptSize < e.RawSize {
				kept = fmt.Sprintf(" (first %d kept)", e.KeptSize)
				if e.KeptSize == 0 {
					kept = keptRaw(dbPath, e.ID)
				}
			}
			fmt.Fprintf(a.stdout, "%s  %s  exit %-3d %8d B%s  %s\n", e.ID, e.At.Local().Format("2006-01-02 15:04:05"), e.Exit, e.RawSize, kept, e.Command)
		}
		return 0
	}
	if c.ID == "" {
		last, code := a.lastKept(s, ok, dbPath, spooled)
		if last == "" {
			return code
		}
		c.ID = last
	}
	if code, ok := a.recallRaw(dbPath, c.ID, from, to); ok {
		return code
	}
	if slices.Contains(spooled, strings.ToLower(c.ID)) {
		out, note, err := a.spooledOutput(dbPath, strings.ToLower(c.ID))
		if err != nil {
			return a.fail("recall: %v", err)
		}
		if c.Lines != "" {
			out = pickLines(out, from, to)
		}
		a.stdout.Write(out)
		fmt.Fprintf(a.stderr, "gotk: recall: %s was stopped before it ended; %s\n", c.ID, note)
		return 0
	}
	if !ok {
		return a.fail("recall: no kept output with id %s (nothing is kept yet)", c.ID)
	}
	defer s.Close()
	e, err := s.Recall(c.ID)
	if errors.Is(err, store.ErrUnknownID) {
		return a.fail("recall: no kept output with id %s (gotk recall --list shows what is kept; the oldest are dropped first)", c.ID)
	}
	if err != nil {
		return a.fail("recall: %s: %v", s.Path(), err)
	}
	if c.Lines != "" {
		a.stdout.Write(pickLines(e.Raw, from, to))
	} else {
		a.stdout.Write(e.Raw)
	}
	switch {
	case e.KeptSize == 0 && e.RawSize > 0:
		fmt.Fprintf(a.stderr, "gotk: recall: the raw output of %s (%d bytes) is no longer kept: the store drops the oldest raw files past %s together, oldest first\n", e.ID, e.RawSize, sizeName(store.MaxRawTotal))
		return exitFail
	case e.KeptSize < e.RawSize:
		fmt.Fprintf(a.stderr, "gotk: recall: only the first %d of %d bytes were kept\n", e.KeptSize, e.RawSize)
	}
	return 0
}

// lineRange parses --lines: "A-B", "A-" (to the end) or "A"; lines count
// from 1. An empty spec is the whole output (0, 0).
func lineRange(spec string) (from, to int, err error) {
	if spec == "" {
		return 0, 0, nil
	}
	a, b, isRange := strings.Cut(spec, "-")
	from, err = strconv.Atoi(a)
	if err != nil || from < 1 {
		return 0, 0, errors.New("want A-B, A- or A with line numbers from 1")
	}
	switch {
	case !isRange:
		to = from
	case b == "":
		to = math.MaxInt
	default:
		if to, err = strconv.Atoi(b); err != nil || to < from {
			return 0, 0, errors.New("want A-B with A <= B")
		}
	}
	return from, to, nil
}

// pickLines returns lines from..to (1-based, inclusive) of b.
func pickLines(b []byte, from, to int) []byte {
	start, n := 0, 1
	for n < from {
		i := bytes.IndexByte(b[start:], '\n')
		if i < 0 {
			return nil
		}
		start += i + 1
		n++
	}
	end := start
	for ; n <= to && end < len(b); n++ {
		i := bytes.IndexByte(b[end:], '\n')
		if i < 0 {
			return b[start:]
		}
		end += i + 1
	}
	return b[start:end]
}

func (a *app) gain(c gainCmd) int {
	if c.History != nil && *c.History < 1 {
		return a.usage("gain: --history wants a number of runs from 1")
	}
	if c.Since != "" && !c.Sessions {
		return a.usage("gain: --since goes with --sessions")
	}
	since, err := parseSince(c.Since, a.now())
	if err != nil {
		return a.usage(fmt.Sprintf("gain: --since %q: %v", c.Since, err))
	}
	project := ""
	if c.Project {
		if project = a.project(); project == "" {
			return a.fail("gain: cannot tell the current directory")
		}
	}
	s, code, ok := a.openExisting("gain")
	if !ok && code != 0 {
		return code
	}
	if c.Sessions {
		if ok {
			defer s.Close()
		}
		return a.gainSessions(s, project, since, c.JSON)
	}
	var runs []store.Run
	var samples []store.Entry
	if ok {
		defer s.Close()
		var err error
		if runs, err = s.Runs(project); err != nil {
			return a.fail("gain: %s: %v", s.Path(), err)
		}
		if c.Exact {
			if samples, err = s.Samples(project); err != nil {
				return a.fail("gain: %s: %v", s.Path(), err)
			}
		}
	}
	if c.History != nil {
		last := gain.Last(runs, *c.History)
		switch {
		case c.JSON:
			gain.HistoryJSON(a.stdout, last)
		case c.CSV:
			gain.HistoryCSV(a.stdout, last)
		case len(runs) == 0:
			a.gainEmpty(project)
		default:
			gain.History(a.stdout, last)
		}
		return 0
	}
	rep := gain.Build(runs, project, gain.AgentLimit)
	if c.Exact {
		ex, err := gain.Recount(samples, gain.AgentLimit)
		if err != nil {
			return a.fail("gain: --exact: %v", err)
		}
		rep.Exact = ex
	}
	switch {
	case c.JSON:
		rep.JSON(a.stdout)
	case c.CSV:
		rep.CSV(a.stdout, c.period())
	case len(runs) == 0:
		a.gainEmpty(project)
	case c.Graph:
		rep.Graph(a.stdout, c.period(), a.termWidth(), a.color())
	default:
		rep.Text(a.stdout, c.period())
	}
	return 0
}

// spooledOutput is what a run whose gotk was killed printed until then,
// from its spool file, in the command's own words: its output as it
// arrived when gotk ran it unchanged; where gotk had asked the tool for
// machine-readable output, the command as typed run alongside
// (filter.Twin), else the filter's rendering of the tool's own format
// (filter.Plainer). note says which, for one line on stderr.
func (a *app) spooledOutput(dbPath, id string) (out []byte, note string, err error) {
	sp, err := store.ReadSpool(dbPath, id)
	if err != nil {
		return nil, "", err
	}
	argv, ran := sp.Meta.Argv, sp.Meta.Ran
	if len(argv) == 0 || slices.Equal(argv, ran) {
		return sp.Combined, "this is its output as it arrived", nil
	}
	if o, e := sp.Streams[store.SpoolTwinStdout], sp.Streams[store.SpoolTwinStderr]; len(o)+len(e) > 0 {
		return append(append([]byte{}, e...), o...), "this is what it printed until then", nil
	}
	if m, ok := registry.Classify(argv); ok {
		if pl, ok := a.filter(m.Rule.Handler).(filter.Plainer); ok {
			in := filter.Input{
				Argv: argv, Tool: m.Tool, RanArgv: ran, Exit: filter.Running,
				Stdout: sp.Streams[store.SpoolStdout], Stderr: sp.Streams[store.SpoolStderr], Combined: sp.Combined,
			}
			if s, ok := safePlain(pl, in); ok {
				return append(append([]byte{}, in.Stderr...), s...), "this is what it printed until then", nil
			}
		}
	}
	return sp.Combined, fmt.Sprintf("gotk had run it as %s and cannot render that output in %s's own format: this is it as it arrived", commandLine(ran), argv[0]), nil
}

// gainEmpty is gain's one line when nothing is recorded: how to start.
func (a *app) gainEmpty(project string) {
	if off(a.getenv("GOTK_TRACK")) {
		fmt.Fprintln(a.stdout, "gotk gain: no runs recorded yet: GOTK_TRACK=0 is set, so gotk records nothing (unset it to start)")
		return
	}
	where := "yet"
	if project != "" {
		where = "in " + project + " yet"
	}
	fmt.Fprintf(a.stdout, "gotk gain: no runs recorded %s — run a command through gotk (gotk git status), or let your agent do it: gotk-install --agent claude\n", where)
}
