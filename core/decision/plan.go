package decision

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/core/shell"
)

// plan is what Decide found out about one simple command.
type plan struct {
	text     string // the command as typed, words only, single-spaced
	peeled   shell.Peeled
	peeledOK bool
	argv     []string // values from the program word on (Unknown where not literal)
	match    registry.Match
	readOnly bool
	rewrite  bool
	offset   int    // where "gotk " goes
	window   string // the display window gotk fits its output to ("--tail 30"), if any
	reason   string // why not rewritten
	pipe     string // what its pipeline stage does, in plain words
}

// claudeWrappers are the wrappers Claude Code itself strips before matching
// a permission rule (its docs); an allow rule is tested against the command
// under these only (an assignment or `env` in front keeps it from
// matching).
var claudeWrappers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"timeout": true, "time": true, "nice": true, "nohup": true, "stdbuf": true, "command": true, "builtin": true, "noglob": true}
})

// readOnlyWrappers are the wrappers behind which Claude Code still treats a
// command as read-only (measured in Claude Code 2.1.328: `timeout 5 ls` and
// `command ls` run; `time ls`, `nice ls`, `nohup ls` ask).
var readOnlyWrappers = sync.OnceValue(func() map[string]bool { return map[string]bool{"timeout": true, "command": true} })

func (e *Engine) plan(s *shell.Script, i int, req Request) plan {
	c := &s.Commands[i]
	p := plan{text: joinRaw(c.Words)}
	if c.Kind != shell.Simple {
		p.reason = "a " + c.Kind.String() + " runs no program"
		return p
	}
	p.peeled, p.peeledOK = c.Peel(e.prefixes)
	if !p.peeledOK {
		p.reason = "cannot see through the wrapper"
		return p
	}
	w := c.Words[p.peeled.Prog:]
	p.argv = make([]string, len(w))
	for k, x := range w {
		if x.Literal {
			p.argv[k] = x.Value
		} else {
			p.argv[k] = registry.Unknown
		}
	}
	if m, ok := registry.Classify(p.argv); ok {
		p.match = m
	}
	p.readOnly = registry.IsReadOnly(p.argv)
	switch {
	case c.Opaque:
		p.reason = "inside a substitution or a piped compound command"
	case p.peeled.Disabled:
		p.reason = "GOTK_DISABLED is set for this command"
	case !w[0].Literal:
		p.reason = "the program is not a literal word"
	case w[0].Value == "gotk" || w[0].Value == "rtk" || strings.HasSuffix(w[0].Value, "/gotk"):
		p.reason = "already gotk"
	case e.excluded(c, p):
		p.reason = "excluded by exclude_commands"
	case p.match.Rule == nil:
		p.reason = "no rule for this command"
	default:
		why, window := pipeRefusal(s, c, p.match)
		if why == "" && len(s.Unsafe) == 0 {
			// (a redirect into a file makes the whole line unsafe: said so)
			why = streamRefusal(c)
		}
		if why != "" {
			p.reason = why
			break
		}
		p.rewrite, p.window = true, window
		p.offset = w[0].Start
	}
	p.pipe = pipeNote(s, i, p)
	return p
}

func (e *Engine) excluded(c *shell.Command, p plan) bool {
	w := c.Words[p.peeled.Prog:]
	typed := joinRaw(w)
	values := strings.Join(p.argv, " ")
	forms := []string{typed, values}
	if name, ok := registry.ProgramName(p.argv[0]); ok && name != p.argv[0] {
		forms = append(forms, name+strings.TrimPrefix(values, p.argv[0]))
	}
	if p.match.Tool > 0 {
		forms = append(forms, strings.Join(p.argv[p.match.Tool:], " "))
	}
	return e.exclude.Match(forms...) != ""
}

// pipeRefusal applies the pipeline rule, and returns why a command may not
// be rewritten where it stands (""), and the display window gotk must fit
// its output to.
//
// The rule: gotk reshapes output, so a command whose output another program
// reads is rewritten only when that program merely shows lines of it.
//   - `a |& b` is `a 2>&1 | b`: stderr joins the stream, as gotk's own
//     does (gotk reads at run time whether both streams are one);
//   - the first stage (the producer) is rewritten when its output can be
//     fitted to a window (window.go) and every later stage only shows
//     lines: `head`/`tail` counting lines of standard input (at most one
//     of them: the window gotk is told), `cat` with no operand, `less`,
//     `more`;
//   - the last stage is rewritten when its rule allows it (grep, rg) and it
//     reads no pattern file;
//   - middle stages never are, and a stage that counts, sorts or selects
//     lines (wc, sort, uniq, awk, xargs, grep in the middle…) keeps every
//     earlier stage as written.
func pipeRefusal(s *shell.Script, c *shell.Command, m registry.Match) (why, window string) {
	if c.PipeLen <= 1 {
		return "", ""
	}
	switch c.PipeIndex {
	case c.PipeLen - 1:
		if m.Rule.Pipe != registry.PipeFinal {
			return "its output is not the end of the pipeline's story (only grep and rg are rewritten as the last stage)", ""
		}
		if registry.HasFlag(argsOf(c, m), "-f", "--file") {
			return "reads patterns from a file", ""
		}
		return "", ""
	case 0:
		return producerWindow(s, c, m)
	}
	return "middle stages of a pipeline are never rewritten", ""
}

// streamRefusal: why the redirects of c make gotk's output mean another
// thing ("" when they do not). gotk reshapes what a program writes, and
// may carry what it wrote on one stream on the other (go test's build
// errors come back in its JSON on stdout): it keeps the line's meaning
// only where the two streams are not told apart by where they lead —
// output and errors where they would go with no redirect, or together
// (2>&1, &>/dev/null), or errors discarded (2>/dev/null: gotk may show
// more of a failure, never less). Output discarded while errors are kept
// (`>/dev/null`, `2>&1 >/dev/null | tail`), the streams swapped, or sent
// to a descriptor the line opened: the line stays as written. A stage
// that feeds a pipe must write its output into it (gotk fits its output
// to the window there).
func streamRefusal(c *shell.Command) string {
	out, errs := c.Out, c.Err
	own := shell.SinkStdout
	if c.PipeIndex < c.PipeLen-1 {
		own = shell.SinkPipe
	}
	switch {
	case shell.Discarded(out) && shell.Discarded(errs):
		return ""
	case shell.Discarded(out):
		return "its output is discarded and its errors are not: gotk's form may carry errors on its output"
	case out == own && (errs == out || errs == shell.SinkStderr || shell.Discarded(errs)):
		return ""
	case own == shell.SinkStdout && out == errs:
		return ""
	}
	return fmt.Sprintf("its output goes to %s and its errors to %s: gotk does not reproduce that split", sinkName(out), sinkName(errs))
}

// sinkName says where a stream leads, in words.
func sinkName(s string) string {
	switch s {
	case shell.SinkStdout:
		return "standard output"
	case shell.SinkStderr:
		return "standard error"
	case shell.SinkPipe:
		return "the pipe"
	case shell.SinkNull:
		return "/dev/null"
	case shell.SinkClosed:
		return "a closed descriptor"
	}
	return "a descriptor gotk does not follow"
}

func argsOf(c *shell.Command, m registry.Match) []string {
	var out []string
	for _, w := range c.Words {
		if w.Literal {
			out = append(out, w.Value)
		} else {
			out = append(out, registry.Unknown)
		}
	}
	if len(out) > 0 {
		return out[1:]
	}
	return out
}

func joinRaw(w []shell.Word) string {
	return joinEach(w, func(x shell.Word) string { return x.Raw })
}

// joinEach joins one spelling per word with single spaces.
func joinEach(w []shell.Word, spell func(shell.Word) string) string {
	parts := make([]string, len(w))
	for i, x := range w {
		parts[i] = spell(x)
	}
	return strings.Join(parts, " ")
}

// permit computes the host's verdict on the ORIGINAL command, and why gotk
// cannot be sure of it ("" when it can).
//
// Each simple command is matched twice: on its words as typed, and on its
// words as the shell will pass them (quotes and escapes removed), because
// hosts differ in which they match and a rule must not be dodged by
// quoting (`git "diff"`). A deny rule matching either reading denies. Every
// other verdict must be the same under both readings, else gotk is unsure.
// An allow — by a rule, by the session's mode or as the host's own
// read-only command — also needs every word known (no expansion), the
// host's flags read, and for read-only commands every file inside the
// host's working directories. Unsure anywhere makes the whole line
// unsure: gotk then answers nothing, and the host decides alone.
//
// The line's verdict: Deny if any simple command (substitutions included)
// is denied, Ask if any asks, Allow if every one is allowed, else Default.
func (e *Engine) permit(rules *permission.Rules, s *shell.Script, plans []plan, req Request, cwd string, d *Decision) (permission.Verdict, string) {
	d.Segments = make([]Segment, len(s.Commands))
	worst := permission.Allow
	anyAsk, anyDeny := false, false
	var modeMay []string // commands only the permission mode may run unasked
	why := ""
	unsureBecause := func(reason string) {
		if why == "" {
			why = reason
		}
	}
	dirs := workDirs(rules.Dirs)
	cwds := []string{cwd} // where the line may be when each command runs
	denyOrAsk := len(rules.Deny)+len(rules.Ask) > 0
	for i := range s.Commands {
		c := &s.Commands[i]
		p := plans[i]
		typedSeg, runSeg := segmentFor(c, p, false), segmentFor(c, p, true)
		typedSeg.Source, runSeg.Source = s.Src[c.Start:c.End], s.Src[c.Start:c.End]
		typedSeg.Line, runSeg.Line = s.Src, s.Src
		typed, run := rules.Check(typedSeg), rules.Check(runSeg)
		res := typed
		if run.Verdict == permission.Deny {
			res = run
		}
		t := Segment{Text: p.text, Rule: ruleID(p), Reason: p.reason, Pipe: p.pipe, Permission: res.Verdict.String()}
		if res.Rule != nil {
			t.PermissionRule = res.Rule.Raw + " (" + res.Rule.Source + ")"
		}
		expanded := hasExpansion(c)
		switch {
		case res.Verdict == permission.Deny:
			anyDeny = true
		case typed.Verdict != run.Verdict:
			unsureBecause("quoting changes which rule matches `" + p.text + "`")
		case res.Verdict == permission.Ask:
			anyAsk = true
		case res.Verdict == permission.Allow:
			t.byRule = res.Rule != nil
			if expanded {
				unsureBecause("`" + p.text + "` has an expansion the allow rule cannot see through")
			}
		case req.AutoAllow:
			t.Permission, t.PermissionRule = "allow", "the session's permission mode runs every command"
			if expanded && denyOrAsk {
				unsureBecause("`" + p.text + "` has an expansion a deny or ask rule may match")
			}
		case req.ReadOnlyAutoAllow && c.Kind != shell.Simple:
			// No rule matches: whether the host counts an assignment, a
			// declaration or an arithmetic or test clause among the
			// commands it runs without asking is not something gotk has
			// measured.
			unsureBecause("gotk cannot tell whether the host runs the " + c.Kind.String() + " `" + p.text + "` without asking")
		case req.ReadOnlyAutoAllow && p.readOnly && readOnlyForm(c, p):
			switch w := locateAll(p.argv, cwds, dirs); {
			case w == inside:
				t.ReadOnly = true
				t.Permission, t.PermissionRule = "allow", "the host's own read-only command set, inside its working directories"
			case w == outside:
				worst = permission.Default
				t.PermissionRule = "reads outside the host's working directories"
			default:
				unsureBecause("gotk cannot tell where `" + p.text + "` reads")
			}
		case modeMayRun(req, c, p):
			modeMay = append(modeMay, p.text)
			t.PermissionRule = "the session's permission mode may run it without asking"
		default:
			worst = permission.Default
		}
		if (res.Verdict == permission.Default || res.Verdict == permission.Ask) && allowedAsWritten(rules, s, c, p) {
			// Claude strips the assignments it deems safe (NODE_ENV=x)
			// before its allow rules, and Claude and Gemini match them on
			// the text (FOO=1 git *): gotk, not modelling which, steps
			// aside rather than ask where the host would run it.
			unsureBecause("an allow rule matches `" + p.text + "` with or without what is in front of it")
		}
		cwds = afterCd(cwds, p, e.Env.Getenv("CDPATH") != "")
		if t.Permission == "allow" && e.Session.Unreadable {
			unsureBecause("the agent's flags cannot all be read (its process not found above gotk, or rules passed where gotk cannot see them)")
		}
		d.Segments[i] = t
	}
	if rules.LineForms != nil && len(s.Commands) > 0 {
		// the host's own split of the line may join what bash runs apart
		switch rules.Check(permission.Segment{Forms: rules.LineForms(req.Command), AllowForm: req.Command}).Verdict {
		case permission.Deny:
			anyDeny = true
		case permission.Ask:
			anyAsk = true
		}
	}
	switch {
	case anyDeny:
		return permission.Deny, ""
	case why != "":
		return permission.Default, why
	case anyAsk:
		return permission.Ask, ""
	case len(s.Commands) == 0:
		return permission.Default, ""
	case worst == permission.Allow && len(modeMay) > 0:
		// every other command runs unasked, and the mode may run these too
		return permission.Default, "the session's permission mode may run `" + strings.Join(modeMay, "`, `") + "` without asking, by limits gotk does not model"
	case worst == permission.Default && e.Session.Unreadable:
		// The host would ask, by the rules gotk reads; but flags it cannot
		// read may allow the line (--allowedTools, settings handed over
		// stdin), and the host would match them on the original, not on
		// gotk's rewrite: gotk's "ask" could prompt where the host runs it.
		// Only an ask rule gotk reads makes the host ask whatever they say.
		return permission.Default, "the agent's flags cannot all be read (its process not found above gotk, or rules passed where gotk cannot see them), and an allow among them would let the host run it without asking"
	}
	return worst, ""
}

// modeMayRun: the session's permission mode may run c without asking —
// its program, or its first word as the host reads it (`/bin/rm`,
// `timeout 5 rm`), is one the mode runs.
func modeMayRun(req Request, c *shell.Command, p plan) bool {
	if len(req.ModeMayRun) == 0 {
		return false
	}
	if len(p.argv) > 0 && slices.Contains(req.ModeMayRun, filepath.Base(p.argv[0])) {
		return true
	}
	return len(c.Words) > 0 && slices.Contains(req.ModeMayRun, filepath.Base(c.Words[0].Value))
}

// allowedAsWritten: c, which gotk's allow form leaves out (an assignment
// in front), matches an allow rule as written with its assignments, or
// without them where the host may strip them all.
func allowedAsWritten(rules *permission.Rules, s *shell.Script, c *shell.Command, p plan) bool {
	under := segmentFor(c, p, false)
	if !p.peeledOK || len(c.Words) == 0 {
		return false
	}
	var forms []string
	if len(c.Assigns) == 0 {
		return false
	}
	strip := len(p.peeled.Layers) == 0
	for _, a := range c.Assigns {
		strip = strip && rules.MayStripAssign(a.Name)
	}
	if strip {
		forms = append(forms, under.Forms[len(under.Forms)-1])
	}
	forms = append(forms, s.Src[c.Assigns[0].Start:c.Words[len(c.Words)-1].End])
	for _, f := range forms {
		if rules.Check(permission.Segment{AllowForm: f}).Verdict == permission.Allow {
			return true
		}
	}
	return false
}

// hasExpansion: a word of c is not a literal (a variable, a glob, a
// substitution): the words the shell will run are unknown.
func hasExpansion(c *shell.Command) bool {
	for _, w := range c.Words {
		if !w.Literal {
			return true
		}
	}
	return false
}

// afterCd adds where a cd, pushd or popd may have moved the line: the
// operand's directory, or "" (unknown) for anything else. The old
// directories stay: the cd may fail, or run in a subshell. With CDPATH
// set in the environment, a relative operand not starting with . or ..
// may lead anywhere on it.
func afterCd(cwds []string, p plan, cdpath bool) []string {
	if !p.peeledOK || len(p.argv) == 0 {
		return cwds
	}
	switch p.argv[0] {
	case "cd":
		d := p.argv[1%len(p.argv)]
		viaCDPATH := cdpath && !filepath.IsAbs(d) && d != "." && d != ".." && !strings.HasPrefix(d, "./") && !strings.HasPrefix(d, "../")
		if len(p.argv) == 2 && !viaCDPATH && d != registry.Unknown && d != "-" && !strings.HasPrefix(d, "-") && !strings.HasPrefix(d, "~") {
			next := make([]string, 0, 2*len(cwds))
			next = append(next, cwds...)
			for _, c := range cwds {
				if c == "" {
					continue
				}
				to := d
				if !filepath.IsAbs(to) {
					to = c + string(filepath.Separator) + to
				}
				next = append(next, resolve(to))
			}
			if len(next) > 8 {
				return []string{""} // too many ways to be somewhere: unknown
			}
			return next
		}
		return append(cwds, "")
	case "pushd", "popd":
		return append(cwds, "")
	}
	return cwds
}

func ruleID(p plan) string {
	if p.match.Rule == nil {
		return ""
	}
	return p.match.Rule.ID
}

// segmentFor builds the spellings the host's rules are matched against,
// for one reading: as typed, or (run) as the shell will pass the words —
// each value quoted only where a shell would need it, so `git "diff"`,
// `git di""ff` and `git d\iff` all read `git diff`, while `git "a b"` keeps
// its one word. Deny and ask rules see the whole command and the command
// under its wrappers (the run reading also with values joined unquoted);
// allow rules see only a plain command (wrappers the host strips itself
// removed), never one behind an assignment, env or a user prefix.
func segmentFor(c *shell.Command, p plan, run bool) permission.Segment {
	join := joinRaw
	if run {
		join = joinRun
	}
	whole := join(c.Words)
	seg := permission.Segment{Forms: []string{whole}, AllowForm: whole}
	under := c.Words
	if p.peeledOK && p.peeled.Prog > 0 {
		under = c.Words[p.peeled.Prog:]
		seg.AllowForm = join(under)
		seg.Forms = append(seg.Forms, seg.AllowForm)
	}
	if run {
		seg.Forms = append(seg.Forms, joinValues(under))
	}
	if c.Kind == shell.Simple && !plain(c, p) {
		seg.AllowForm = ""
	}
	return seg
}

// unknownWord stands for a word whose value is not known before it runs;
// the parser refuses control characters, so no real word holds it.
const unknownWord = "\x00"

func joinRun(w []shell.Word) string {
	return joinEach(w, func(x shell.Word) string {
		if x.Literal {
			return shell.Quote(x.Value)
		}
		return unknownWord
	})
}

func joinValues(w []shell.Word) string {
	return joinEach(w, func(x shell.Word) string {
		if x.Literal {
			return x.Value
		}
		return unknownWord
	})
}

// plain: no assignment in front, and only wrappers the host itself strips.
func plain(c *shell.Command, p plan) bool {
	return onlyLayers(c, p, claudeWrappers())
}

// readOnlyForm: the form in which Claude Code still recognises a read-only
// command — no assignment, no subshell, no `time`, only timeout/command.
func readOnlyForm(c *shell.Command, p plan) bool {
	return !c.InSubshell && !c.Timed && onlyLayers(c, p, readOnlyWrappers())
}

func onlyLayers(c *shell.Command, p plan, allowed map[string]bool) bool {
	if len(c.Assigns) > 0 || !p.peeledOK {
		return false
	}
	for _, l := range p.peeled.Layers {
		if !allowed[l] {
			return false
		}
	}
	return true
}
