package check

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/hosts"
)

// binaries are gotk's binaries doctor looks for, in the order it lists
// them: the three tools, then each host's hook.
func binaries() []string {
	out := []string{"gotk", "gotk-report", "gotk-install"}
	for _, a := range hosts.Agents() {
		if a.HookBin != "" {
			out = append(out, a.HookBin)
		}
	}
	return out
}

// Doctor prints, for a person, each agent found or installed and its
// state, gotk's binaries and their versions, then every problem with the
// command that fixes it — a gotk-install command only after a dry run of
// it succeeded — and what could be done besides. It returns 1 when it found
// a problem, 0 on a machine with none (also one with no agent at all).
func Doctor(w io.Writer, env Env) int {
	r := collect(env)

	shown := 0
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, st := range r.states {
		if !st.Found && st.State == "not installed" {
			continue
		}
		if shown == 0 {
			fmt.Fprintln(tw, "AGENT\tSCOPE\tFOUND\tGOTK\tHOOK")
		}
		shown++
		found := "no"
		if st.Found {
			found = "yes"
		}
		hook := "-"
		if st.Hook != "" {
			hook = agentconf.Program(st.Hook)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", st.Agent, st.Scope, found, st.State, hook)
	}
	tw.Flush()
	if shown == 0 {
		fmt.Fprintln(w, "no coding agent found here, and gotk is installed for none (gotk-install --list shows where gotk looks)")
	}

	fmt.Fprintln(w)
	fmt.Fprintln(w, "binaries:")
	for _, n := range binaries() {
		p, err := env.LookPath(n)
		if err != nil {
			fmt.Fprintf(w, "  %-18s not on PATH\n", n)
			continue
		}
		v := "version unknown"
		if out, _, err := run(env.Cwd, p, []string{"--version"}, nil, env.environ()); err == nil {
			if l := firstLine(string(out)); l != "" && !strings.HasPrefix(l, "{") {
				v = l
			}
		}
		fmt.Fprintf(w, "  %-18s %s (%s)\n", n, p, v)
	}

	var todo, could, notes []string
	for _, f := range r.findings {
		switch f.level {
		case "FAIL":
			todo = append(todo, f.label+": "+f.msg+"\n      fix: "+tryFix(env, f.fix))
		case "WARN":
			line := f.label + ": " + f.msg
			if f.fix != "" {
				line += " (" + f.fix + ")"
			}
			notes = append(notes, line)
		case "SKIP":
			could = append(could, fmt.Sprintf("%s is used here and gotk is not installed for it: %s", f.agent, tryFix(env, f.fix)))
		}
	}
	for _, st := range r.states {
		if st.Agent == "codex" && st.State != "not installed" {
			notes = append(notes, "codex: Codex runs a new or changed hook only once trusted: start codex and run /hooks (again after each reinstall)")
			break
		}
	}
	fmt.Fprintln(w)
	if len(todo) == 0 {
		fmt.Fprintln(w, "no problems found")
	} else {
		fmt.Fprintln(w, "to do:")
		for _, t := range todo {
			fmt.Fprintln(w, "  - "+t)
		}
	}
	for _, sec := range []struct {
		title string
		lines []string
	}{{"you could:", could}, {"notes:", notes}} {
		if len(sec.lines) == 0 {
			continue
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, sec.title)
		for _, l := range sec.lines {
			fmt.Fprintln(w, "  - "+l)
		}
	}
	if len(todo) > 0 {
		return 1
	}
	return 0
}

// tryFix returns fix when it is not a gotk-install command, or when a dry
// run of it succeeds. Otherwise it says what stands in the way: the dry
// run's own one-line error (a file that does not parse, a missing hook
// binary), or that gotk-install is not on PATH.
func tryFix(env Env, fix string) string {
	args, ok := installArgs(fix)
	if !ok {
		return fix
	}
	bin, err := env.LookPath("gotk-install")
	if err != nil {
		return "put gotk-install on PATH (make install in the gotk tree), then: " + fix
	}
	_, stderr, err := run(env.Cwd, bin, append(args, "--dry-run"), nil, env.environ())
	if err != nil {
		why := strings.TrimPrefix(firstLine(string(stderr)), "gotk-install: ")
		why = strings.TrimSuffix(why, "; nothing was changed")
		if why == "" {
			why = err.Error()
		}
		return "first " + why + "; then: " + fix
	}
	return fix
}

// installArgs splits a fix that is a gotk-install command line (and
// nothing more) into its arguments.
func installArgs(fix string) ([]string, bool) {
	f := strings.Fields(fix)
	if len(f) < 2 || f[0] != "gotk-install" {
		return nil, false
	}
	for _, a := range f[1:] {
		if !strings.HasPrefix(a, "--") && strings.ContainsAny(a, ",;") {
			return nil, false
		}
	}
	return f[1:], true
}
