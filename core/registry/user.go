package registry

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/tomlfilter"
)

// User is the category of rules that come from the user's own filter
// files (global, or a trusted project's).
const User Category = "user"

// UserHandlerPrefix starts the handler of a user filter's rule:
// "toml:<file>#<name>". The runner loads that filter from that file.
const UserHandlerPrefix = "toml:"

// User filters: a command line matching a filter of
// $XDG_CONFIG_HOME/gotk/filters.toml, filters.d/*.toml or a trusted
// project .gotk/filters.toml (core/tomlfilter) is classified like a table
// row, so the hooks rewrite it and the runner applies that filter. They
// come first (project > global > built-in), except where the table
// refuses the form (a watch mode, a follower, output to a file): a user
// filter never makes a long-running or redirected form rewritable. Unlike
// table rows, they match only commands whose every word is known before
// they run, and never in a pipeline.

var (
	userMu     sync.Mutex
	userLoaded bool
	userSet    *tomlfilter.Matcher
	userRules  map[*tomlfilter.Entry]*Rule
)

// UseUserFilters sets the user filters Classify consults (nil: none), in
// place of those found in the process's environment on first use.
func UseUserFilters(m *tomlfilter.Matcher) {
	userMu.Lock()
	defer userMu.Unlock()
	userSet, userLoaded, userRules = m, true, nil
}

// userFilters loads the user filters of the process's environment once;
// problems in a file are printed (stderr) when the file is first read
// after a change, so a hook says it once.
func userFilters() *tomlfilter.Matcher {
	userMu.Lock()
	defer userMu.Unlock()
	if !userLoaded {
		userLoaded = true
		if os.Getenv("GOTK_DISABLED") != "1" {
			userSet = tomlfilter.LoadMatcher(tomlfilter.SystemEnv())
			for _, w := range userSet.Warnings {
				fmt.Fprintln(os.Stderr, w)
			}
		}
	}
	return userSet
}

// neverUser are forms without a table row that run until stopped; no user
// filter takes them over.
var neverUser = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"go":             {"run"},
		"cargo":          {"run", "watch"},
		"docker":         {"compose up", "attach", "run -it", "run -ti"},
		"docker-compose": {"up"},
		"kubectl":        {"port-forward", "attach", "proxy"},
	}
})

// userRule returns the rule of the user filter argv matches, if any.
func userRule(prog string, argv []string) (*Rule, bool) {
	m := userFilters()
	if m == nil || m.Len() == 0 {
		return nil, false
	}
	for _, a := range argv {
		if a == Unknown {
			return nil, false
		}
	}
	args := argv[1:]
	if refused(prog, args) {
		return nil, false
	}
	typed := strings.Join(argv, " ")
	en, ok := m.Match(typed)
	if !ok && prog != argv[0] {
		en, ok = m.Match(prog + strings.TrimPrefix(typed, argv[0]))
	}
	if !ok {
		return nil, false
	}
	userMu.Lock()
	defer userMu.Unlock()
	if r, ok := userRules[en]; ok {
		return r, true
	}
	r := &Rule{ID: "filter." + en.Name, Program: prog, Category: User, Handler: UserHandlerPrefix + en.Source + "#" + en.Name}
	if userRules == nil {
		userRules = map[*tomlfilter.Entry]*Rule{}
	}
	userRules[en] = r
	return r, true
}

// refused reports whether the table refuses this form of prog: a row for
// its subcommand whose acceptance test fails, or a long-running form.
func refused(prog string, args []string) bool {
	for r := range rowsOf(prog, args) {
		if r.Accept != nil && !r.Accept(args) {
			return true
		}
	}
	if hasSub(skipGlobals(prog, args), neverUser()[prog]) {
		return true
	}
	for _, a := range args {
		if a == "--watch" || a == "--follow" || a == "-f" && (prog == "tail" || prog == "journalctl") {
			return true
		}
	}
	return false
}
