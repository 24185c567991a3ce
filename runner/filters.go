package runner

import (
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/gotk-dev/gotk/core/tomlfilter"
	"github.com/gotk-dev/gotk/runner/filter"
)

// `gotk filters list|test`, `gotk trust`, `gotk untrust`: the declarative
// filters (RTK's schema, core/tomlfilter) as a person manages them.

type filtersCmd struct {
	List struct{} `cmd:"" default:"1" help:"List every filter in force: name, scope, file:line and match_command, highest precedence first (project > global > built-in)."`
	Test struct {
		File string `arg:"" optional:"" help:"A filter file (default: the built-in, global and trusted project filters)."`
	} `cmd:"" help:"Run the inline [[tests.NAME]] of every filter (or of FILE); print a diff and exit 1 on a failure."`
}

type trustCmd struct {
	File string `arg:"" optional:"" help:"The filter file (default: .gotk/filters.toml here or at the git root)."`
}

// filterEnv is the environment the filter files are found in.
func (a *app) filterEnv() tomlfilter.Env {
	wd, _ := a.getwd()
	home := a.getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return tomlfilter.Env{Getenv: a.getenv, Home: home, Cwd: wd}
}

// specsInForce returns the filters in force, highest precedence first,
// the files they came from, and the problems found.
func (a *app) specsInForce() (tomlfilter.Files, []tomlfilter.Spec, []tomlfilter.Problem) {
	files, specs, problems := tomlfilter.Load(a.filterEnv())
	return files, append(specs, filter.BuiltinSpecs()...), problems
}

func (a *app) filtersList() int {
	files, specs, problems := a.specsInForce()
	for _, w := range files.Warnings {
		fmt.Fprintln(a.stderr, w)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSCOPE\tFILE\tMATCH")
	seen := map[string]string{}
	for _, s := range specs {
		scope := files.ScopeOf(s.Source)
		if strings.HasPrefix(s.Source, "builtin/") {
			scope = tomlfilter.BuiltIn
		}
		name := s.Name
		if first, dup := seen[s.Name]; dup {
			name += " (" + first + "'s shadows it)"
		} else {
			seen[s.Name] = scope.String()
		}
		loc := s.Source
		if s.Line > 0 {
			loc = fmt.Sprintf("%s:%d", s.Source, s.Line)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, scope, loc, s.MatchCommand)
	}
	tw.Flush()
	if files.Untrusted != "" {
		fmt.Fprintf(a.stdout, "\n%s: %s\n", files.Untrusted, files.State)
	}
	if len(problems) > 0 {
		fmt.Fprintln(a.stdout, "\nrefused:")
		for _, p := range problems {
			fmt.Fprintf(a.stdout, "  %s\n", p)
		}
	}
	fmt.Fprintln(a.stdout, "\nThe first filter whose match_command matches a command applies; Go-rendered commands (git status, go test, …) are listed by gotk commands, and a user filter matching one takes it over.")
	return 0
}

func (a *app) filtersTest(file string) int {
	var specs []tomlfilter.Spec
	var problems []tomlfilter.Problem
	if file != "" {
		data, err := tomlfilter.ReadFile(file)
		if err != nil {
			return a.fail("filters test: %v", err)
		}
		specs, problems = tomlfilter.Parse(file, data)
	} else {
		var files tomlfilter.Files
		files, specs, problems = a.specsInForce()
		for _, w := range files.Warnings {
			fmt.Fprintln(a.stderr, w)
		}
		if files.Untrusted != "" {
			fmt.Fprintf(a.stderr, "gotk: %s: %s; its tests were not run (gotk filters test %s runs them)\n", files.Untrusted, files.State, files.Untrusted)
		}
	}
	passed, failed, untested := 0, 0, 0
	for _, s := range specs {
		f, err := tomlfilter.Compile(s)
		if err != nil {
			fmt.Fprintf(a.stdout, "FAIL %s: %v\n", s.Name, err)
			failed++
			continue
		}
		if len(s.Tests) == 0 {
			untested++
		}
		for _, o := range f.RunTests() {
			if o.Passed {
				passed++
				continue
			}
			failed++
			fmt.Fprintf(a.stdout, "FAIL %s: %s (%s:%d)\n", o.Filter, o.Test, s.Source, s.Line)
			for _, l := range lineDiff(o.Expected, o.Actual) {
				fmt.Fprintf(a.stdout, "    %s\n", l)
			}
		}
	}
	for _, p := range problems {
		fmt.Fprintf(a.stdout, "FAIL %s\n", p)
		failed++
	}
	summary := fmt.Sprintf("%d passed, %d failed", passed, failed)
	if untested > 0 {
		summary += fmt.Sprintf(" (%d filters have no inline test)", untested)
	}
	fmt.Fprintln(a.stdout, summary)
	if failed > 0 {
		return exitFail
	}
	return 0
}

// lineDiff is a line diff of want against got: "-" lines the test
// expected and did not get, "+" lines it got and did not expect, " "
// lines both have.
func lineDiff(want, got string) []string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	// longest common subsequence, small inputs
	lcs := make([][]int, len(w)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(g)+1)
	}
	for i := len(w) - 1; i >= 0; i-- {
		for j := len(g) - 1; j >= 0; j-- {
			if w[i] == g[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	out := []string{"--- expected", "+++ actual"}
	i, j := 0, 0
	for i < len(w) || j < len(g) {
		switch {
		case i < len(w) && j < len(g) && w[i] == g[j]:
			out = append(out, "  "+w[i])
			i++
			j++
		case j < len(g) && (i == len(w) || lcs[i][j+1] >= lcs[i+1][j]):
			out = append(out, "+ "+g[j])
			j++
		default:
			out = append(out, "- "+w[i])
			i++
		}
	}
	return out
}

// trust pins a project filter file: its filters apply until it changes.
func (a *app) trust(file string) int {
	env := a.filterEnv()
	if file == "" {
		if file = tomlfilter.ProjectFile(env); file == "" {
			return a.fail("trust: no .gotk/filters.toml in %s or at its git root (give the file: gotk trust FILE)", env.Cwd)
		}
	}
	data, err := tomlfilter.ReadFile(file)
	if err != nil {
		return a.fail("trust: %v", err)
	}
	specs, problems := tomlfilter.Parse(file, data)
	abs, sum, err := tomlfilter.TrustPath(env, file)
	if err != nil {
		return a.fail("trust: %s: %v; nothing was trusted", tomlfilter.TrustFile(env), err)
	}
	fmt.Fprintf(a.stdout, "gotk: trusted %s (sha256 %s): %d filters apply while it stays as it is now\n", abs, sum[:12], len(specs))
	for _, s := range specs {
		fmt.Fprintf(a.stdout, "  %s  %s\n", s.Name, s.MatchCommand)
	}
	for _, p := range problems {
		fmt.Fprintf(a.stderr, "gotk: %s\n", p)
	}
	return 0
}

// untrust removes a file's pin.
func (a *app) untrust(file string) int {
	env := a.filterEnv()
	if file == "" {
		if file = tomlfilter.ProjectFile(env); file == "" {
			return a.fail("untrust: no .gotk/filters.toml in %s or at its git root (give the file: gotk untrust FILE)", env.Cwd)
		}
	}
	abs, ok, err := tomlfilter.UntrustPath(env, file)
	switch {
	case err != nil:
		return a.fail("untrust: %s: %v", tomlfilter.TrustFile(env), err)
	case !ok:
		fmt.Fprintf(a.stdout, "gotk: %s was not trusted\n", abs)
	default:
		fmt.Fprintf(a.stdout, "gotk: %s is no longer trusted: its filters do not apply\n", abs)
	}
	return 0
}
