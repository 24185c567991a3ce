// Package registry is gotk's single source of truth: the table of commands
// that have a compact equivalent. The hook asks it whether to rewrite a
// command; the runner asks it which filter renders the output. Both go
// through Classify, so the two can never disagree.
package registry

import (
	"iter"
	"path"
	"slices"
	"strings"
	"sync"
)

// Category groups rules for reports (`gotk gain`, the rules text).
type Category string

// The categories of the seed documents.
const (
	Tests    Category = "tests"
	Build    Category = "build"
	VCS      Category = "vcs"
	Lint     Category = "lint"
	Packages Category = "packages"
	Files    Category = "files"
	Infra    Category = "infra"
	Cloud    Category = "cloud"
	Other    Category = "other"
)

// Pipe says where in a pipeline a rule's command may be rewritten.
type Pipe uint8

const (
	// PipeNone: only outside pipelines.
	PipeNone Pipe = iota
	// PipeProducer: also as the first stage of a pipeline whose later stages
	// only display lines (see IsDisplayConsumer).
	PipeProducer
	// PipeFinal: also as the last stage of a pipeline (grep, rg), and as a
	// producer.
	PipeFinal
)

// Unknown stands for a word whose value is only known when the shell runs
// (a variable, a glob). Predicates treat it as "could be anything".
const Unknown = "\x00?"

// Rule is one row of the table.
type Rule struct {
	ID       string   // stable id, e.g. "git.status"; shown by explain, stored by gain
	Program  string   // the program name as typed (no path)
	Sub      []string // accepted leading operands ("status", "compose ps"); nil: any
	Category Category
	Pipe     Pipe
	Handler  string // the runner filter that renders the output
	// Usage, when set, is how the rules text names the command (when the
	// program and subcommands alone would say too much: `prettier --check`).
	Usage string
	// Accept, when set, must hold for the arguments after the program
	// (global options included); it refuses forms the filter cannot render
	// faithfully (follow modes, watch modes, output to a file…).
	Accept func(args []string) bool
	// ReadOnly, when set, says Claude Code would run the command without
	// asking (its own read-only command set). Used only for permission
	// parity; nil means "not read-only".
	ReadOnly func(args []string) bool
}

// Run reports whether the category is a run's (tests, builds,
// linters): its output's facts are failures, errors and the summary,
// where in any other (a listing, a log, a diff) every line is one.
func (c Category) Run() bool { return c == Tests || c == Build || c == Lint }

// RunsToEnd reports whether, before an agent's `head` window, gotk runs
// the rule's command to its end and fits its compact output to the
// window's first lines: tests, builds, linters and git (whose summary and
// failures may come last), and the rules that may feed a pipeline
// (listings, reads). The command of any other rule (a log, a plan, a
// process table) gotk stops where head stops it: once the window's lines
// have come it reads no further, and the program meets the closed pipe it
// would have met.
func (r *Rule) RunsToEnd() bool {
	if r.Pipe != PipeNone {
		return true
	}
	switch r.Category {
	case Tests, Build, Lint, VCS:
		return true
	}
	switch r.ID {
	case "kubectl.get", "oc.get", "docker.ps", "docker.images", "helm", "pip", "npm.list", "pnpm.list":
		return true
	}
	return false
}

// Match is the result of classifying a command.
type Match struct {
	Rule *Rule
	// Tool is the index in argv of the program the rule names: 0, or further
	// right when a launcher (npx, pnpm exec, python -m, …) runs it.
	Tool int
}

// IsReadOnly reports whether Claude Code would run argv without asking: its
// program is named plainly (no path, no launcher) and a rule for it marks
// these arguments read-only. Acceptance tests do not apply here: `head`
// reading a pipe is read-only even though gotk does not rewrite it.
func IsReadOnly(argv []string) bool {
	if len(argv) == 0 || strings.Contains(argv[0], "/") {
		return false
	}
	for _, a := range argv {
		if a == Unknown {
			return false
		}
	}
	args := argv[1:]
	for r := range rowsOf(argv[0], args) {
		return r.ReadOnly != nil && r.ReadOnly(args)
	}
	return otherReadOnly(argv)
}

// Rules returns the table, in order. Callers must not modify it.
func Rules() []Rule { return table() }

// table is the registry (rules).
func table() []Rule { return rules[:] }

// rowsOf yields, in order, the table rows of prog whose subcommands args
// name (after prog's global options); none, without building the table,
// when no row names prog.
func rowsOf(prog string, args []string) iter.Seq[*Rule] {
	return func(yield func(*Rule) bool) {
		rows := rowsFor(prog)
		if len(rows) == 0 {
			return
		}
		operands := skipGlobals(prog, args)
		for _, i := range rows {
			r := &table()[i]
			if r.Sub != nil && !hasSub(operands, r.Sub) {
				continue
			}
			if !yield(r) {
				return
			}
		}
	}
}

// rowsFor are the table rows of prog, in order; none when no row names
// prog (tablePrograms). A scan of the static table: cheaper than building
// an index in a process that classifies a few commands.
func rowsFor(prog string) []int {
	if _, ok := slices.BinarySearch(tablePrograms[:], prog); !ok {
		return nil
	}
	var out []int
	for i := range rules {
		if rules[i].Program == prog {
			out = append(out, i)
		}
	}
	return out
}

// binDirs are the directories whose programs are the ones the table names
// when spelled by absolute path (`/usr/bin/git status`).
var binDirs = []string{"/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin", "/usr/sbin", "/sbin"}

// localBinDirs are project-relative launch paths the table knows.
var localBinDirs = []string{"node_modules/.bin", "./node_modules/.bin", "vendor/bin", "./vendor/bin"}

// localWrappers are build wrappers a project ships at its root.
var localWrappers = sync.OnceValue(func() map[string]string {
	return map[string]string{"./mvnw": "mvnw", "./gradlew": "gradlew", "mvnw": "mvnw", "gradlew": "gradlew"}
})

// ProgramName returns the program a word names: the word itself, or its
// base name when it is a path into a known bin directory. ok is false for
// any other path.
func ProgramName(word string) (string, bool) {
	if w, ok := localWrappers()[word]; ok {
		return w, true
	}
	if !strings.Contains(word, "/") {
		return word, word != ""
	}
	dir, base := path.Split(word)
	dir = strings.TrimSuffix(dir, "/")
	for _, d := range binDirs {
		if dir == d {
			return base, base != ""
		}
	}
	for _, d := range localBinDirs {
		if dir == d {
			return base, base != ""
		}
	}
	return "", false
}

// Classify finds the rule for a command given as argv (argv[0] is the
// program as typed). Words unknown before run time must be passed as
// Unknown.
func Classify(argv []string) (Match, bool) {
	return classify(argv, 0, 0)
}

func classify(argv []string, at, depth int) (Match, bool) {
	if at >= len(argv) || depth > 3 {
		return Match{}, false
	}
	prog, ok := ProgramName(argv[at])
	if !ok {
		// a path gotk does not know (./deploy.sh): only a user filter
		// can name it
		if r, ok := userRule(argv[at], argv[at:]); ok {
			return Match{Rule: r, Tool: at}, true
		}
		return Match{}, false
	}
	// A launcher runs another tool: classify that tool first, so
	// `npx tsc` is tsc and `python -m pytest` is pytest.
	if next, ok := launch(prog, argv[at+1:]); ok {
		if m, ok := classify(argv, at+1+next, depth+1); ok {
			return m, true
		}
	}
	// The user's own filters come before the table (project > global >
	// built-in), except where the table refuses the form (user.go).
	if r, ok := userRule(prog, argv[at:]); ok {
		return Match{Rule: r, Tool: at}, true
	}
	args := argv[at+1:]
	for r := range rowsOf(prog, args) {
		if r.Accept == nil || r.Accept(args) {
			return Match{Rule: r, Tool: at}, true
		}
	}
	return Match{}, false
}

// hasSub reports whether operands start with one of subs (each may hold
// several space-separated words).
func hasSub(operands []string, subs []string) bool {
	for _, s := range subs {
		words := strings.Fields(s)
		if len(words) > len(operands) {
			continue
		}
		ok := true
		for i, w := range words {
			if operands[i] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// launch recognises launchers and returns how many argv words after the
// launcher's own name precede the launched tool.
func launch(prog string, args []string) (int, bool) {
	switch prog {
	case "npx", "bunx", "pnpx":
		i := 0
		for i < len(args) && strings.HasPrefix(args[i], "-") {
			switch args[i] {
			case "-p", "--package":
				i += 2
			case "--":
				return i + 1, i+1 < len(args)
			default:
				i++
			}
		}
		return i, i < len(args)
	case "pnpm", "yarn":
		if len(args) >= 2 && (args[0] == "exec" || args[0] == "dlx") {
			return 1, true
		}
		// `yarn tsc`, `pnpm eslint .`: a package's own bin, named directly
		// (only the JS tools: `yarn ls` is not ls)
		if len(args) >= 1 && jsTools()[args[0]] {
			return 0, true
		}
	case "npm":
		if len(args) >= 2 && (args[0] == "exec" || args[0] == "x") {
			if args[1] == "--" {
				return 2, len(args) > 2
			}
			return 1, true
		}
	case "bun":
		if len(args) >= 2 && args[0] == "x" {
			return 1, true
		}
	case "uv", "poetry", "pipenv":
		if len(args) >= 2 && args[0] == "run" && !strings.HasPrefix(args[1], "-") {
			return 1, true
		}
	case "bundle":
		if len(args) >= 2 && args[0] == "exec" && !strings.HasPrefix(args[1], "-") {
			return 1, true
		}
	case "python", "python3":
		if len(args) >= 2 && args[0] == "-m" {
			return 1, true
		}
	}
	return 0, false
}

// jsTools are the JavaScript tools yarn and pnpm run by bare name.
var jsTools = sync.OnceValue(func() map[string]bool {
	return set("tsc", "eslint", "jest", "vitest", "playwright", "prettier", "next", "biome", "oxlint", "nx", "turbo", "prisma", "markdownlint", "markdownlint-cli2", "pyright", "basedpyright")
})

// skipGlobals drops a program's global options (git -C dir, kubectl -n ns,
// cargo +nightly, …) so that the subcommand comes first. Unknown options
// stop the skipping: the subcommand then does not match, and nothing is
// rewritten.
func skipGlobals(prog string, args []string) []string {
	g, ok := globals()[prog]
	if !ok {
		return args
	}
	i := 0
	for i < len(args) {
		a := args[i]
		if g.plus && strings.HasPrefix(a, "+") {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		name := a
		if eq := strings.IndexByte(a, '='); eq > 0 {
			name = a[:eq]
			if g.valued[name] {
				i++
				continue
			}
		}
		switch {
		case g.valued[name] && name == a:
			i += 2
		case g.flags[name]:
			i++
		case g.joined != "" && strings.HasPrefix(a, g.joined):
			i++ // terraform -chdir=DIR
		default:
			return nil
		}
	}
	if i > len(args) {
		return nil
	}
	return args[i:]
}

type globalOpts struct {
	valued map[string]bool // options that take a value (`-C dir` or `-C=dir`)
	flags  map[string]bool
	plus   bool   // cargo +toolchain
	joined string // options that carry their value after '='
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var globals = sync.OnceValue(func() map[string]globalOpts {
	return map[string]globalOpts{
		"git": {
			valued: set("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"),
			flags: set("--no-pager", "-P", "--paginate", "-p", "--no-optional-locks", "--literal-pathspecs",
				"--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-replace-objects", "--bare"),
		},
		"cargo":     {valued: set("--color", "-Z", "--config", "-C"), flags: set("-q", "--quiet", "-v", "-vv", "--verbose", "--frozen", "--locked", "--offline"), plus: true},
		"go":        {valued: set("-C")},
		"docker":    {valued: set("--context", "-c", "-H", "--host", "--config", "-l", "--log-level"), flags: set("-D", "--debug", "--tls", "--tlsverify")},
		"kubectl":   {valued: set("-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--request-timeout", "--as")},
		"helm":      {valued: set("-n", "--namespace", "--kube-context", "--kubeconfig"), flags: set("--debug")},
		"npm":       {valued: set("--prefix", "-w", "--workspace"), flags: set("-s", "--silent", "-q", "--quiet", "--ws", "--workspaces")},
		"pnpm":      {valued: set("-C", "--dir", "--filter", "-F"), flags: set("-r", "--recursive", "-w", "--workspace-root", "-s", "--silent")},
		"yarn":      {valued: set("--cwd")},
		"bun":       {valued: set("--cwd")},
		"terraform": {joined: "-chdir="},
		"aws":       {valued: set("--profile", "--region", "--output", "--endpoint-url"), flags: set("--no-cli-pager", "--debug", "--no-paginate")},
		"dotnet":    {},
		"uv":        {valued: set("--directory", "--project"), flags: set("-q", "--quiet", "-v", "--verbose", "--offline", "--no-progress")},
	}
})
