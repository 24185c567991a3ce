// Package permission answers, for one host (agent), what the host's own
// permission rules say about a command — before gotk changes anything. It
// is how gotk keeps its promise of permission parity: the decision package
// auto-allows a rewrite only where the host would have run the original
// command without asking.
//
// Precedence is Deny > Ask > Allow > Default. Unparseable rule files are
// treated as holding no rules (never as allowing anything) and produce one
// warning.
package permission

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// Verdict is what the host's rules say about a command.
type Verdict int

// Verdicts, weakest first.
const (
	Default Verdict = iota // no rule: the host asks (or applies its mode)
	Allow
	Ask
	Deny
)

func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return "default"
}

// Host names an agent whose rule files gotk understands.
type Host string

// Hosts with rule files; every other host has Default for everything.
const (
	Claude Host = "claude"
	Cursor Host = "cursor"
	Gemini Host = "gemini"
)

// Segment is one simple command as the host's matcher sees it.
type Segment struct {
	// Forms are the spellings deny and ask rules are tested against (the
	// command as typed, and seen through wrappers and assignments).
	Forms []string
	// AllowForm is the one spelling allow rules are tested against: wrappers
	// the host itself strips are removed, nothing else.
	AllowForm string
}

// Rules is the loaded rule set of one host.
type Rules struct {
	Host             Host
	Deny, Ask, Allow []Rule
	Sources          []string // files read, in order
	Warnings         []string // one line each
	match            func(pattern, cmd string) bool
}

// Rule is one pattern and the file it came from.
type Rule struct {
	Pattern string // inner text: `git push *` for Bash(git push *)
	Raw     string // as written in the file
	Source  string
}

// Result is the verdict for one segment and the rule that decided it.
type Result struct {
	Verdict Verdict
	Rule    *Rule
}

// Check returns the verdict of one segment: Deny or Ask when any form
// matches such a rule, Allow when the allow form matches an allow rule.
func (r *Rules) Check(s Segment) Result {
	m := r.match
	if m == nil {
		m = claudeMatch
	}
	wide := lenient(m)
	for _, lst := range []struct {
		rules []Rule
		v     Verdict
	}{{r.Deny, Deny}, {r.Ask, Ask}} {
		for i := range lst.rules {
			for _, f := range s.Forms {
				if wide(lst.rules[i].Pattern, f) {
					return Result{lst.v, &lst.rules[i]}
				}
			}
		}
	}
	for i := range r.Allow {
		if m(r.Allow[i].Pattern, s.AllowForm) {
			return Result{Allow, &r.Allow[i]}
		}
	}
	return Result{Verdict: Default}
}

// parseJSONC decodes JSON that may carry a BOM, comments and trailing
// commas.
func parseJSONC(data []byte, v any) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	std, err := hujson.Standardize(data)
	if err != nil {
		return err
	}
	return json.Unmarshal(std, v)
}

// normalize joins a command's words with single spaces, as hosts do before
// matching.
func normalize(s string) string {
	s = strings.ReplaceAll(s, "\\\n", " ")
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }), " ")
}

func (r *Rules) warnf(format string, a ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, a...))
}
