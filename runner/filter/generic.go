package filter

import (
	"fmt"
	"strings"
)

// lineFilter is the generic filter for tools whose output is free text
// (make, dotnet, next, git push/pull, mypy, prettier): drop known noise,
// collapse blank runs, fold repeated lines, and cap long output while
// keeping every line that reports a problem.
type lineFilter struct {
	same
	noise []*lazyRegexp // lines dropped from both streams
	max   int           // stdout lines kept before capping (0: no cap)
	// diagnostics: compiler-style "file:line:col: message" lines keep
	// their locators whole; what they repeat goes (tidyDiagnostics).
	diagnostics bool
	// summaryRepeats marks the closing summary of tools that list every
	// diagnostic a second time there (MSBuild's "Build FAILED."): after
	// it, a line printed verbatim above is not printed again.
	summaryRepeats *lazyRegexp
	// codeFrames: Babel-style code frames ("> 42 |   src", its neighbours
	// and caret) are cut to the line they point at, as for the JS test
	// runners (trimFrames).
	codeFrames bool
}

// dropSummaryRepeats drops, after the first line summary matches, the
// lines already printed verbatim above it, and says how many went.
func dropSummaryRepeats(ls []string, summary *lazyRegexp) []string {
	seen := map[string]bool{}
	var out []string
	after, dropped, at := false, 0, 0
	for _, l := range ls {
		if !after && summary.MatchString(l) {
			after, at = true, len(out)+1
		}
		if after && seen[l] && strings.TrimSpace(l) != "" {
			dropped++
			continue
		}
		seen[l] = true
		out = append(out, l)
	}
	if dropped == 0 {
		return ls
	}
	note := fmt.Sprintf("(%s repeated from above not shown again)", plural(dropped, "line", "lines"))
	return append(out[:at:at], append([]string{note}, out[at:]...)...)
}

// Render applies the noise list, folding and the cap to stdout, and the
// noise list alone to stderr.
func (f lineFilter) Render(in Input) (Output, error) {
	out := dedupe(dropBlankRuns(dropMatching(f.paths(lines(in.Stdout), in), f.noise...)))
	if f.summaryRepeats != nil {
		out = dropSummaryRepeats(out, f.summaryRepeats)
	}
	if f.codeFrames {
		out = dropBlankRuns(trimFrames(out))
	}
	if f.max > 0 {
		out = capKeeping(out, f.max, problem, in)
	}
	if !f.diagnostics {
		return Output{Stdout: join(out), Stderr: keepStderr(in, f.noise...)}, nil
	}
	errs := dropBlankRuns(dropMatching(f.paths(lines(in.Stderr), in), f.noise...))
	return Output{Stdout: join(out), Stderr: join(errs)}, nil
}

// paths applies the diagnostics forms: paths under the working directory
// relative, then the diagnostics tidied (tidyDiagnostics).
func (f lineFilter) paths(ls []string, in Input) []string {
	if !f.diagnostics {
		return ls
	}
	if in.Dir != "" {
		for i, l := range ls {
			ls[i] = relPath(l, in.Dir)
		}
	}
	return tidyDiagnostics(ls)
}

// diagLine is a compiler's diagnostic: "file.go:12:3: msg" (go, gcc,
// clang, rustc's short form) or "file.ts(12,3): msg" (tsc).
var diagLine = lazy(`^([^\s:(][^:(]*?\.[A-Za-z0-9+]+)(?::(\d+(?::\d+)?):|(\(\d+,\d+\)):) ?(.*)$`)

// diagContext is gcc's "file.c: In function ‘f’:" line.
var diagContext = lazy(`^([^\s:][^:]*?\.[A-Za-z0-9+]+): ((?:In |At |In instantiation ).*:)$`)

// caretLine is a line of gcc/clang carets under the source snippet: the
// column it points at is already in the diagnostic's location. A line of
// bars alone only connects a label below it to the span above.
var caretLine = lazy(`^\s*\|[ \t]*[\^~][\^~ \t]*$|^\s*\|[\s|]*$`)

// snippetLine is a source line gcc and clang quote under a diagnostic:
// "   13 | int f(void) {".
var snippetLine = lazy(`^\s*\d+ \| `)

// tidyDiagnostics drops what a compiler's diagnostics repeat, and nothing
// else: every diagnostic line stays as the tool printed it, its
// "file:line:col" locator whole (what models, editors and people jump
// from). Lines that continue a diagnostic (notes, have/want, source
// snippets) stay under it; gcc's caret underlines go (the column is in the
// locator), and so does a quoted source line already quoted above when
// nothing hangs under it.
func tidyDiagnostics(ls []string) []string {
	var out []string
	quoted := map[string]bool{} // source lines gcc quoted above
	inDiag := false
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		if diagFile(l) != "" {
			inDiag = true
			out = append(out, l)
			continue
		}
		if !inDiag || l == "" || (l[0] != ' ' && l[0] != '\t') {
			inDiag = false
			out = append(out, l)
			continue
		}
		if caretLine.MatchString(l) {
			continue
		}
		if snippetLine.MatchString(l) {
			alone := i+1 >= len(ls) || !continues(ls[i+1])
			if quoted[l] && alone {
				continue
			}
			quoted[l] = true
		}
		out = append(out, l)
	}
	return out
}

// continues reports whether l hangs under the line before it (indented,
// not itself a caret line, which goes anyway).
func continues(l string) bool {
	return l != "" && (l[0] == ' ' || l[0] == '\t') && diagFile(l) == "" && !caretLine.MatchString(l)
}

// diagFile returns the file a diagnostic or context line names, or "".
func diagFile(l string) string {
	if m := diagLine.FindStringSubmatch(l); m != nil {
		return m[1]
	}
	if m := diagContext.FindStringSubmatch(l); m != nil {
		return m[1]
	}
	return ""
}

// problem matches lines that report an error, a failure or a location; the
// generic caps never drop them.
var problem = lazy(`(?i)\b(error|errors|fail|failed|failure|fatal|panic|exception|traceback|denied|not found|cannot|unable|undefined|warning)\b|^[\w./\-]+\.\w+:\d+(:\d+)?[: ]|^\s+\(?\d+[:,]\d+\)?(, \(?\d+[:,]\d+\)?)*: `)

// capKeeping caps ls at about max lines: the first 2/3 of max and the last
// 1/3 survive, and so does every line keep matches (with the line after
// it, which often carries the detail); each gap says what it left out.
func capKeeping(ls []string, max int, keep *lazyRegexp, in Input) []string {
	if len(ls) <= max+capSlack {
		return ls
	}
	head, tail := max*2/3, max/3
	kept := make([]bool, len(ls))
	for i := range ls {
		if i < head || i >= len(ls)-tail {
			kept[i] = true
		} else if keep != nil && keep.MatchString(ls[i]) {
			kept[i] = true
			if i+1 < len(ls) {
				kept[i+1] = true
			}
		}
	}
	var out []string
	gap := 0
	for i, l := range ls {
		if !kept[i] {
			gap++
			continue
		}
		if gap > 0 {
			out = append(out, moreLine(gap, "lines", in))
			gap = 0
		}
		out = append(out, l)
	}
	return out
}

// Noise lists. Each pattern names a kind of line that carries no meaning
// for the model: progress, download and compile chatter, banners.
var (
	makeNoise = []*lazyRegexp{
		lazy(`^make(\[\d+\])?: (Entering|Leaving) directory `),
		lazy(`^make(\[\d+\])?: Nothing to be done for `),
	}
	dotnetNoise = []*lazyRegexp{
		lazy(`^\s*Determining projects to restore`),
		lazy(`^\s*All projects are up-to-date for restore`),
		lazy(`^\s*Restored .* \(in [\d.]+ m?s\)\.?$`),
		lazy(`^MSBuild version `),
		lazy(`^Welcome to \.NET`),
		lazy(`^Time Elapsed \d+:\d+:\d+(\.\d+)?$`),
	}
	dotnetSummary = lazy(`^\s*Build (FAILED|succeeded)\.\s*$`)
	nextNoise     = []*lazyRegexp{
		lazy(`^\s*[▲⚠]?\s*Next\.js \d`),
		lazy(`^\s*- Environments?: `),
		lazy(`^\s*Creating an optimized production build`),
		lazy(`^\s*(✓ )?Collecting page data`),
		lazy(`^\s*(✓ )?Generating static pages \(\d+/\d+\)\s*$`),
		lazy(`^\s*(✓ )?Finalizing page optimization`),
		lazy(`^\s*(✓ )?Collecting build traces`),
		lazy(`^\s*(✓ )?Linting and checking validity of types`),
		lazy(`^\s*Attention: Next\.js now collects`),
		lazy(`^\s*This information is used to shape`),
		lazy(`^\s*You can learn more, including how to opt-out`),
		lazy(`^\s*https://nextjs\.org/telemetry`),
	}
	gitProgress = []*lazyRegexp{
		lazy(`^(remote: )?(Enumerating|Counting|Compressing|Writing|Receiving|Resolving|Unpacking|Finding sources|Checking connectivity|Updating files)( objects| deltas| sources| connectivity| files)?:`),
		lazy(`^(remote: )?Total \d+ \(delta \d+\)`),
		lazy(`^Delta compression using up to \d+ threads`),
		lazy(`^remote: *$`),
	}
	// gitHints are the "(use "git add <file>..." to …)" advice lines of
	// git's long formats.
	gitHints      = lazy(`^\s*\(use "git [^"]*"( or "git [^"]*")?( to [^)]*)?\)$`)
	prettierNoise = []*lazyRegexp{
		lazy(`^Checking formatting\.\.\.$`),
	}
)

// makeFilter is make's line filter; on a green run it also drops the
// recipe lines make echoes (compiler and archiver invocations): a build
// that succeeded needs only its warnings and messages. On red every line
// stays, since the failing command is part of the story.
type makeFilter struct{ lineFilter }

// recipeEcho matches a recipe line make echoed before running it.
var recipeEcho = lazy(`^\s*(\S*/)?(cc|gcc|g\+\+|c\+\+|clang|clang\+\+|ar|ranlib|ld|as|install|rustc|javac|go build|go install)(-[\w.]+)? `)

// Render drops echoed recipes from a green run, then applies lineFilter.
func (f makeFilter) Render(in Input) (Output, error) {
	if in.Exit != 0 {
		return f.lineFilter.Render(in)
	}
	var kept []string
	dropped := 0
	for _, l := range lines(in.Stdout) {
		if recipeEcho.MatchString(l) && !problem.MatchString(l) {
			dropped++
			continue
		}
		kept = append(kept, l)
	}
	if dropped == 0 {
		return f.lineFilter.Render(in)
	}
	in.Stdout = []byte(join(append(kept, fmt.Sprintf("(%s not shown: %s)", plural(dropped, "echoed recipe line", "echoed recipe lines"), in.Recall()))))
	return f.lineFilter.Render(in)
}
