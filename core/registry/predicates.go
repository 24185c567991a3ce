package registry

import (
	"strings"

	"github.com/gotk-dev/gotk/core/shell"
)

// The predicates below read a command's arguments. Each treats an Unknown
// word as "could be anything": a test that refuses a flag refuses Unknown
// too, so an expansion can never sneak a refused form past the table.

func subs(s ...string) []string { return s }

func yes([]string) bool { return true }

func all(preds ...func([]string) bool) func([]string) bool {
	return func(args []string) bool {
		for _, p := range preds {
			if !p(args) {
				return false
			}
		}
		return true
	}
}

// hasFlag reports whether args (before a `--`) carry one of flags: exactly,
// as `--flag=value`, or for a one-letter flag `-x`, inside a bundle of
// short options (`-fn` holds -f).
func hasFlag(args []string, flags []string) bool {
	for _, a := range args {
		if a == Unknown {
			return true
		}
		if a == "--" {
			return false
		}
		for _, f := range flags {
			if a == f || (strings.HasPrefix(f, "--") && strings.HasPrefix(a, f+"=")) {
				return true
			}
			if len(f) == 2 && f[0] == '-' && isLetter(f[1]) && isShortBundle(a) && strings.IndexByte(a[1:], f[1]) >= 0 {
				return true
			}
			// single-dash long options (find -exec, terraform -out=plan)
			if len(f) > 2 && f[1] != '-' && strings.HasPrefix(a, f+"=") {
				return true
			}
		}
	}
	return false
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// isShortBundle reports whether a is a bundle of one-letter options, like
// -la or -rn (letters only: `-n5` is an option with its value).
func isShortBundle(a string) bool {
	if len(a) < 2 || a[0] != '-' || a[1] == '-' {
		return false
	}
	for i := 1; i < len(a); i++ {
		if !isLetter(a[i]) {
			return false
		}
	}
	return true
}

func noFlag(flags ...string) func([]string) bool {
	return func(args []string) bool { return !hasFlag(args, flags) }
}

func anyFlag(flags ...string) func([]string) bool {
	return func(args []string) bool {
		for _, a := range args {
			if a == "--" {
				return false
			}
			for _, f := range flags {
				if a == f || strings.HasPrefix(a, f+"=") {
					return true
				}
			}
		}
		return false
	}
}

// operands returns the arguments that are not options.
func operands(args []string) []string {
	var out []string
	dash := false
	for _, a := range args {
		if !dash && a == "--" {
			dash = true
			continue
		}
		if dash || !strings.HasPrefix(a, "-") || a == "-" {
			out = append(out, a)
		}
	}
	return out
}

// hasOperand: the command names at least one file (it does not read stdin).
func hasOperand(args []string) bool {
	for _, o := range operands(args) {
		if o != "-" {
			return true
		}
	}
	return false
}

func noSub(names ...string) func([]string) bool {
	return func(args []string) bool {
		ops := operands(args)
		if len(ops) == 0 {
			return true
		}
		for _, n := range names {
			if ops[0] == n || ops[0] == Unknown {
				return false
			}
		}
		return true
	}
}

// catPlain accepts `cat FILE…` and `cat -n FILE…`: the forms whose output is
// the files themselves. Other options (-A, -v, -s…) change the bytes shown.
func catPlain(args []string) bool {
	files := 0
	for _, a := range args {
		switch {
		case a == Unknown:
			return false
		case a == "-n":
		case a == "-" || strings.HasPrefix(a, "-"):
			return false
		default:
			files++
		}
	}
	return files > 0
}

// notLongRunning refuses package-manager scripts that conventionally never
// exit (dev servers, watchers): their output must stream, untouched.
func notLongRunning(args []string) bool {
	for _, a := range args {
		if a == Unknown {
			return false
		}
		switch a {
		case "dev", "start", "serve", "watch", "preview", "storybook", "--watch", "-w":
			return false
		}
	}
	return true
}

// gitRO wraps a read-only test of a git subcommand's arguments. Claude
// Code treats any git global option before the subcommand (-C, -c,
// --no-pager, …) as needing approval (measured in Claude Code 2.1.328), and
// `-c` could run programs anyway.
func gitRO(sub func([]string) bool) func([]string) bool {
	return func(args []string) bool {
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			return false
		}
		return sub(args[1:])
	}
}

// onlyFlags: every option is one of allowed (exactly, or as `--opt=value`
// for an allowed `--opt=`, or `-n`/`-NUM` counts where allowed holds "-NUM").
// Claude Code runs git's reading commands without asking only with flags it
// knows; these lists are what Claude Code 2.1.328 was measured to run
// (e2e/claude_readonly_test.go). Operands (revisions, paths) are fine.
func onlyFlags(allowed map[string]bool) func([]string) bool {
	return func(args []string) bool {
		valued := false
		for _, a := range args {
			switch {
			case valued:
				valued = false
			case a == "--":
				return true
			case !strings.HasPrefix(a, "-") || a == "-":
			case allowed[a]:
				valued = allowed[a+" VALUE"]
			case strings.Contains(a, "=") && allowed[a[:strings.IndexByte(a, '=')+1]]:
			case allowed["-NUM"] && shell.IsDigits(a[1:]):
			case allowed["-S…"] && strings.HasPrefix(a, "-S") && len(a) > 2:
			default:
				return false
			}
		}
		return true
	}
}

// statusFlags: the `git status` options Claude Code runs without asking
// (not -u…, not --porcelain=VERSION).
func statusFlags() map[string]bool {
	return set("--porcelain", "-s", "--short", "-b", "--branch", "--ignored", "--untracked-files=")
}

// historyFlags: the `git log/diff/show` options Claude Code runs without
// asking (not --output, --ext-diff, --textconv, --color, -U<n>).
func historyFlags() map[string]bool {
	return set("--oneline", "-p", "--patch", "--stat", "--format=", "--pretty=", "--graph", "--all",
		"-S…", "-S", "-S VALUE", "--follow", "--decorate", "-n", "-n VALUE", "-NUM", "--name-status", "--name-only", "--since=", "--until=",
		"--author=", "--no-ext-diff", "--cached", "--staged", "--no-index", "--word-diff", "-s", "--no-patch")
}

// branchListing: `git branch` that only lists, as Claude Code's table
// for it (2.1.328: safeFlags and its callback) lets it run unasked: every
// option one it lists, spelled whole (git takes `--unset-upst` for
// --unset-upstream; Claude, measured, asks), and an operand only as a
// --list pattern or the commit of --merged/--no-merged (any other names a
// branch to create). --contains, --no-contains, --points-at and --sort
// take a value.
func branchListing(args []string) bool {
	flags := set("-l", "--list", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--color", "--no-color",
		"--column", "--no-column", "--no-abbrev", "--merged", "--no-merged", "--show-current", "-i", "--ignore-case")
	valued := set("--contains", "--no-contains", "--points-at", "--sort")
	list := anyFlag("--list", "-l")(args)
	prev := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		switch {
		case a == Unknown, a == "--":
			return false
		case !strings.HasPrefix(a, "-") || a == "-":
			if !list && prev != "--merged" && prev != "--no-merged" {
				return false // a name: creates a branch
			}
			prev = ""
		case flags[a]:
			prev = a
		case valued[name] && hasValue:
			prev = ""
		case valued[a]:
			i++ // its value
			prev = ""
		default:
			return false
		}
	}
	return true
}

// stashListing: `git stash list` and `git stash show` with only the
// options Claude Code's tables for them list (2.1.328; measured: it asks
// about `git stash list -p`, --format, --output, --ext-diff, --textconv),
// spelled whole. A bare `git stash` pushes.
func stashListing(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "list":
		return onlyFlags(set("--oneline", "--graph", "--decorate", "--no-decorate", "--date=", "--date", "--date VALUE",
			"--relative-date", "--max-count=", "-n", "-n VALUE"))(args[1:])
	case "show":
		return onlyFlags(set("--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--color", "--no-color",
			"--patch", "-p", "--no-patch", "--no-ext-diff", "-s", "--word-diff", "--word-diff-regex=", "--word-diff-regex",
			"--word-diff-regex VALUE", "--diff-filter=", "--diff-filter", "--diff-filter VALUE"))(args[1:])
	}
	return false
}

// HasFlag reports whether args, before any `--`, carry one of flags (see
// hasFlag). An Unknown word counts as carrying it.
func HasFlag(args []string, flags ...string) bool { return hasFlag(args, flags) }

// kubectlOutput refuses output formats that are already exactly what the
// user asked for (jsonpath, templates, names, custom columns): there is
// nothing to compact without changing them.
func kubectlOutput(args []string) bool {
	for i, a := range args {
		v := ""
		switch {
		case a == Unknown:
			return false
		case a == "-o" || a == "--output":
			if i+1 < len(args) {
				v = args[i+1]
			}
		case strings.HasPrefix(a, "--output="):
			v = strings.TrimPrefix(a, "--output=")
		case strings.HasPrefix(a, "-o"):
			v = strings.TrimPrefix(strings.TrimPrefix(a, "-o"), "=")
		default:
			continue
		}
		for _, f := range []string{"jsonpath", "go-template", "template", "name", "custom-columns", Unknown} {
			if strings.HasPrefix(v, f) {
				return false
			}
		}
	}
	return true
}

// nodeTest accepts `node --test [FILES]` with node's default reporter
// (TAP when its output is not a terminal, as under gotk). `--test` must
// come before the first operand: after a script name every word is the
// script's own. Watch mode never ends, and a reporter other than tap or
// spec (node's defaults off and on a terminal) prints a format the filter
// does not read.
func nodeTest(args []string) bool {
	test := false
	for _, a := range args {
		switch {
		case a == Unknown || a == "--":
			return false
		case a == "--test":
			test = true
		case a == "--watch" || strings.HasPrefix(a, "--watch=") || strings.HasPrefix(a, "--watch-path") ||
			strings.HasPrefix(a, "--test-reporter") && a != "--test-reporter=spec" && a != "--test-reporter=tap" || a == "-e" || a == "--eval" || a == "-p" || a == "--print" ||
			a == "-i" || a == "--interactive" || a == "-r" || a == "--require" || a == "--import" || a == "--loader" ||
			a == "--experimental-loader":
			return false // watch, reporters, evaluated code, options whose value is the next word
		case !strings.HasPrefix(a, "-") && !test:
			return false // a script and its own arguments
		}
	}
	return test
}
