package codex

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/regfile"
	"github.com/gotk-dev/gotk/core/shell"
	"mvdan.cc/sh/v3/syntax"
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
// gotk evaluates the files as Starlark, as Codex does; a file it cannot
// evaluate makes the rules Unreadable.

// Home is $CODEX_HOME or ~/.codex.
func Home(env permission.Env) string { return env.DirFrom("CODEX_HOME", ".codex") }

func codexSystemDir(env permission.Env) string {
	if env.ManagedDir != "" {
		return env.ManagedDir
	}
	return "/etc/codex"
}

// Load reads Codex's execpolicy rule files (system, user, and every
// project layer from the project root down to the working directory).
func Load(r *permission.Rules, env permission.Env) {
	r.PlainLine = codexPlainLine
	type dir struct {
		path  string
		allow bool // its allow rules count
	}
	home := Home(env)
	dirs := []dir{{filepath.Join(codexSystemDir(env), "rules"), true}, {filepath.Join(home, "rules"), true}}
	// Project layers: the .codex folders from the project root down to the
	// working directory, unless Codex disables them (config.toml present,
	// folder not trusted). Their allow rules never count here.
	for _, d := range codexProjectDirs(r, env, home) {
		dirs = append(dirs, dir{filepath.Join(d, ".codex", "rules"), false})
	}
	loadRequirements(r, env, filepath.Join(codexSystemDir(env), "requirements.toml"))
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[filepath.Clean(d.path)] {
			continue
		}
		seen[filepath.Clean(d.path)] = true
		ents, err := regfile.ReadDir(d.path)
		if err != nil {
			if !permission.Missing(err) {
				r.MarkUnreadable("gotk: %s: %v", d.path, err)
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
			data, err := env.Read(f)
			if err != nil {
				r.MarkUnreadable("gotk: %s: %v", f, err)
				continue
			}
			rules, err := parseCodexRules(string(data))
			if err != nil {
				r.MarkUnreadable("gotk: %s: %v", f, err)
				continue
			}
			addCodexRules(r, rules, f, d.allow)
		}
	}
}

// codexProjectDirs are the directories whose .codex folder may hold rules
// Codex loads: the working directory and every ancestor. Codex loads the
// layers from the project root down, less those whose config.toml sits in
// a folder it does not trust; but the root's markers and the trust come
// from more places than gotk can see (-c overrides, --profile, managed and
// cloud config, trust keyed by the resolved path or by the git root). Only
// the prompt and forbidden rules of these layers count here, and an extra
// one can only make gotk step aside (Codex then decides as without gotk);
// a layer gotk skipped could let `gotk X` dodge a rule Codex applies to X.
// So every layer is read. The system and user config.toml must parse:
// Codex refuses to start on one it cannot read.
func codexProjectDirs(r *permission.Rules, env permission.Env, home string) []string {
	for _, f := range []string{filepath.Join(codexSystemDir(env), "config.toml"), filepath.Join(home, "config.toml")} {
		data, err := env.Read(f)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				r.MarkUnreadable("gotk: %s: %v", f, err)
			}
			continue
		}
		var c map[string]any
		if _, err := toml.Decode(string(data), &c); err != nil {
			r.MarkUnreadable("gotk: %s: %s", f, permission.OneLine(err.Error()))
		}
	}
	if env.Cwd == "" || !filepath.IsAbs(env.Cwd) {
		return nil
	}
	var chain []string
	for d := filepath.Clean(env.Cwd); ; d = filepath.Dir(d) {
		chain = append(chain, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	var out []string
	for i := len(chain) - 1; i >= 0; i-- {
		d := chain[i]
		if fi, err := os.Stat(filepath.Join(d, ".codex")); err != nil || !fi.IsDir() {
			continue
		}
		if same(filepath.Join(d, ".codex"), home) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// same reports whether two paths name one directory.
func same(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// codexPlainLine reports whether Codex splits line into plain commands and
// matches its rules against each (codex-rs/core/src/bash.rs
// try_parse_word_only_commands_sequence @b981304): simple commands of
// literal words — plain, single- or double-quoted without expansions —
// joined only by &&, ||, ; and |. Anything else (a redirect, &, a subshell
// or group, !, time, an assignment, an expansion, a comment, |&) makes Codex
// judge the line as one `bash -lc` script, which no prefix rule of a
// program matches: Codex asks. Where this parser and tree-sitter might
// disagree it answers false (no allow).
func codexPlainLine(line string) bool {
	f, err := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Last) > 0 || len(f.Stmts) == 0 {
		return false
	}
	var stmt func(*syntax.Stmt) bool
	stmt = func(st *syntax.Stmt) bool {
		if st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(st.Comments) > 0 {
			return false
		}
		switch c := st.Cmd.(type) {
		case *syntax.CallExpr:
			if len(c.Assigns) > 0 || len(c.Args) == 0 {
				return false
			}
			for _, w := range c.Args {
				if !codexPlainWord(w) {
					return false
				}
			}
			return true
		case *syntax.BinaryCmd:
			switch c.Op {
			case syntax.AndStmt, syntax.OrStmt, syntax.Pipe:
				return stmt(c.X) && stmt(c.Y)
			}
		}
		return false
	}
	for _, st := range f.Stmts {
		if !stmt(st) {
			return false
		}
	}
	return true
}

// codexPlainWord: a word tree-sitter-bash reads as a word, string,
// raw_string, number or their concatenation.
func codexPlainWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, "{}[]") {
				return false // brace or glob expressions: other node kinds
			}
		case *syntax.SglQuoted:
			if x.Dollar {
				return false
			}
		case *syntax.DblQuoted:
			if x.Dollar {
				return false
			}
			for _, q := range x.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
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
			if slices.Contains(alts, w.Value) {
				continue
			}
			if i == 0 && wide && strings.Contains(w.Value, "/") && slices.Contains(alts, filepath.Base(w.Value)) {
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

// EvalExecPolicy evaluates a Codex execpolicy file, calling prefixRule for
// each prefix_rule (core/execpolicy.Eval). It is set by a blank import of
// core/execpolicy/register; nil (a binary that did not link it) makes
// Codex's rules unreadable, so gotk never answers allow for Codex.
var EvalExecPolicy func(src string, prefixRule func(line int, args []any, kw map[string]any) error) error

// errNoExecPolicy: this binary cannot read Codex's rules.
var errNoExecPolicy = errors.New("this binary does not read Codex execpolicy files (core/execpolicy/register not linked)")

// parseCodexRules evaluates an execpolicy file as Codex does (see
// EvalExecPolicy); any error makes the caller's rules Unreadable.
func parseCodexRules(src string) ([]codexRule, error) {
	if EvalExecPolicy == nil {
		return nil, errNoExecPolicy
	}
	var out []codexRule
	err := EvalExecPolicy(src, func(line int, args []any, kw map[string]any) error {
		rule, err := codexPrefixRule(args, kw, "")
		if err != nil {
			return fmt.Errorf("line %d: %v", line, err)
		}
		rule.raw = fmt.Sprintf("prefix_rule(%s, decision=%q) at line %d", rule, rule.decision, line)
		out = append(out, rule)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
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
		if !slices.Contains(names, k) {
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

// codexRequirements is the part of an administrator's requirements.toml
// that holds command rules (codex-rs/config/src/requirements_exec_policy.rs
// @343074d: `[rules] prefix_rules = [{pattern = [{token = "git"},
// {any_of = ["push", "fetch"]}], decision = "forbidden"}]`). Codex merges
// them over every rule file, whatever the user's own files say.
type codexRequirements struct {
	Rules *struct {
		PrefixRules []struct {
			Pattern []struct {
				Token *string  `toml:"token"`
				AnyOf []string `toml:"any_of"`
			} `toml:"pattern"`
			Decision      *string `toml:"decision"`
			Justification *string `toml:"justification"`
		} `toml:"prefix_rules"`
	} `toml:"rules"`
}

// loadRequirements adds the prompt and forbidden rules of requirements.toml
// at path. Codex refuses the file where a rule is malformed or says allow
// (admins may only tighten); gotk then steps aside (Unreadable).
func loadRequirements(r *permission.Rules, env permission.Env, path string) {
	data, err := env.Read(path)
	if err != nil {
		if !permission.Missing(err) {
			r.MarkUnreadable("gotk: %s: %v", path, err)
		}
		return
	}
	var req codexRequirements
	if _, err := toml.Decode(string(data), &req); err != nil {
		r.MarkUnreadable("gotk: %s: %s", path, permission.OneLine(err.Error()))
		return
	}
	if req.Rules == nil {
		return
	}
	bad := func(i int, why string) { r.MarkUnreadable("gotk: %s: rules prefix_rule %d: %s", path, i, why) }
	if len(req.Rules.PrefixRules) == 0 {
		r.MarkUnreadable("gotk: %s: rules prefix_rules cannot be empty", path)
		return
	}
	var rules []codexRule
	for i, pr := range req.Rules.PrefixRules {
		if pr.Justification != nil && strings.TrimSpace(*pr.Justification) == "" {
			bad(i, "an empty justification")
			return
		}
		if len(pr.Pattern) == 0 {
			bad(i, "an empty pattern")
			return
		}
		cr := codexRule{raw: fmt.Sprintf("requirements prefix_rule %d", i)}
		for _, t := range pr.Pattern {
			switch {
			case t.Token != nil && t.AnyOf == nil && strings.TrimSpace(*t.Token) != "":
				cr.pattern = append(cr.pattern, []string{*t.Token})
			case t.Token == nil && len(t.AnyOf) > 0 && !slices.ContainsFunc(t.AnyOf, func(a string) bool { return strings.TrimSpace(a) == "" }):
				cr.pattern = append(cr.pattern, t.AnyOf)
			default:
				bad(i, "a pattern token needs one non-empty token or any_of")
				return
			}
		}
		if pr.Decision == nil || *pr.Decision != "prompt" && *pr.Decision != "forbidden" {
			bad(i, "the decision must be prompt or forbidden")
			return
		}
		cr.decision = *pr.Decision
		rules = append(rules, cr)
	}
	addCodexRules(r, rules, path, false)
}

// addCodexRules adds the rules of one source: forbidden as deny, prompt as
// ask, allow only where allow says its allow rules count.
func addCodexRules(r *permission.Rules, rules []codexRule, source string, allow bool) {
	r.Sources = append(r.Sources, source)
	for _, cr := range rules {
		rule := permission.Rule{Pattern: cr.String(), Raw: cr.raw, Source: source}
		switch cr.decision {
		case "forbidden":
			rule.Test = cr.matcher(true)
			r.Deny = append(r.Deny, rule)
		case "prompt":
			rule.Test = cr.matcher(true)
			r.Ask = append(r.Ask, rule)
		case "allow":
			if allow {
				rule.Test = cr.matcher(false)
				r.Allow = append(r.Allow, rule)
			}
			if cr.namesGotk() {
				// Codex would run a rewritten command this rule matches
				// (gotk by path or by name) outside its sandbox, where the
				// original ran inside it: the rewrite keeps out.
				r.Ask = append(r.Ask, permission.Rule{Pattern: cr.String(), Raw: cr.raw + " (names gotk: a rewrite would leave the sandbox)",
					Source: source, Test: cr.matcher(true)})
			}
		}
	}
}

// namesGotk: the rule's program is gotk (its name, or a path to it), as
// an "always allow" of a rewritten command writes it.
func (c codexRule) namesGotk() bool {
	return len(c.pattern) > 0 && slices.ContainsFunc(c.pattern[0], func(p string) bool {
		return strings.TrimSuffix(filepath.Base(p), ".exe") == "gotk"
	})
}
