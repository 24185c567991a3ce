// Package permission answers, for one host (agent), what the host's own
// permission rules say about a command — before gotk changes anything. It
// is how gotk keeps its promise of permission parity: the decision package
// auto-allows a rewrite only where the host would have run the original
// command without asking.
//
// Precedence is Deny > Ask > Allow > Default, except for hosts whose
// engine lets the highest-priority rule win (Gemini CLI's policy engine):
// there an allow rule beats a deny or ask rule only with a strictly higher
// priority. Unparseable JSON settings files are treated as holding no rules
// (never as allowing anything) and produce one warning; a rule file of the
// newer readers (Gemini policies, Vibe config, Codex rules) that cannot be
// parsed sets Rules.Unreadable instead, because gotk cannot know which deny
// rules it holds.
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

// Segment is one simple command as the host's matcher sees it.
type Segment struct {
	// Forms are the spellings deny and ask rules are tested against (the
	// command as typed, and seen through wrappers and assignments).
	Forms []string
	// AllowForm is the one spelling allow rules are tested against: wrappers
	// the host itself strips are removed, nothing else.
	AllowForm string
	// Source is the simple command's source text, leading assignments and
	// redirects included. Deny and ask rules of hosts that match that text
	// (Kilo, OpenCode) are tested against it too.
	Source string
	// Line is the whole command line the segment is part of. A host that
	// matches its rules only on lines it can split into plain commands
	// (Codex) applies no allow rule to any other line.
	Line string
}

// Rules is the loaded rule set of one host.
type Rules struct {
	Host             Host
	Deny, Ask, Allow []Rule
	Sources          []string // files read, in order
	// Dirs are the host's working directories, where its read-only
	// commands run without asking (Claude: the project directory, --add-dir
	// and permissions.additionalDirectories). Relative entries are relative
	// to the first.
	Dirs     []string
	Warnings []string // one line each
	// Unreadable: a rule file exists that gotk could not parse, so its deny
	// and ask rules are unknown. The decision package then treats every
	// command as denied: gotk steps aside and the host decides alone.
	Unreadable bool
	// LineForms, when set, are spellings of the WHOLE line that deny and
	// ask rules are also tested against, beside each simple command: a
	// host that splits a line otherwise than bash (Droid) may match a rule
	// across what bash runs as two commands.
	LineForms func(line string) []string
	// Match is the host's pattern matcher; nil is PrefixMatch (Claude
	// Code's).
	Match func(pattern, cmd string) bool
	// Ranked: the highest-priority matching rule wins (see Rule.Priority).
	Ranked bool
	// SourceText: the host matches a command's source text (Segment.Source).
	SourceText bool
	// StripAssign, when set, tells the assignments the host may drop from
	// the front of a command before testing its allow rules (Claude's
	// safe variables).
	StripAssign func(name string) bool
	// PlainLine, when set, tells the lines whose commands the host matches
	// its rules against one by one; on any other line no allow rule holds.
	PlainLine func(line string) bool
	// Same, when set, tells whether the host's rules judge the rewritten
	// line exactly as they judge the original (a host that matches its
	// rules on the REWRITTEN line with patterns gotk cannot split into
	// commands: Auggie's regular expressions); where not, no rewrite.
	Same func(original, rewritten string) bool
}

// Rule is one pattern and the file it came from.
type Rule struct {
	Pattern string // inner text: `git push *` for Bash(git push *)
	Raw     string // as written in the file
	Source  string
	// Priority ranks the rules of hosts where the highest-priority match
	// wins (Gemini: tier + priority/1000). Zero elsewhere.
	Priority float64
	// Test, when set, replaces the host's matcher for this rule (regular
	// expressions, token prefixes, first-word rules). It is used as is for
	// deny and ask rules, without the lenient widening, and never matches
	// an empty command.
	Test func(cmd string) bool
}

// Result is the verdict for one segment and the rule that decided it.
type Result struct {
	Verdict Verdict
	Rule    *Rule
}

// MayStripAssign reports whether the host may drop an assignment to name
// in front of a command before testing its allow rules on it.
func (r *Rules) MayStripAssign(name string) bool {
	return r.StripAssign != nil && r.StripAssign(name)
}

// Check returns the verdict of one segment: Deny or Ask when any form
// matches such a rule, Allow when the allow form matches an allow rule. On
// a ranked host the highest-priority match decides, an allow rule winning
// only with a strictly higher priority than every matching deny or ask rule.
func (r *Rules) Check(s Segment) Result {
	m := r.Match
	if m == nil {
		m = PrefixMatch
	}
	wide := lenient(m)
	strict := func(rule *Rule, cmd string) bool {
		if rule.Test != nil {
			return cmd != "" && rule.Test(cmd)
		}
		return wide(rule.Pattern, cmd)
	}
	allows := func(rule *Rule) bool {
		if rule.Test != nil {
			return s.AllowForm != "" && rule.Test(s.AllowForm)
		}
		return m(rule.Pattern, s.AllowForm)
	}
	if r.PlainLine != nil && s.Line != "" && !r.PlainLine(s.Line) {
		s.AllowForm = ""
	}
	src := -1 // the index of the source-text form
	if r.SourceText && s.Source != "" {
		src = len(s.Forms)
		s.Forms = append(s.Forms[:len(s.Forms):len(s.Forms)], Normalize(s.Source))
		if raw := strings.TrimSpace(s.Source); raw != Normalize(s.Source) {
			// as written too: blanks and line continuations are the
			// host's text
			s.Forms = append(s.Forms, raw)
		}
	}
	var best *Rule
	bestV := Default
	for _, lst := range []struct {
		rules []Rule
		v     Verdict
	}{{r.Deny, Deny}, {r.Ask, Ask}} {
		for i := range lst.rules {
			rule := &lst.rules[i]
			for k, f := range s.Forms {
				if !strict(rule, f) {
					continue
				}
				v := lst.v
				if v == Ask && rule.Test == nil && !m(rule.Pattern, f) {
					// Only the widened match holds: the host may run the
					// command, where gotk's ask would narrow it, so gotk
					// steps aside as for a deny.
					v = Deny
				}
				if v == Ask && src >= 0 && k >= src && r.StripAssign != nil {
					// Claude tests the source text with its redirections
					// removed: an ask only on the text with them steps
					// gotk aside rather than narrow.
					v = Deny
				}
				if v == Ask && r.Ranked && s.Source != "" && !strict(rule, Normalize(s.Source)) {
					// Gemini tests its rules on the command as written
					// (`FOO=1 git status` escapes a `git status` ask rule):
					// asking on another spelling would narrow it.
					v = Deny
				}
				if !r.Ranked {
					return Result{v, rule}
				}
				if best == nil || rule.Priority > best.Priority || (rule.Priority == best.Priority && v > bestV) {
					best, bestV = rule, v
				}
				break
			}
		}
	}
	var allow *Rule
	for i := range r.Allow {
		rule := &r.Allow[i]
		if (allow == nil || rule.Priority > allow.Priority) && allows(rule) {
			allow = rule
			if !r.Ranked {
				break
			}
		}
	}
	switch {
	case allow != nil && (best == nil || allow.Priority > best.Priority):
		return Result{Allow, allow}
	case best != nil:
		return Result{bestV, best}
	}
	return Result{Verdict: Default}
}

// ParseJSONC decodes JSON that may carry a BOM, comments and trailing
// commas.
func ParseJSONC(data []byte, v any) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	std, err := hujson.Standardize(data)
	if err != nil {
		return err
	}
	return json.Unmarshal(std, v)
}

// Normalize joins a command's words with single spaces, as hosts do before
// matching.
func Normalize(s string) string {
	s = strings.ReplaceAll(s, "\\\n", " ")
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }), " ")
}

// Warnf adds a warning: one line, said once per decision.
func (r *Rules) Warnf(format string, a ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, a...))
}

// MarkUnreadable records a rule file gotk cannot parse: a warning, and the
// rules marked Unreadable (gotk then never answers allow).
func (r *Rules) MarkUnreadable(format string, a ...any) {
	r.Unreadable = true
	r.Warnf(format+"; gotk cannot tell what its rules say and steps aside for this host", a...)
}
