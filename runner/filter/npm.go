package filter

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gotk-dev/gotk/core/registry"
)

// npmRun renders npm/pnpm/yarn/bun run, test, install, exec: the `> pkg@1.0
// script` banner and funding/notice chatter go; when the script runs a
// tool gotk knows (`> vitest run`, `> tsc -p .`), that tool's filter
// renders the rest.
type npmRun struct{ same }

var npmNoise = []*lazyRegexp{
	lazy(`^\d+ packages? (is|are) looking for funding$`),
	lazy("^\\s*run `npm fund` for details$"),
	lazy(`^npm notice`),
	lazy(`^npm (error|ERR!)\s*$`),
	lazy(`^npm (warn|WARN) install-scripts\s*$`),
	lazy(`^Packages are hard linked from the content-addressable store to the virtual store\.$`),
	lazy(`^\s+(Content-addressable store|Virtual store) is at: `),     // pnpm's store paths
	lazy(`^(Progress: resolved|Packages: \+|\++$|Done in [\d.]+m?s)`), // pnpm progress
	lazy(`^\[\d/\d\] (Resolving|Fetching|Linking|Building)`),          // yarn progress
	lazy(`^yarn (run|install|workspace) v\d`),
	lazy(`^info Visit https://yarnpkg\.com/en/docs/cli/\S+ for documentation about this command\.$`),
}

// yarnScript is the line yarn 1 prints before a script: `yarn run vX`,
// then `$ COMMAND`.
var (
	yarnRunLine = lazy(`^yarn run v\d`)
	yarnScript  = lazy(`^\$ \S`)
)

// npmBanner is the two-line header npm prints before a script.
var npmBanner = lazy(`^> \S+@\S+ \S+`)

// Render strips the banner and hands a known tool's output to its filter.
func (npmRun) Render(in Input) (Output, error) {
	if bunTest(in.Argv) {
		return jsTest{}.Render(in)
	}
	ls := lines(in.Stdout)
	var script string
	body := ls[:0:0]
	for i := 0; i < len(ls); i++ {
		if npmBanner.MatchString(ls[i]) && i+1 < len(ls) && strings.HasPrefix(ls[i+1], "> ") {
			script = strings.TrimPrefix(ls[i+1], "> ")
			// the blank lines npm sets around its banner go with it
			if n := len(body); n > 0 && strings.TrimSpace(body[n-1]) == "" {
				body = body[:n-1]
			}
			i++
			if i+1 < len(ls) && strings.TrimSpace(ls[i+1]) == "" {
				i++
			}
			continue
		}
		body = append(body, ls[i])
	}
	if script == "" && filepath.Base(in.Argv[0]) == "yarn" {
		for i := 1; i < len(body); i++ {
			if yarnScript.MatchString(body[i]) && yarnRunLine.MatchString(body[i-1]) {
				if m, ok := registry.Classify(strings.Fields(body[i][2:])); ok && m.Rule.Handler != "npm" {
					script = body[i][2:]
					body = append(body[:i:i], body[i+1:]...)
				}
				break
			}
		}
	}
	if script != "" {
		argv := strings.Fields(script)
		if m, ok := registry.Classify(argv); ok && m.Rule.Handler != "npm" {
			if f := For(m.Rule.Handler); f != nil {
				inner := in
				inner.Argv, inner.Tool, inner.RanArgv = argv, m.Tool, argv
				inner.Stdout = join(dropMatching(body, npmNoise...))
				if ls := lines(in.Stderr); len(dropYarnTrailer(ls)) < len(ls) {
					inner.Stderr = join(dropYarnTrailer(ls))
				}
				if out, err := f.Render(inner); err == nil {
					return out, nil
				}
			}
		}
	}
	out := dedupe(dropBlankRuns(dropMatching(body, npmNoise...)))
	out = capKeeping(out, 300, problem, in)
	return Output{Stdout: join(out), Stderr: join(dropBlankRuns(dropMatching(dropYarnTrailer(dropNpmUsage(lines(in.Stderr))), npmNoise...)))}, nil
}

// yarnTrailer is what yarn 1 prints under "error Command failed." when a
// workspace's script fails: the exit code, node's path, yarn's own argv,
// the workspace directory and an empty "Output:", all of which the line
// above it ("error Command failed with exit code N.") and the command as
// typed already say.
var yarnTrailer = []*lazyRegexp{
	lazy(`^Exit code: \d+$`), lazy(`^Command: \S+$`), lazy(`^Arguments: `), lazy(`^Directory: \S`), lazy(`^Output:$`),
}

// dropYarnTrailer drops yarnTrailer's lines where they follow
// "error Command failed." in that order, and nowhere else.
func dropYarnTrailer(ls []string) []string {
	for i, l := range ls {
		if l != "error Command failed." || i+len(yarnTrailer) >= len(ls) {
			continue
		}
		for k, re := range yarnTrailer {
			if !re.MatchString(ls[i+1+k]) {
				return ls
			}
		}
		return append(ls[:i+1:i+1], ls[i+1+len(yarnTrailer):]...)
	}
	return ls
}

// bunTest reports whether argv is `bun test …` (bun's own runner, whose
// output is a JS test runner's: passing lines, code frames, counts).
func bunTest(argv []string) bool {
	if len(argv) < 2 || filepath.Base(argv[0]) != "bun" {
		return false
	}
	for i := 1; i < len(argv); i++ {
		switch a := argv[i]; {
		case a == "--cwd":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a == "test"
		}
	}
	return false
}

var (
	npmUsage    = lazy(`^npm (error|ERR!) Usage:$`)
	npmBlank    = lazy(`^npm (error|ERR!)\s*$`)
	npmHelpLine = lazy(`^npm (error|ERR!) Run "npm help \S+" for more info$`)
)

// dropNpmUsage drops the usage text npm prints after a usage error (EUSAGE:
// the command's one-line description, "Usage:", every option with its
// help; ~90 lines for npm ci). npm's own next line says how to read it
// ("Run "npm help ci" for more info"), so it stays; without that line
// nothing is dropped. It reads stderr as npm wrote it: the description is
// the paragraph of one line just above "Usage:" (blank "npm error" lines
// around it); without that shape only "Usage:" onwards goes.
func dropNpmUsage(ls []string) []string {
	blank := func(i int) bool { return i >= 0 && npmBlank.MatchString(ls[i]) }
	for u, l := range ls {
		if !npmUsage.MatchString(l) {
			continue
		}
		for end := u + 1; end < len(ls); end++ {
			if npmHelpLine.MatchString(ls[end]) {
				start := u
				if blank(u-1) && u >= 3 && !blank(u-2) && blank(u-3) {
					start = u - 2 // the description, its own paragraph
				}
				return append(ls[:start:start], ls[end:]...)
			}
		}
		break
	}
	return ls
}

// treeList renders box-drawn trees (tree, npm ls, pnpm ls) with plain
// two-space indentation, sibling leaves sharing a line: the same entries
// at the same depths, in fewer tokens.
type treeList struct{ same }

// boxPrefix matches the drawing before an entry: the indent units of
// tree ("│   ", 4 wide) or npm ("│ ", 2 wide), then the connector.
var boxPrefix = lazy(`^([│|\x{a0}  ` + "`" + `]*)(├── |└── |├─┬ |└─┬ |\+-- |` + "`" + `-- )`)

// treeNames is how many sibling names one line of the tree shows; the
// rest of them are counted with their raw line range.
const treeNames = 60

// Render re-indents the tree and caps very long ones. A tree (not npm ls,
// whose depth the user bounds) is a listing without a bound: past the
// first page it prints how many entries are left and their raw lines.
func (treeList) Render(in Input) (Output, error) {
	ls := lines(in.Stdout)
	unit := 4
	if strings.Contains(string(in.Stdout), "─┬ ") || (len(in.Argv) > in.Tool && in.Argv[in.Tool] != "tree") {
		unit = 2
	}
	type entry struct {
		depth int // -1: not a tree entry (the root, tree's totals line)
		text  string
		raw   int // raw line number (1-based)
	}
	es := make([]entry, 0, len(ls))
	deduped := 0
	for i, l := range ls {
		if unit == 2 && strings.HasSuffix(l, " deduped") && boxPrefix.MatchString(l) {
			deduped++ // npm ls --all: a package already listed above
			continue
		}
		e := entry{depth: -1, text: l, raw: i + 1}
		if m := boxPrefix.FindStringSubmatchIndex(l); m != nil {
			e = entry{depth: utf8.RuneCountInString(l[:m[3]]) / unit, text: l[m[1]:], raw: i + 1}
		}
		es = append(es, e)
	}
	// Siblings that have no children of their own share one line, as
	// find's names share their directory's: "a@1.0.0, b@2.1.0".
	leaf := func(i int) bool {
		return es[i].depth >= 0 && (i+1 == len(es) || es[i+1].depth <= es[i].depth)
	}
	out := make([]string, 0, len(es))
	at := make([]int, 0, len(es)) // index in es of each output line's first entry
	for i := 0; i < len(es); {
		if es[i].depth < 0 {
			out = append(out, es[i].text)
			at = append(at, i)
			i++
			continue
		}
		names := []string{es[i].text}
		j := i + 1
		for leaf(i) && j < len(es) && es[j].depth == es[i].depth && leaf(j) {
			names = append(names, es[j].text)
			j++
		}
		if len(names) > 1 {
			for k, n := range names {
				if strings.Contains(n, ", ") {
					names[k] = strconv.Quote(n) // a file name with the separator in it
				}
			}
		}
		if len(names) > treeNames+capSlack {
			rest := fmt.Sprintf("… %d more names (%s)", len(names)-treeNames, treeRange(in, es[i+treeNames].raw, es[j-1].raw, deduped))
			names = append(names[:treeNames:treeNames], rest)
		}
		out = append(out, strings.Repeat("  ", es[i].depth+1)+strings.Join(names, ", "))
		at = append(at, i)
		i = j
	}
	if unit == 4 {
		// the totals line and what follows it stay after the page
		end := len(out)
		for end > 0 && es[at[end-1]].depth < 0 && at[end-1] > 0 {
			end--
		}
		if n := pageCut(out[:end], pageBudget); n < end {
			first, last := at[n], at[end-1]
			for k := at[end-1]; k < len(es) && es[k].depth >= 0; k++ {
				last = k
			}
			entries, dirs := 0, 0
			for k := first; k <= last; k++ {
				if es[k].depth >= 0 {
					entries++
					if !leaf(k) {
						dirs++
					}
				}
			}
			note := fmt.Sprintf("… %d more entries, %d of them non-empty directories (%s)", entries, dirs, treeRange(in, es[first].raw, es[last].raw, deduped))
			out = append(append(out[:n:n], note), out[end:]...)
		}
	} else {
		out = capKeeping(out, 500, nil, in)
	}
	if deduped > 0 {
		out = append(out, fmt.Sprintf("(%d \"deduped\" entries not repeated: %s)", deduped, in.Recall()))
	}
	return Output{Stdout: join(out), Stderr: in.Stderr}, nil
}

// treeRange is recallRange for raw lines of a tree; once npm's deduped
// lines were dropped the numbers still are the raw ones.
func treeRange(in Input, from, to, _ int) string { return recallRange(in, from, to) }
