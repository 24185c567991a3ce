// Package shell is the first stop of every decision: it parses an agent's
// command line with mvdan.cc/sh/v3 and reports each simple command with its
// byte position, its pipeline context and the constructs that make a rewrite
// unsafe. It never re-prints the input: callers edit it by inserting text at
// byte offsets (see Insert), so everything they do not touch survives byte for
// byte.
package shell

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Word is one shell word of a simple command.
type Word struct {
	Start, End int    // byte offsets in the input
	Raw        string // the bytes as typed
	Value      string // the word as the shell passes it, when Literal
	Literal    bool   // true when Value is known without running anything
}

// Assign is a leading NAME=value of a simple command.
type Assign struct {
	Name  string
	Start int
}

// Command is one simple command and where it sits.
type Command struct {
	Start, End int
	Assigns    []Assign
	Words      []Word

	// Pipeline context. PipeLen is 1 for a command that is not piped.
	PipeID, PipeIndex, PipeLen int
	PipeAll                    bool // the pipeline uses |&

	// Opaque commands are real commands that must never be rewritten: inside a
	// compound command that is itself a pipeline stage, a coproc, or a
	// command or process substitution. They still count for permissions.
	Opaque bool
	// Substituted is true for a command inside $(…), `…`, <(…) or >(…).
	Substituted bool
	// InSubshell is true inside ( … ); Timed behind the `time` keyword.
	InSubshell, Timed bool
}

// Pipeline describes one pipeline by its stages (indexes into Script.Commands,
// -1 for a stage that is not a simple command).
type Pipeline struct {
	Stages  []int
	PipeAll bool
}

// Script is a parsed command line.
type Script struct {
	Src       string
	Commands  []Command
	Pipelines []Pipeline
	// Unsafe lists the constructs that make any rewrite of this line unsafe
	// (command substitution, heredoc, redirect into a file, …), deduplicated,
	// in the order first seen.
	Unsafe []string
	// Redefines lists what on this line may change which program a word
	// names (a function or alias definition, hash, enable, source, eval, a
	// PATH assignment): nothing on such a line is rewritten, and no
	// permission is inferred from its words.
	Redefines []string
}

// MaxLen is the longest command line Parse reads, and MaxDepth the deepest
// nesting of commands it walks. Past either, Parse returns ErrTooComplex:
// the parser and the walker recurse, and a stack overflow is a fatal error
// no recover() catches — a hook that dies blocks the agent.
const (
	MaxLen   = 64 << 10
	MaxDepth = 64
)

// ErrTooComplex is returned for a line longer than MaxLen, nested deeper
// than MaxDepth, or holding a control character.
var ErrTooComplex = errors.New("the command is too long, too deeply nested, or holds control characters")

// Parse parses src as a bash command line. A syntax error is returned as is;
// callers treat it as "do not touch".
func Parse(src string) (*Script, error) {
	if len(src) > MaxLen || hasControl(src) {
		return nil, ErrTooComplex
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, err
	}
	s := &Script{Src: src}
	w := walker{s: s}
	w.stmts(f.Stmts, ctx{})
	if w.tooDeep {
		return nil, ErrTooComplex
	}
	w.scanUnsafe(f)
	if w.tooDeep {
		return nil, ErrTooComplex
	}
	return s, nil
}

// hasControl reports a control character other than tab and newline: bash
// keeps a carriage return, an escape or a NUL inside a word (`ls\rf.txt`
// runs a program of that name) where the parser would split the word.
func hasControl(src string) bool {
	for i := 0; i < len(src); i++ {
		if c := src[i]; (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f {
			return true
		}
	}
	return false
}

type ctx struct {
	opaque, subst, subshell, timed bool
	depth                          int
}

type walker struct {
	s       *Script
	tooDeep bool
}

func (w *walker) redefines(reason string) {
	for _, r := range w.s.Redefines {
		if r == reason {
			return
		}
	}
	w.s.Redefines = append(w.s.Redefines, reason)
}

func (w *walker) unsafe(reason string) {
	for _, r := range w.s.Unsafe {
		if r == reason {
			return
		}
	}
	w.s.Unsafe = append(w.s.Unsafe, reason)
}

func (w *walker) stmts(list []*syntax.Stmt, c ctx) {
	for _, st := range list {
		w.stmt(st, c)
	}
}

func (w *walker) stmt(st *syntax.Stmt, c ctx) {
	if st == nil || st.Cmd == nil || w.tooDeep {
		return
	}
	if c.depth++; c.depth > MaxDepth {
		w.tooDeep = true
		return
	}
	if st.Coprocess || st.Disown {
		c.opaque = true
	}
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		w.call(st, x, c, -1, 0, 1, false)
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			w.pipeline(st, c)
			return
		}
		w.stmt(x.X, c)
		w.stmt(x.Y, c)
	case *syntax.Block:
		w.stmts(x.Stmts, c)
	case *syntax.Subshell:
		in := c
		in.subshell = true
		w.stmts(x.Stmts, in)
	case *syntax.IfClause:
		for cl := x; cl != nil; cl = cl.Else {
			w.stmts(cl.Cond, c)
			w.stmts(cl.Then, c)
		}
	case *syntax.WhileClause:
		w.stmts(x.Cond, c)
		w.stmts(x.Do, c)
	case *syntax.ForClause:
		w.stmts(x.Do, c)
	case *syntax.CaseClause:
		for _, it := range x.Items {
			w.stmts(it.Stmts, c)
		}
	case *syntax.FuncDecl:
		w.redefines("a function definition")
		w.stmt(x.Body, c)
	case *syntax.DeclClause:
		w.decl(x)
	case *syntax.TimeClause:
		in := c
		in.timed = true
		w.stmt(x.Stmt, in)
	case *syntax.CoprocClause:
		in := c
		in.opaque = true
		w.stmt(x.Stmt, in)
	}
	// ArithmCmd, TestClause, DeclClause, LetClause, TestDecl: grammar, not
	// commands gotk could run.
}

// pipeline flattens a | b | c into its stages.
func (w *walker) pipeline(st *syntax.Stmt, c ctx) {
	var stages []*syntax.Stmt
	all := false
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !s.Negated && len(s.Redirs) == 0 {
			if b.Op == syntax.PipeAll {
				all = true
			}
			flatten(b.X)
			flatten(b.Y)
			return
		}
		stages = append(stages, s)
	}
	// The top statement is the pipeline itself: its `!` and redirects apply
	// to the whole of it, so it is always split.
	top := st.Cmd.(*syntax.BinaryCmd)
	if top.Op == syntax.PipeAll {
		all = true
	}
	flatten(top.X)
	flatten(top.Y)
	id := len(w.s.Pipelines)
	p := Pipeline{PipeAll: all}
	for i, s := range stages {
		if call, ok := s.Cmd.(*syntax.CallExpr); ok {
			idx := w.call(s, call, c, id, i, len(stages), all)
			p.Stages = append(p.Stages, idx)
			continue
		}
		p.Stages = append(p.Stages, -1)
		// A compound stage: its commands run, but their output is part of
		// the pipe in ways we do not model; never rewrite inside.
		in := c
		in.opaque = true
		w.stmt(s, in)
	}
	w.s.Pipelines = append(w.s.Pipelines, p)
}

// call records a simple command and returns its index, or -1 when it has no
// command word (a bare assignment).
func (w *walker) call(st *syntax.Stmt, x *syntax.CallExpr, c ctx, pipeID, idx, n int, all bool) int {
	for _, a := range x.Assigns {
		if a.Name != nil && lookupVar[a.Name.Value] {
			w.redefines("an assignment to " + a.Name.Value)
		}
	}
	if len(x.Args) == 0 {
		return -1
	}
	if v, ok := literal(x.Args[0]); ok && redefiners()[v] {
		w.redefines("`" + v + "`")
	}
	cmd := Command{
		Start:       int(st.Pos().Offset()),
		End:         int(st.End().Offset()),
		PipeID:      pipeID,
		PipeIndex:   idx,
		PipeLen:     n,
		PipeAll:     all,
		Opaque:      c.opaque || c.subst,
		Substituted: c.subst,
		InSubshell:  c.subshell,
		Timed:       c.timed,
	}
	if cmd.End > len(w.s.Src) {
		cmd.End = len(w.s.Src)
	}
	for _, a := range x.Assigns {
		name := ""
		if a.Name != nil {
			name = a.Name.Value
		}
		cmd.Assigns = append(cmd.Assigns, Assign{Name: name, Start: int(a.Pos().Offset())})
	}
	for _, wd := range x.Args {
		cmd.Words = append(cmd.Words, w.word(wd))
	}
	w.s.Commands = append(w.s.Commands, cmd)
	return len(w.s.Commands) - 1
}

func (w *walker) word(wd *syntax.Word) Word {
	start, end := int(wd.Pos().Offset()), int(wd.End().Offset())
	v, ok := literal(wd)
	return Word{Start: start, End: end, Raw: w.s.Src[start:end], Value: v, Literal: ok}
}

// lookupVar are the variables that decide which program a name runs.
var lookupVar = map[string]bool{"PATH": true, "BASH_ENV": true, "ENV": true}

// redefiners are the builtins that can change what a later word of the
// same line runs: new aliases or functions, a hashed path, a disabled
// builtin, a sourced file, a string run as code, shell options.
var redefiners = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"alias": true, "unalias": true, "hash": true, "enable": true, "source": true, ".": true,
		"eval": true, "shopt": true, "unset": true,
	}
})

// decl records `export PATH=…`-like declarations (DeclClause) and function
// exports.
func (w *walker) decl(x *syntax.DeclClause) {
	for _, a := range x.Args {
		if a.Name != nil && lookupVar[a.Name.Value] {
			w.redefines("an assignment to " + a.Name.Value)
		}
		if a.Naked && a.Name == nil && a.Value != nil {
			v, ok := literal(a.Value)
			switch {
			case !ok:
				w.redefines("a declaration that expands at run time")
			case strings.HasPrefix(v, "-") && strings.ContainsAny(v, "fn"):
				w.redefines("`" + x.Variant.Value + " " + v + "`")
			}
		}
	}
}

// fileSink reports whether a redirection reads or writes a real file. Duplicating
// or closing descriptors (2>&1, >&2, >&-) and /dev/null are not file sinks.
func fileSink(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.DplIn, syntax.DplOut:
		v, ok := literal(r.Word)
		if ok && (v == "-" || IsDigits(v)) {
			return false
		}
		return true // ">& file" writes a file
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return true
	}
	v, ok := literal(r.Word)
	return !(ok && v == "/dev/null")
}

// IsDigits reports whether s is a non-empty run of ASCII digits (a file
// descriptor, a count).
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// scanUnsafe walks the whole tree for constructs whose effect gotk cannot
// attest, and records commands inside substitutions (for permission checks).
func (w *walker) scanUnsafe(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			if x.Backquotes {
				w.unsafe("backtick command substitution")
			} else {
				w.unsafe("command substitution $(…)")
			}
			w.stmts(x.Stmts, ctx{opaque: true, subst: true})
		case *syntax.ProcSubst:
			w.unsafe("process substitution")
			w.stmts(x.Stmts, ctx{opaque: true, subst: true})
		case *syntax.ArithmExp:
			w.unsafe("arithmetic expansion $((…))")
		case *syntax.Redirect:
			switch x.Op {
			case syntax.Hdoc, syntax.DashHdoc:
				w.unsafe("heredoc")
			case syntax.WordHdoc:
				w.unsafe("here-string")
			default:
				if fileSink(x) {
					w.unsafe(fmt.Sprintf("redirect %s into a file", x.Op))
				}
			}
		}
		return true
	})
	// Commands found inside substitutions were appended after the others;
	// keep Commands in source order.
	sort.SliceStable(w.s.Commands, func(i, j int) bool { return w.s.Commands[i].Start < w.s.Commands[j].Start })
	w.reindexPipelines()
}

// reindexPipelines fixes Pipeline.Stages after Commands was sorted.
func (w *walker) reindexPipelines() {
	pos := map[[2]int]int{}
	for i, c := range w.s.Commands {
		if c.PipeID >= 0 {
			pos[[2]int{c.PipeID, c.PipeIndex}] = i
		}
	}
	for id := range w.s.Pipelines {
		for si, old := range w.s.Pipelines[id].Stages {
			if old < 0 {
				continue
			}
			w.s.Pipelines[id].Stages[si] = pos[[2]int{id, si}]
		}
	}
}

// literal returns the value of a word the shell would pass without expanding
// anything, or false when the word needs expansion (variables, globs that may
// match, substitutions).
func literal(wd *syntax.Word) (string, bool) {
	if wd == nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range wd.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, "*?[{") || (len(b.String()) == 0 && strings.HasPrefix(x.Value, "~")) {
				return "", false
			}
			b.WriteString(unescape(x.Value))
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			if x.Dollar {
				return "", false
			}
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescapeDbl(l.Value))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescape removes the backslashes of an unquoted literal, and
// backslash-newline line continuations.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDbl removes the backslashes that are special inside double quotes.
func unescapeDbl(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Insert returns src with text inserted before each byte offset in at.
// Offsets may be given in any order; duplicates insert once.
func Insert(src string, at []int, text string) string {
	if len(at) == 0 {
		return src
	}
	offs := append([]int(nil), at...)
	sort.Ints(offs)
	var b strings.Builder
	b.Grow(len(src) + len(offs)*len(text))
	prev := 0
	last := -1
	for _, o := range offs {
		if o == last || o < 0 || o > len(src) {
			continue
		}
		b.WriteString(src[prev:o])
		b.WriteString(text)
		prev, last = o, o
	}
	b.WriteString(src[prev:])
	return b.String()
}
