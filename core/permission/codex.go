package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gotk-dev/gotk/core/shell"
)

// Codex CLI's execpolicy (openai/codex codex-rs/execpolicy: README.md,
// src/parser.rs @11b641a; codex-rs/core/src/exec_policy.rs @0017bb4) reads
// Starlark files `<config folder>/rules/*.rules` of every config layer:
// $CODEX_HOME (default ~/.codex), the system layer (/etc/codex), and the
// .codex folders of a trusted project. The rules that matter here:
//
//	prefix_rule(
//	    pattern = ["git", ["push", "fetch"]],  # tokens; a list is alternatives
//	    decision = "forbidden",                # allow (default) | prompt | forbidden
//	    justification = "…", match = […], not_match = […],
//	)
//
// A rule matches a command whose argv starts with the pattern's tokens;
// the strictest matching decision wins (forbidden > prompt > allow). With
// host-executable resolution (on in Codex), `/usr/bin/git` may also match a
// `git` rule. host_executable() and network_rule() calls are accepted and
// do not affect shell rules here.
//
// gotk reads the plain form Codex itself writes (top-level calls whose
// arguments are string literals and lists of them, comments). Anything
// else — variables, loops, f-strings — makes the rules Unreadable.

// CodexHome is $CODEX_HOME or ~/.codex.
func CodexHome(env Env) string {
	if d := env.Getenv("CODEX_HOME"); d != "" {
		return d
	}
	return filepath.Join(env.Home, ".codex")
}

func codexSystemDir(env Env) string {
	if env.ManagedDir != "" {
		return env.ManagedDir
	}
	return "/etc/codex"
}

func loadCodex(r *Rules, env Env) {
	type dir struct {
		path  string
		allow bool // its allow rules count
	}
	home := CodexHome(env)
	dirs := []dir{{filepath.Join(codexSystemDir(env), "rules"), true}, {filepath.Join(home, "rules"), true}}
	// Project layers: every .codex folder from the working directory up.
	// Codex reads them only in a trusted project, between the project root
	// and the working directory; reading more only adds deny and ask rules,
	// and their allow rules never count.
	if env.Cwd != "" {
		for d := filepath.Clean(env.Cwd); filepath.IsAbs(d); d = filepath.Dir(d) {
			dirs = append(dirs, dir{filepath.Join(d, ".codex", "rules"), false})
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[filepath.Clean(d.path)] {
			continue
		}
		seen[filepath.Clean(d.path)] = true
		ents, err := os.ReadDir(d.path)
		if err != nil {
			if !os.IsNotExist(err) && !isNotDir(err) {
				r.unreadable("gotk: %s: %v", d.path, err)
			}
			continue
		}
		var files []string
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".rules") && !e.IsDir() {
				files = append(files, filepath.Join(d.path, e.Name()))
			}
		}
		sort.Strings(files)
		for _, f := range files {
			data, err := env.read(f)
			if err != nil {
				r.unreadable("gotk: %s: %v", f, err)
				continue
			}
			rules, err := parseCodexRules(string(data))
			if err != nil {
				r.unreadable("gotk: %s: %v", f, err)
				continue
			}
			r.Sources = append(r.Sources, f)
			for _, cr := range rules {
				rule := Rule{Pattern: cr.String(), Raw: cr.raw, Source: f}
				switch cr.decision {
				case "forbidden":
					rule.test = cr.matcher(true)
					r.Deny = append(r.Deny, rule)
				case "prompt":
					rule.test = cr.matcher(true)
					r.Ask = append(r.Ask, rule)
				case "allow":
					if d.allow {
						rule.test = cr.matcher(false)
						r.Allow = append(r.Allow, rule)
					}
				}
			}
		}
	}
}

func isNotDir(err error) bool {
	return strings.Contains(err.Error(), "not a directory")
}

// codexRule is one prefix_rule: each pattern token is a set of
// alternatives.
type codexRule struct {
	pattern  [][]string
	decision string
	raw      string
}

func (c codexRule) String() string {
	parts := make([]string, len(c.pattern))
	for i, alts := range c.pattern {
		parts[i] = strings.Join(alts, "|")
	}
	return strings.Join(parts, " ")
}

// matcher tests a command (words as typed) against the rule. For deny and
// ask rules (wide) a word gotk cannot resolve matches any token and the
// program's basename may match (host-executable fallback); for allow rules
// every word must be literal and the program must match exactly.
func (c codexRule) matcher(wide bool) func(string) bool {
	return func(cmd string) bool {
		words, plain, ok := codexWords(cmd)
		if !ok {
			return wide // cannot parse: only deny and ask may assume a match
		}
		if !plain && !wide {
			return false
		}
		if len(words) < len(c.pattern) {
			return false
		}
		for i, alts := range c.pattern {
			w := words[i]
			if !w.Literal {
				if wide {
					continue
				}
				return false
			}
			if contains(alts, w.Value) {
				continue
			}
			if i == 0 && wide && strings.Contains(w.Value, "/") && contains(alts, filepath.Base(w.Value)) {
				continue
			}
			return false
		}
		return true
	}
}

// validate runs the rule's match and not_match examples, as Codex does at
// load time: a failing example makes Codex reject the whole file.
func (c codexRule) validate(match, notMatch []string) error {
	m := c.matcher(false)
	for _, e := range match {
		if !m(e) {
			return fmt.Errorf("prefix_rule %s: match example %q does not match", c, e)
		}
	}
	for _, e := range notMatch {
		if m(e) {
			return fmt.Errorf("prefix_rule %s: not_match example %q matches", c, e)
		}
	}
	return nil
}

// codexWords splits one simple command into its words (those of a
// substitution inside it are not its words). plain is false when
// assignments lead the command.
func codexWords(cmd string) (words []shell.Word, plain, ok bool) {
	s, err := shell.Parse(cmd)
	if err != nil {
		return nil, false, false
	}
	for _, c := range s.Commands {
		if c.Start == 0 && !c.Substituted && !c.Opaque {
			return c.Words, len(c.Assigns) == 0, len(c.Words) > 0
		}
	}
	return nil, false, false
}

// parseCodexRules parses the plain subset of the execpolicy language.
func parseCodexRules(src string) ([]codexRule, error) {
	p := &starParser{src: src}
	var out []codexRule
	for {
		p.skipSpace()
		if p.eof() {
			return out, nil
		}
		start := p.pos
		name, err := p.ident()
		if err != nil {
			return nil, err
		}
		args, kw, err := p.call()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p.where(start), err)
		}
		raw := oneLine(src[start:p.pos])
		switch name {
		case "prefix_rule":
			rule, err := codexPrefixRule(args, kw, raw)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", p.where(start), err)
			}
			out = append(out, rule)
		case "host_executable", "network_rule":
		default:
			return nil, fmt.Errorf("%s: %s() is not understood by gotk", p.where(start), name)
		}
		p.skipSpace()
		if !p.eof() && p.src[p.pos] == ';' {
			p.pos++
		}
	}
}

func codexPrefixRule(args []any, kw map[string]any, raw string) (codexRule, error) {
	names := []string{"pattern", "decision", "match", "not_match", "justification"}
	if len(args) > len(names) {
		return codexRule{}, fmt.Errorf("prefix_rule: too many arguments")
	}
	for i, a := range args {
		if _, dup := kw[names[i]]; dup {
			return codexRule{}, fmt.Errorf("prefix_rule: %s given twice", names[i])
		}
		kw[names[i]] = a
	}
	for k := range kw {
		if !contains(names, k) {
			return codexRule{}, fmt.Errorf("prefix_rule: unknown argument %s", k)
		}
	}
	rule := codexRule{decision: "allow", raw: raw}
	pat, ok := kw["pattern"].([]any)
	if !ok || len(pat) == 0 {
		return rule, fmt.Errorf("prefix_rule: pattern must be a non-empty list")
	}
	for _, t := range pat {
		switch x := t.(type) {
		case string:
			rule.pattern = append(rule.pattern, []string{x})
		case []any:
			var alts []string
			for _, a := range x {
				s, ok := a.(string)
				if !ok {
					return rule, fmt.Errorf("prefix_rule: pattern alternatives must be strings")
				}
				alts = append(alts, s)
			}
			if len(alts) == 0 {
				return rule, fmt.Errorf("prefix_rule: pattern alternatives cannot be empty")
			}
			rule.pattern = append(rule.pattern, alts)
		default:
			return rule, fmt.Errorf("prefix_rule: pattern elements must be strings or lists of strings")
		}
	}
	if d, ok := kw["decision"]; ok && d != nil {
		s, ok := d.(string)
		if !ok || (s != "allow" && s != "prompt" && s != "forbidden") {
			return rule, fmt.Errorf("prefix_rule: decision %v (want allow, prompt or forbidden)", d)
		}
		rule.decision = s
	}
	if j, ok := kw["justification"]; ok && j != nil {
		if s, ok := j.(string); !ok || strings.TrimSpace(s) == "" {
			return rule, fmt.Errorf("prefix_rule: justification cannot be empty")
		}
	}
	examples := func(k string) ([]string, error) {
		v, ok := kw[k]
		if !ok || v == nil {
			return nil, nil
		}
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("prefix_rule: %s must be a list", k)
		}
		var out []string
		for _, e := range list {
			switch x := e.(type) {
			case string:
				out = append(out, x)
			case []any:
				words := make([]string, len(x))
				for i, w := range x {
					s, ok := w.(string)
					if !ok {
						return nil, fmt.Errorf("prefix_rule: %s tokens must be strings", k)
					}
					words[i] = shell.Quote(s)
				}
				out = append(out, strings.Join(words, " "))
			default:
				return nil, fmt.Errorf("prefix_rule: %s entries must be strings or lists", k)
			}
		}
		return out, nil
	}
	m, err := examples("match")
	if err != nil {
		return rule, err
	}
	nm, err := examples("not_match")
	if err != nil {
		return rule, err
	}
	return rule, rule.validate(m, nm)
}

// starParser reads the literal subset of Starlark: calls with positional
// and keyword arguments whose values are strings, lists, None, True, False.
type starParser struct {
	src string
	pos int
}

func (p *starParser) eof() bool { return p.pos >= len(p.src) }

func (p *starParser) where(at int) string {
	return fmt.Sprintf("line %d", strings.Count(p.src[:at], "\n")+1)
}

func (p *starParser) skipSpace() {
	for !p.eof() {
		c := p.src[p.pos]
		switch {
		case c == '#':
			for !p.eof() && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			p.pos++
		case c == '\\' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n':
			p.pos += 2
		default:
			return
		}
	}
}

func (p *starParser) ident() (string, error) {
	start := p.pos
	for !p.eof() {
		c := p.src[p.pos]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (p.pos > start && c >= '0' && c <= '9') {
			p.pos++
			continue
		}
		break
	}
	if p.pos == start {
		return "", fmt.Errorf("%s: unexpected %q (gotk reads only plain rule calls)", p.where(start), p.src[p.pos:min(p.pos+10, len(p.src))])
	}
	return p.src[start:p.pos], nil
}

func (p *starParser) expect(c byte) error {
	p.skipSpace()
	if p.eof() || p.src[p.pos] != c {
		return fmt.Errorf("%s: expected %q", p.where(p.pos), c)
	}
	p.pos++
	return nil
}

// call reads `( args )` after a function name.
func (p *starParser) call() ([]any, map[string]any, error) {
	if err := p.expect('('); err != nil {
		return nil, nil, err
	}
	var args []any
	kw := map[string]any{}
	for {
		p.skipSpace()
		if !p.eof() && p.src[p.pos] == ')' {
			p.pos++
			return args, kw, nil
		}
		save := p.pos
		if name, err := p.ident(); err == nil && name != "None" && name != "True" && name != "False" {
			p.skipSpace()
			if p.eof() || p.src[p.pos] != '=' {
				return nil, nil, fmt.Errorf("%s: %s is not a literal", p.where(save), name)
			}
			p.pos++
			v, err := p.value()
			if err != nil {
				return nil, nil, err
			}
			if _, dup := kw[name]; dup {
				return nil, nil, fmt.Errorf("%s: %s given twice", p.where(save), name)
			}
			kw[name] = v
		} else {
			p.pos = save
			if len(kw) > 0 {
				return nil, nil, fmt.Errorf("%s: positional argument after a keyword argument", p.where(save))
			}
			v, err := p.value()
			if err != nil {
				return nil, nil, err
			}
			args = append(args, v)
		}
		p.skipSpace()
		if !p.eof() && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if err := p.expect(')'); err != nil {
			return nil, nil, err
		}
		return args, kw, nil
	}
}

// value reads a string, a list (or tuple) of values, None, True or False.
func (p *starParser) value() (any, error) {
	p.skipSpace()
	if p.eof() {
		return nil, fmt.Errorf("unexpected end of file")
	}
	switch c := p.src[p.pos]; {
	case c == '"' || c == '\'':
		return p.str()
	case c == '[' || c == '(':
		end := byte(']')
		if c == '(' {
			end = ')'
		}
		p.pos++
		list := []any{}
		for {
			p.skipSpace()
			if !p.eof() && p.src[p.pos] == end {
				p.pos++
				return list, nil
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			list = append(list, v)
			p.skipSpace()
			if !p.eof() && p.src[p.pos] == ',' {
				p.pos++
				continue
			}
			if err := p.expect(end); err != nil {
				return nil, err
			}
			return list, nil
		}
	}
	at := p.pos
	name, err := p.ident()
	if err != nil {
		return nil, err
	}
	switch name {
	case "None":
		return nil, nil
	case "True":
		return true, nil
	case "False":
		return false, nil
	}
	return nil, fmt.Errorf("%s: %s is not a literal (gotk reads only plain rule calls)", p.where(at), name)
}

// str reads a Starlark string literal: single or triple quoted, with the
// common escapes; raw, byte and f-strings are refused.
func (p *starParser) str() (string, error) {
	at := p.pos
	q := p.src[p.pos]
	triple := strings.HasPrefix(p.src[p.pos:], strings.Repeat(string(q), 3))
	if triple {
		p.pos += 3
	} else {
		p.pos++
	}
	var b strings.Builder
	for {
		if p.eof() {
			return "", fmt.Errorf("%s: unterminated string", p.where(at))
		}
		c := p.src[p.pos]
		switch {
		case triple && strings.HasPrefix(p.src[p.pos:], strings.Repeat(string(q), 3)):
			p.pos += 3
			return b.String(), nil
		case !triple && c == q:
			p.pos++
			return b.String(), nil
		case !triple && c == '\n':
			return "", fmt.Errorf("%s: unterminated string", p.where(at))
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				return "", fmt.Errorf("%s: unterminated string", p.where(at))
			}
			e := p.src[p.pos+1]
			p.pos += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\', '\'', '"':
				b.WriteByte(e)
			case '\n':
			default:
				return "", fmt.Errorf("%s: escape \\%c is not understood by gotk", p.where(at), e)
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}
