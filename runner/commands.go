package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/gotk-dev/gotk/core/cli"
	"github.com/gotk-dev/gotk/runner/gain"
	"github.com/gotk-dev/gotk/runner/store"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); else
// the module version from the build info, else "dev".
var version = ""

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// grammar is gotk's own command line. `gotk <program> args…` never reaches
// kong: main dispatches it first, so a program's flags are never parsed.
type grammar struct {
	Version kong.VersionFlag `help:"Print gotk's version."`
	Raw     bool             `help:"gotk --raw <program> args…: run it unchanged, no filter (also GOTK_RAW=1); still recorded."`

	Rewrite passArgs  `cmd:"" help:"Print the rewritten command (exit 0 allow, 1 none, 2 deny, 3 ask); --json always exits 0."`
	Explain passArgs  `cmd:"" help:"Explain how a command would be rewritten, and why."`
	Recall  recallCmd `cmd:"" help:"Print the raw output of a recent compact run."`
	Gain    gainCmd   `cmd:"" help:"Report the tokens gotk saved."`
	Verify  struct{}  `cmd:"" help:"Check that gotk's hooks are installed and answer (exit 1 when one fails)."`
	Doctor  struct{}  `cmd:"" help:"Diagnose the installation: agents found, binaries, PATH, and how to fix each problem."`

	Discover discoverCmd `cmd:"" help:"Read the agents' own transcripts: what ran without gotk, what went through it, what to filter next."`
}

type passArgs struct {
	Args []string `arg:"" optional:"" passthrough:"all" help:"[--json] [--host HOST] [--mode MODE] COMMAND…"`
}

type recallCmd struct {
	ID    string `arg:"" optional:"" help:"The id a compact output named (gotk recall 7f3a2c)."`
	List  bool   `short:"l" help:"List the kept outputs, newest first."`
	Lines string `short:"n" placeholder:"A-B" help:"Print only lines A to B of it (1-based, inclusive; A- runs to the end): a page of a long output."`
}

type gainCmd struct {
	Graph   bool `help:"Bar chart of the tokens saved on each of the last 30 days."`
	JSON    bool `name:"json" xor:"format" help:"Print JSON."`
	CSV     bool `name:"csv" xor:"format" help:"Print CSV."`
	Project bool `short:"p" help:"Only runs in the current project (git top level, or this directory)."`
	Exact   bool `help:"Recount the kept samples with the o200k tokenizer (slow)."`
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
			"Environment: GOTK_RAW=1 (no filter), GOTK_TRACK=0 (record nothing), XDG_DATA_HOME (where gotk.db lives)."),
		kong.Writers(a.stdout, a.stderr),
		kong.Vars{"version": "gotk " + versionString()},
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
	kctx, err := parser.Parse(args)
	if err != nil {
		return a.usage(oneLine(err.Error()))
	}
	env := cli.Env{Stdout: a.stdout, Stderr: a.stderr}
	switch cmd := kctx.Command(); {
	case strings.HasPrefix(cmd, "rewrite"):
		return cli.Rewrite(g.Rewrite.Args, env)
	case strings.HasPrefix(cmd, "explain"):
		return cli.Explain(g.Explain.Args, env)
	case strings.HasPrefix(cmd, "recall"):
		return a.recall(g.Recall)
	case strings.HasPrefix(cmd, "gain"):
		return a.gain(g.Gain)
	case strings.HasPrefix(cmd, "discover"):
		return a.discover(g.Discover)
	case cmd == "verify", cmd == "doctor":
		return installerChecks(cmd, a)
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
	return s, 0, true
}

func (a *app) recall(c recallCmd) int {
	if c.ID == "" && !c.List {
		return a.usage("recall: give an id (gotk recall 7f3a2c), or --list")
	}
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
			if fi, err := os.Stat(store.SpoolPath(dbPath, id)); err == nil {
				fmt.Fprintf(a.stdout, "%s  %s  killed   %8d B  (gotk was stopped before the run ended: raw output as it arrived)\n", id, fi.ModTime().Local().Format("2006-01-02 15:04:05"), fi.Size())
			}
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
			}
			fmt.Fprintf(a.stdout, "%s  %s  exit %-3d %8d B%s  %s\n", e.ID, e.At.Local().Format("2006-01-02 15:04:05"), e.Exit, e.RawSize, kept, e.Command)
		}
		return 0
	}
	if slices.Contains(spooled, strings.ToLower(c.ID)) {
		raw, err := os.ReadFile(store.SpoolPath(dbPath, strings.ToLower(c.ID)))
		if err != nil {
			return a.fail("recall: %v", err)
		}
		if c.Lines != "" {
			raw = pickLines(raw, from, to)
		}
		a.stdout.Write(raw)
		fmt.Fprintf(a.stderr, "gotk: recall: %s was stopped before it ended; this is its raw output as it arrived\n", c.ID)
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
	if e.KeptSize < e.RawSize {
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
		rep.CSV(a.stdout)
	case len(runs) == 0:
		where := "yet"
		if project != "" {
			where = "in " + project + " yet"
		}
		fmt.Fprintf(a.stdout, "gotk gain: no runs recorded %s; run commands through gotk (gotk git status) and look again\n", where)
		if off(a.getenv("GOTK_TRACK")) {
			fmt.Fprintln(a.stdout, "(GOTK_TRACK=0 is set: nothing is recorded)")
		}
	case c.Graph:
		rep.Graph(a.stdout, a.now(), 30)
	default:
		rep.Text(a.stdout)
	}
	return 0
}
