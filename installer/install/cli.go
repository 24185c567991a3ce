// Package install is gotk-install: it puts gotk's hook entry, plugin or
// rules block into each coding agent's configuration, exactly where and how
// that agent documents it, and takes it out again byte for byte.
//
// It sits at the edge of the flow: it writes the configuration that makes an
// agent call gotk-hook-<agent>, and records what it owns in
// $XDG_DATA_HOME/gotk/installed.json for `gotk verify` and `gotk doctor`
// (package check).
package install

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/alecthomas/kong"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/hosts"
)

// cli is gotk-install's command line.
type cli struct {
	Agent     string `help:"Agent to install for: ${agents}." placeholder:"NAME"`
	All       bool   `help:"Every agent found on this machine."`
	List      bool   `help:"List agents, scope and state."`
	Global    bool   `help:"The user's configuration (default where the agent has one)." xor:"scope"`
	Project   bool   `help:"The project in the current directory." xor:"scope"`
	Uninstall bool   `help:"Remove exactly what install added."`
	NoRules   bool   `help:"Leave out the rules text written beside a hook (Codex's AGENTS.md note, Copilot's project instructions); removes one installed earlier."`
	Adopt     bool   `help:"Take over gotk entries, blocks and files that gotk-install did not write (an older install, a hand-made entry): install updates them, uninstall removes them."`
	DryRun    bool   `help:"Print the changes as unified diffs; write nothing."`
	Yes       bool   `short:"y" help:"Do not ask before changing files."`
	BinDir    string `help:"Folder holding the gotk-hook-* binaries (default: next to gotk-install, else PATH)." placeholder:"DIR"`

	Version kong.VersionFlag `help:"Print gotk-install's version."`
}

// Version is set at link time (make build: -X …/install.Version=…).
var Version = "dev"

const prog = "gotk-install"

// Main runs gotk-install with args (without the program name) and returns
// its exit code. It ignores SIGPIPE: a report written to a closed pipe must
// not kill a run between its writes.
func Main(args []string, e *Env) int {
	signal.Ignore(syscall.SIGPIPE)
	var c cli
	parser, err := kong.New(&c, kong.Name(prog),
		kong.Description("Install gotk's hooks, plugins and rules into coding agents' configuration."),
		kong.Vars{"agents": strings.Join(hosts.AgentNames(), ", "), "version": prog + " " + Version},
		kong.Writers(e.Stdout, e.Stderr),
		kong.Exit(func(int) { panic(exitHelp{}) }))
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s: %v\n", prog, err)
		return 2
	}
	code, done := func() (code int, done bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(exitHelp); !ok {
					panic(r)
				}
				code, done = 0, true
			}
		}()
		if _, err := parser.Parse(args); err != nil {
			fmt.Fprintf(e.Stderr, "%s: %v (see --help)\n", prog, err)
			return 2, true
		}
		return 0, false
	}()
	if done {
		return code
	}
	if c.BinDir != "" {
		e.BinDir = c.BinDir
	}
	n := 0
	for _, b := range []bool{c.Agent != "", c.All, c.List} {
		if b {
			n++
		}
	}
	switch {
	case n == 0:
		fmt.Fprintf(e.Stderr, "%s: say what to do: --agent NAME, --all or --list (see --help)\n", prog)
		return 2
	case n > 1:
		fmt.Fprintf(e.Stderr, "%s: --agent NAME, --all and --list each say what to do; give one of them (--agent for one agent, --all for every agent found)\n", prog)
		return 2
	}
	if c.List {
		return list(e)
	}
	var targets []*agentconf.Agent
	scope := agentconf.Scope("")
	if c.Global {
		scope = agentconf.Global
	} else if c.Project {
		scope = agentconf.Project
	}
	if c.Agent != "" {
		a := hosts.AgentByName(c.Agent)
		if a == nil {
			fmt.Fprintf(e.Stderr, "%s: unknown agent %q; choose one of: %s\n", prog, c.Agent, strings.Join(hosts.AgentNames(), ", "))
			return 2
		}
		if scope != "" && !a.Supports(scope) {
			fmt.Fprintf(e.Stderr, "%s: %s supports only --%s; nothing was changed\n", prog, a.Name, a.Scopes[0])
			return 2
		}
		if c.NoRules && !c.Uninstall && rulesOnly(&e.Env, a, scope) {
			in := ""
			if len(a.Scopes) > 1 {
				in = " in --" + string(scope)
				if scope == "" {
					in = " in --" + string(a.Scopes[0])
				}
			}
			fmt.Fprintf(e.Stderr, "%s: %s gets only a rules text%s; with --no-rules there is nothing to install\n", prog, a.Name, in)
			return 2
		}
		targets = []*agentconf.Agent{a}
	} else {
		m, err := agentconf.LoadManifest(&e.Env)
		if err != nil {
			return fail(e, err)
		}
		for _, a := range hosts.Agents() {
			// An uninstall also takes gotk out of agents that are gone.
			if (scope == "" || a.Supports(scope)) && (a.Found(&e.Env, m) || c.Uninstall && m.Recorded(a.Name)) {
				targets = append(targets, a)
			}
		}
		if len(targets) == 0 {
			fmt.Fprintf(e.Stdout, "no agents found on this machine; nothing to do\n")
			return 0
		}
	}
	return run(e, targets, scope, c)
}

type exitHelp struct{}

// rulesOnly reports whether all agent a gets in scope s ("" its default)
// is a rules text.
func rulesOnly(e *agentconf.Env, a *agentconf.Agent, s agentconf.Scope) bool {
	if s == "" {
		s = a.Scopes[0]
	}
	for _, p := range a.Parts(e, s, agentconf.Bins{}) {
		if p.Asset != agentconf.AssetRules {
			return false
		}
	}
	return true
}

func fail(e *Env, err error) int {
	msg := err.Error()
	if !strings.Contains(msg, "nothing was changed") {
		msg += "; nothing was changed"
	}
	fmt.Fprintf(e.Stderr, "%s: %s\n", prog, msg)
	return 1
}

// run plans the changes without a lock and writes nothing when there is
// nothing to change. Otherwise it takes the lock, plans again (another
// gotk-install may have changed the files meanwhile), applies, and only
// then says what it did.
func run(e *Env, targets []*agentconf.Agent, only agentconf.Scope, c cli) int {
	m, err := agentconf.LoadManifest(&e.Env)
	if err != nil {
		return fail(e, err)
	}
	pl, steps, err := makePlan(e, targets, only, c, m)
	if err != nil {
		return fail(e, err)
	}
	if c.DryRun {
		for _, p := range pl.order {
			ch := pl.changes[p]
			if ch.changed() {
				fmt.Fprint(e.Stdout, unifiedDiff(p, ch.before, ch.after, ch.existed, !ch.remove))
			}
		}
		printSteps(e, steps, false, nil)
		printNotes(e, pl.notes)
		fmt.Fprintln(e.Stdout, "dry run: nothing was written")
		return 0
	}
	// upToDate says the run has nothing to change (the plan's steps, all
	// done already) and ends it.
	upToDate := func() int {
		printSteps(e, steps, true, nil)
		printNotes(e, pl.notes)
		return 0
	}
	if !pl.changed(m) {
		return upToDate()
	}
	// An uninstall never makes the data folder to lock it: when it is gone,
	// another run removed the last of gotk meanwhile (the manifest went
	// with it), and what this run planned is planned again from that.
	unlock, created, err := lockData(e, !c.Uninstall)
	if errors.Is(err, errDataGone) {
		if m, err = agentconf.LoadManifest(&e.Env); err != nil {
			return fail(e, err)
		}
		if pl, steps, err = makePlan(e, targets, only, c, m); err != nil {
			return fail(e, err)
		}
		if !pl.changed(m) {
			return upToDate()
		}
		unlock, created, err = lockData(e, true)
	}
	if err != nil {
		return fail(e, err)
	}
	defer unlock()
	if m, err = agentconf.LoadManifest(&e.Env); err != nil {
		removeEmpty(created)
		return fail(e, err)
	}
	m.DataDirs = append(m.DataDirs, created...)
	if pl, steps, err = makePlan(e, targets, only, c, m); err != nil {
		removeEmpty(created)
		return fail(e, err)
	}
	if !pl.changed(m) {
		removeEmpty(created)
		// A folder this run made that is not empty now holds what another
		// run made in it: the manifest keeps it, to go with the rest.
		if slices.ContainsFunc(created, exists) {
			if err := saveManifest(m, e); err != nil {
				return fail(e, err)
			}
		}
		return upToDate()
	}
	if e.IsTTY && !c.Yes {
		printSteps(e, steps, false, nil)
		fmt.Fprint(e.Stdout, "Apply these changes? [y/N] ")
		line, _ := bufio.NewReader(e.Stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintln(e.Stdout, "nothing was changed")
			removeEmpty(created)
			return 1
		}
	}
	// From the first write to the last, an interrupt waits: the run either
	// completes or is undone, never stops half way.
	stop := holdSignals()
	done, err := pl.apply(func() error { return saveManifest(pl.manifest(m), e) }, agentconf.ManifestPath(&e.Env))
	interrupted := stop()
	if err != nil {
		removeEmpty(created)
		return fail(e, err)
	}
	// The change is committed: say what it was. Output that cannot be
	// written (a closed pipe) changes nothing of that.
	printSteps(e, steps, true, done)
	printNotes(e, pl.notes)
	if interrupted {
		fmt.Fprintf(e.Stderr, "%s: interrupted; the changes above were completed first\n", prog)
		return 130
	}
	return 0
}

// step is one line of a run's report: what one part does to one file, or
// (file "") a plain statement.
type step struct {
	label, file, verb, what string
}

// future forms of the verbs plan uses, for --dry-run and the prompt.
var future = map[string]string{"added": "would add", "updated": "would update", "removed": "would remove", "set": "would set", "adopted": "would adopt", "left as it is, with no second": "would leave as it is, with no second"}

// printSteps prints the report, in the past tense once the change is done
// (with the backups the run made or removed), else in the conditional.
func printSteps(e *Env, steps []step, past bool, done *applied) {
	said := map[string]bool{}
	for _, s := range steps {
		if s.file == "" {
			fmt.Fprintf(e.Stdout, "%s: %s\n", s.label, s.what)
			continue
		}
		verb := s.verb
		if !past {
			verb = future[verb]
		}
		fmt.Fprintf(e.Stdout, "%s: %s: %s %s\n", s.label, s.file, verb, s.what)
		if done == nil || said[s.file] {
			continue
		}
		said[s.file] = true
		for _, l := range done.lines[s.file] {
			fmt.Fprintln(e.Stdout, "  "+l)
		}
	}
}

// holdSignals holds SIGINT, SIGTERM and SIGHUP until stop, which reports
// whether one came.
func holdSignals() (stop func() bool) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	return func() bool {
		signal.Stop(ch)
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
}

// makePlan reads every file of targets and plans the run's changes; it
// writes nothing.
func makePlan(e *Env, targets []*agentconf.Agent, only agentconf.Scope, c cli, m *agentconf.Manifest) (*plan, []step, error) {
	pl := newPlan()
	pl.adopt = c.Adopt
	var steps []step
	gotk := ""
	if g, err := e.findBin("gotk"); err == nil {
		gotk = shellQuote(g)
	}
	for _, a := range targets {
		s := only
		if s == "" {
			s = a.Scopes[0]
		}
		bins := agentconf.Bins{Gotk: gotk}
		// A rules text alone (Cline's project scope) names no hook binary.
		if a.HookBin != "" && !c.Uninstall && !rulesOnly(&e.Env, a, s) {
			h, err := e.findBin(a.HookBin)
			if err != nil {
				return nil, nil, err
			}
			bins.Hook = shellQuote(h)
			if a.CommandRegex {
				bins.CommandRegex = commandRegex(h)
			}
		}
		label := fmt.Sprintf("%s (%s)", a.Name, s)
		any := false
		for _, p := range a.Parts(&e.Env, s, bins) {
			var verb string
			var err error
			switch {
			case c.Uninstall, p.Rules && c.NoRules:
				verb, err = pl.uninstall(a, p, m)
			case p.Legacy:
				continue
			default:
				verb, err = pl.install(a, s, p, m)
			}
			if err != nil {
				return nil, nil, err
			}
			if verb != "" {
				any = true
				steps = append(steps, step{label, p.File, verb, p.Describe()})
			}
		}
		switch {
		case !any && c.Uninstall:
			steps = append(steps, step{label: label, what: "not installed; nothing to remove"})
		case !any:
			steps = append(steps, step{label: label, what: "already installed; nothing changed"})
		case !c.Uninstall:
			if a.Notes != nil {
				for _, n := range a.Notes(&e.Env, s) {
					pl.notes = append(pl.notes, a.Name+": "+n)
				}
			}
			pl.notes = append(pl.notes, runnerNotes(e, a)...)
		}
	}
	return pl, steps, nil
}

// commandRegex asks the hook binary bin for its --command-regex; "" when it
// has none, does not answer within 5 s, or answers something that is not a
// regular expression matching `git status` (an older binary).
func commandRegex(bin string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--command-regex").Output()
	if err != nil {
		return ""
	}
	re := strings.TrimSpace(string(out))
	if c, err := regexp.Compile(re); err != nil || strings.ContainsAny(re, "\n\r") || !c.MatchString("git status") {
		return ""
	}
	return re
}

// shellQuote quotes a path for the shell that agents run hook commands in,
// when it holds anything but the usual path characters.
func shellQuote(p string) string {
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%=,", r)) {
			return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
		}
	}
	return p
}

func printNotes(e *Env, notes []string) {
	seen := map[string]bool{}
	for _, n := range notes {
		if !seen[n] {
			seen[n] = true
			fmt.Fprintln(e.Stdout, "note: "+n)
		}
	}
}

// runnerNotes checks that the agent will find gotk: every hook and plugin
// looks it up on the PATH the agent was started with (Codex's hook then
// names it by absolute path, so Codex's login shell needs no PATH entry).
func runnerNotes(e *Env, a *agentconf.Agent) []string {
	gotk, err := e.findBin("gotk")
	if err != nil {
		return []string{"the gotk runner was not found (" + err.Error() + "); rewritten commands run `gotk …`, so install it too."}
	}
	if p, err := e.LookPath("gotk"); err != nil || p == "" {
		return []string{fmt.Sprintf("gotk (%s) is not on this shell's PATH; %s finds it on the PATH it was started with: add %s to PATH.", gotk, a.Name, filepath.Dir(gotk))}
	}
	// gotk hands gain, recall and discover to its companion, beside it or
	// on PATH (runner.Companion)
	if !agentconf.IsExec(filepath.Join(filepath.Dir(gotk), "gotk-report")) {
		if p, err := e.LookPath("gotk-report"); err != nil || p == "" {
			return []string{"gotk-report is not beside " + gotk + " nor on PATH: commands run compact, but `gotk gain`, `gotk recall` and `gotk discover` need it; install it with gotk."}
		}
	}
	return nil
}

// list prints each agent, whether it is found, and its state per scope.
func list(e *Env) int {
	m, err := agentconf.LoadManifest(&e.Env)
	if err != nil {
		return fail(e, err)
	}
	w := tabwriter.NewWriter(e.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "AGENT\tFOUND\tSCOPE\tSTATE\tFILE")
	for _, st := range agentconf.Inspect(hosts.Agents(), &e.Env, m) {
		found := "no"
		if st.Found {
			found = "yes"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", st.Agent, found, st.Scope, st.State, st.File)
	}
	w.Flush()
	return 0
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
