package cursor

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/shell"
)

// Dir is ~/.cursor.
func Dir(env permission.Env) string { return filepath.Join(env.Home, ".cursor") }

// Load reads Cursor CLI's cli-config.json permissions and a project's
// .cursor/cli.json.
//
// What Cursor does with a preToolUse answer is documented only in part
// (cursor.com/docs/hooks: `updated_input` is the "modified tool input to
// use instead"; `allow` proceeds; `ask` is not enforced), and how it
// splits a line before its `Shell(…)` rules is not documented at all
// (cursor.com/docs/cli/reference/permissions: the command base is "the
// first token in the command line"). gotk therefore holds to every
// reading at once: it allows only a line Cursor's rules allow however the
// line is read (Rules.PlainLine), and rewrites only where Cursor's rules
// judge the rewritten line as they judge the original under each reading
// (Rules.Same) — so neither a hook's allow that Cursor ignores nor an
// `ask` it does not enforce changes what runs. A command an allow rule
// covers is not rewritten unless a rule allows its rewrite too
// (`Shell(gotk)`).
func Load(r *permission.Rules, env permission.Env) {
	r.Match = match
	var f string
	switch {
	case env.Getenv("CURSOR_CONFIG_DIR") != "":
		f = filepath.Join(env.Getenv("CURSOR_CONFIG_DIR"), "cli-config.json")
	default:
		f = filepath.Join(Dir(env), "cli-config.json")
		if x := env.Getenv("XDG_CONFIG_HOME"); x != "" {
			if _, err := os.Stat(f); err != nil {
				f = filepath.Join(x, "cursor", "cli-config.json")
			}
		}
	}
	var doc struct {
		Permissions struct{ Allow, Deny []any } `json:"permissions"`
	}
	if r.ReadJSON(env, f, &doc) {
		r.Add(&r.Deny, doc.Permissions.Deny, f, "Shell")
		r.Add(&r.Allow, doc.Permissions.Allow, f, "Shell")
	}
	// A project's allow rules never make gotk allow (gotk does not trust
	// a checked-out file to widen), but Cursor applies them to the
	// rewritten line as to the original: Same weighs them.
	var projAllow []permission.Rule
	if env.Cwd != "" {
		pf := filepath.Join(env.Cwd, ".cursor", "cli.json")
		var pdoc struct {
			Permissions struct{ Allow, Deny []any } `json:"permissions"`
		}
		if r.ReadJSON(env, pf, &pdoc) {
			r.Add(&r.Deny, pdoc.Permissions.Deny, pf, "Shell")
			r.Add(&projAllow, pdoc.Permissions.Allow, pf, "Shell")
		}
	}
	j := judge{deny: r.Deny, allow: append(append([]permission.Rule(nil), r.Allow...), projAllow...)}
	gotkAllow := judge{deny: r.Deny, allow: r.Allow}
	r.PlainLine = func(line string) bool { return gotkAllow.same(line, "", allowed) }
	r.Same = func(orig, rewritten string) bool { return j.same(orig, rewritten, "") }
}

// match implements Cursor CLI's Shell(…) rules: `Shell(git)` names the
// command base (the first word) and may be a glob; `Shell(curl:*)` names
// the base and a glob over the rest of the words. In both globs `*` and
// `**` are any run of characters, `?` any one character.
func match(pattern, cmd string) bool {
	p := permission.Normalize(pattern)
	if p == "" {
		return false
	}
	base, rest, _ := strings.Cut(permission.Normalize(cmd), " ")
	if pb, pargs, ok := strings.Cut(p, ":"); ok {
		return glob(pb, base) && glob(pargs, rest)
	}
	return glob(p, base)
}

var globCache sync.Map

// glob matches s against a Cursor glob: `*` (and `**`) any run of
// characters, `?` any one character, anything else itself.
func glob(p, s string) bool {
	re, ok := globCache.Load(p)
	if !ok {
		var b strings.Builder
		for _, c := range p {
			switch c {
			case '*':
				b.WriteString(".*")
			case '?':
				b.WriteString(".")
			default:
				b.WriteString(regexp.QuoteMeta(string(c)))
			}
		}
		re, _ = globCache.LoadOrStore(p, regexp.MustCompile(`(?s)^`+b.String()+`$`))
	}
	return re.(*regexp.Regexp).MatchString(s)
}

// Cursor's verdicts on a line under one reading.
const (
	unknown = "unknown"
	denied  = "deny"
	allowed = "allow"
	asks    = "ask"
)

// judge is Cursor's own matching of a whole line, under each reading of
// what its documentation leaves open.
type judge struct{ deny, allow []permission.Rule }

// same: under every reading, line and other get one verdict (want, when
// set, too). An unknown verdict is never the same.
func (j judge) same(line, other, want string) bool {
	for _, rd := range readings {
		v := j.verdict(rd(line))
		if v == unknown || want != "" && v != want {
			return false
		}
		if other != "" && j.verdict(rd(other)) != v {
			return false
		}
	}
	return true
}

// verdict: deny if a deny rule matches a command, allow if an allow rule
// matches every command, else ask; unknown when the reading cannot tell
// the commands (nil).
func (j judge) verdict(cmds []string) string {
	if cmds == nil {
		return unknown
	}
	v := allowed
	for _, c := range cmds {
		if anyMatch(j.deny, c) {
			return denied
		}
		if !anyMatch(j.allow, c) {
			v = asks
		}
	}
	return v
}

func anyMatch(rules []permission.Rule, cmd string) bool {
	for _, r := range rules {
		if match(r.Pattern, cmd) {
			return true
		}
	}
	return false
}

// readings are the ways Cursor may cut a line into the commands its rules
// see: the whole line as one command (its first token the base, the
// rest, operators and all, the arguments); or each simple command bash
// runs, as the shell's words (quotes removed, leading assignments and
// redirections dropped) or as its source text (assignments and
// redirections kept, quotes too).
// Read as text, a base with quotes or a backslash (`"git"`) is one whose
// matching the documentation does not tell: unknown.
var readings = []func(string) []string{
	func(line string) []string { return plainBase([]string{permission.Normalize(line)}) },
	func(line string) []string { return commands(line, false) },
	func(line string) []string { return plainBase(commands(line, true)) },
}

// plainBase is cmds, or nil when the first word of one holds a quote or
// a backslash.
func plainBase(cmds []string) []string {
	for _, c := range cmds {
		if base, _, _ := strings.Cut(c, " "); strings.ContainsAny(base, `'"\`) {
			return nil
		}
	}
	return cmds
}

// commands are the simple commands of line, as source text or as words;
// nil when some command has no words known before it runs.
func commands(line string, source bool) []string {
	s, err := shell.Parse(line)
	if err != nil || len(s.Commands) == 0 {
		return nil
	}
	var out []string
	for _, c := range s.Commands {
		if c.Kind != shell.Simple || len(c.Words) == 0 {
			return nil
		}
		if source {
			out = append(out, permission.Normalize(s.Src[c.Start:c.End]))
			continue
		}
		var w []string
		for _, x := range c.Words {
			if !x.Literal {
				return nil
			}
			w = append(w, x.Value)
		}
		out = append(out, strings.Join(w, " "))
	}
	return out
}
