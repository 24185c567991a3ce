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

// Kind says which statement a Command is. Every statement of a line is a
// Command: a part the host's rules are matched on and that must itself be
// allowed for the line to be. Only a Simple command runs a program, so
// only one can be rewritten.
type Kind uint8

const (
	// Simple is a simple command: a program and its words.
	Simple Kind = iota
	// Assignment is a statement of assignments only (a=1 b=2).
	Assignment
	// Declaration is export, declare, typeset, local or readonly.
	Declaration
	// Arithmetic is an (( … )) command or the header of a for (( … )) loop.
	Arithmetic
	// Test is a [[ … ]] clause.
	Test
	// Let is a let builtin.
	Let
)

func (k Kind) String() string {
	return [...]string{"simple command", "assignment", "declaration", "arithmetic command", "test clause", "let"}[k]
}

// Command is one statement and where it sits: a simple command, or a
// statement of another Kind, whose Words are its keyword (export, let, …)
// and its arguments as typed, or for (( … )) and [[ … ]] the clause as one
// word whose value is unknown.
type Command struct {
	Start, End int
	Kind       Kind
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
	// Out and Err are where its standard output and error lead once every
	// redirect around it and its own are applied (SinkStdout, SinkPipe,
	// SinkNull…): `2>&1 >/dev/null` sends errors on and output nowhere.
	Out, Err string
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
	// names or how a word is evaluated (a function or alias definition,
	// hash, enable, source, eval, an assignment to PATH or another variable
	// of lookupVar by any form, arithmetic on a variable): nothing on such a
	// line is rewritten, and no permission is inferred from its words.
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
// than MaxDepth (or with parentheses nested deeper than twice that), or
// holding a control character.
var ErrTooComplex = errors.New("the command is too long, too deeply nested, or holds control characters")

// Parse parses src as a bash command line. A syntax error is returned as is;
// callers treat it as "do not touch".
func Parse(src string) (*Script, error) {
	if len(src) > MaxLen || hasControl(src) || parenDepth(src) > 2*MaxDepth {
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

// parenDepth is how deep parentheses nest in src, quotes not read (a
// quoted one counts too, which costs at most a refusal): the parser takes
// seconds over thousands of nested (( before the walker could refuse them.
func parenDepth(src string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(':
			if depth++; depth > deepest {
				deepest = depth
			}
		case ')':
			depth = max(depth-1, 0)
		}
	}
	return deepest
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
	fds                            fdTable // where output leads here
	// errToOut: the statement's stderr joins its stdout after its own
	// redirects (it feeds a pipe by |&)
	errToOut bool
}

// redirect applies a statement's own redirects, then the 2>&1 of a |&
// it feeds.
func (c *ctx) redirect(rs []*syntax.Redirect) {
	c.fds.apply(rs)
	if c.errToOut {
		c.fds.fd[2], c.errToOut = c.fds.get(1), false
	}
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
	c.redirect(st.Redirs)
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
		if x.Select {
			w.unsafe("a select loop")
		}
		if l, ok := x.Loop.(*syntax.CStyleLoop); ok {
			w.part(int(l.Pos().Offset()), int(l.End().Offset()), Arithmetic, []Word{w.unknown(l.Pos(), l.End())}, nil, c)
		}
		w.stmts(x.Do, c)
	case *syntax.CaseClause:
		for _, it := range x.Items {
			w.stmts(it.Stmts, c)
		}
	case *syntax.FuncDecl:
		w.redefines("a function definition")
		w.stmt(x.Body, c)
	case *syntax.DeclClause:
		words := []Word{w.word(&syntax.Word{Parts: []syntax.WordPart{x.Variant}})}
		for _, a := range x.Args {
			words = append(words, w.assignWord(a))
		}
		w.part(int(st.Pos().Offset()), int(st.End().Offset()), Declaration, words, x.Args, c)
	case *syntax.LetClause:
		at := int(x.Let.Offset())
		words := []Word{{Start: at, End: at + 3, Raw: "let", Value: "let", Literal: true}}
		for _, e := range x.Exprs {
			words = append(words, w.unknown(e.Pos(), e.End()))
		}
		w.part(int(st.Pos().Offset()), int(st.End().Offset()), Let, words, nil, c)
	case *syntax.ArithmCmd:
		w.part(int(st.Pos().Offset()), int(st.End().Offset()), Arithmetic, []Word{w.unknown(x.Pos(), x.End())}, nil, c)
	case *syntax.TestClause:
		w.part(int(st.Pos().Offset()), int(st.End().Offset()), Test, []Word{w.unknown(x.Pos(), x.End())}, nil, c)
	case *syntax.TimeClause:
		in := c
		in.timed = true
		w.stmt(x.Stmt, in)
	case *syntax.CoprocClause:
		in := c
		in.opaque = true
		w.stmt(x.Stmt, in)
	default:
		// A kind of statement gotk does not model (a bats @test, or one a
		// newer parser adds): nothing on the line is rewritten or allowed.
		w.unsafe(fmt.Sprintf("a construct gotk does not model (%T)", x))
	}
}

// pipeline flattens a | b | c into its stages.
func (w *walker) pipeline(st *syntax.Stmt, c ctx) {
	var stages []*syntax.Stmt
	all := false
	stderrToo := map[int]bool{} // stage i's stderr feeds the pipe too (|&)
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !s.Negated && len(s.Redirs) == 0 {
			if b.Op == syntax.PipeAll {
				all = true
			}
			flatten(b.X)
			stderrToo[len(stages)-1] = b.Op == syntax.PipeAll
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
	stderrToo[len(stages)-1] = top.Op == syntax.PipeAll
	flatten(top.Y)
	id := len(w.s.Pipelines)
	p := Pipeline{PipeAll: all}
	for i, s := range stages {
		in := c
		if i < len(stages)-1 {
			// the pipe comes before the stage's own redirects; |& is a
			// 2>&1 after them
			in.fds.fd[1], in.errToOut = SinkPipe, stderrToo[i]
		}
		if call, ok := s.Cmd.(*syntax.CallExpr); ok {
			in.redirect(s.Redirs)
			idx := w.call(s, call, in, id, i, len(stages), all)
			p.Stages = append(p.Stages, idx)
			continue
		}
		p.Stages = append(p.Stages, -1)
		// A compound stage: its commands run, but their output is part of
		// the pipe in ways we do not model; never rewrite inside.
		in.opaque = true
		w.stmt(s, in)
	}
	w.s.Pipelines = append(w.s.Pipelines, p)
}

// call records a simple command, or a statement of assignments only, and
// returns its index.
func (w *walker) call(st *syntax.Stmt, x *syntax.CallExpr, c ctx, pipeID, idx, n int, all bool) int {
	cmd := w.command(int(st.Pos().Offset()), int(st.End().Offset()), c)
	cmd.PipeID, cmd.PipeIndex, cmd.PipeLen, cmd.PipeAll = pipeID, idx, n, all
	for _, a := range x.Assigns {
		name := ""
		if a.Name != nil {
			name = a.Name.Value
		}
		cmd.Assigns = append(cmd.Assigns, Assign{Name: name, Start: int(a.Pos().Offset())})
	}
	if len(x.Args) == 0 {
		cmd.Kind = Assignment
		for _, a := range x.Assigns {
			cmd.Words = append(cmd.Words, w.assignWord(a))
		}
	}
	for _, wd := range x.Args {
		cmd.Words = append(cmd.Words, w.word(wd))
	}
	if len(st.Redirs) > 0 && bareExec(cmd.Words) {
		w.unsafe("exec without a program: its redirects lead every later command's output elsewhere")
	}
	w.s.Commands = append(w.s.Commands, cmd)
	return len(w.s.Commands) - 1
}

// bareExec: the words are exec (behind command or builtin) with no
// program after it, or with one gotk cannot read: its redirects then stay
// for the rest of the shell (`exec >/dev/null; go test` discards go
// test's output, not exec's).
func bareExec(words []Word) bool {
	i := 0
	for i < len(words) && words[i].Literal && (words[i].Value == "command" || words[i].Value == "builtin") {
		i++
	}
	if i == len(words) || !words[i].Literal || words[i].Value != "exec" {
		return false
	}
	rest := words[i+1:]
	return len(rest) == 0 || !rest[0].Literal || strings.HasPrefix(rest[0].Value, "-")
}

// command starts a Command spanning start..end in context c.
func (w *walker) command(start, end int, c ctx) Command {
	if end > len(w.s.Src) {
		end = len(w.s.Src)
	}
	return Command{
		Start: start, End: end, PipeID: -1, PipeLen: 1,
		Opaque: c.opaque || c.subst, Substituted: c.subst,
		InSubshell: c.subshell, Timed: c.timed,
		Out: c.fds.get(1), Err: c.fds.get(2),
	}
}

// part records a statement that is not a simple command.
func (w *walker) part(start, end int, k Kind, words []Word, assigns []*syntax.Assign, c ctx) {
	cmd := w.command(start, end, c)
	cmd.Kind, cmd.Words = k, words
	for _, a := range assigns {
		if a.Name != nil {
			cmd.Assigns = append(cmd.Assigns, Assign{Name: a.Name.Value, Start: int(a.Pos().Offset())})
		}
	}
	w.s.Commands = append(w.s.Commands, cmd)
}

// unknown is a word spanning from..to whose value is not known before it
// runs (an arithmetic or test expression).
func (w *walker) unknown(from, to syntax.Pos) Word {
	start, end := int(from.Offset()), min(int(to.Offset()), len(w.s.Src))
	return Word{Start: start, End: end, Raw: w.s.Src[start:end]}
}

// assignWord is one assignment (NAME=value, NAME+=value, a bare NAME of a
// declaration, or a declaration's naked word) as a word: literal when its
// value is known.
func (w *walker) assignWord(a *syntax.Assign) Word {
	if a.Naked && a.Name == nil && a.Value != nil {
		return w.word(a.Value)
	}
	wd := w.unknown(a.Pos(), a.End())
	if a.Name == nil || a.Index != nil || a.Array != nil {
		return wd
	}
	v := ""
	if a.Value != nil {
		var ok bool
		if v, ok = literal(a.Value); !ok {
			return wd
		}
	}
	switch {
	case a.Naked:
		wd.Value = a.Name.Value
	case a.Append:
		wd.Value = a.Name.Value + "+=" + v
	default:
		wd.Value = a.Name.Value + "=" + v
	}
	wd.Literal = true
	return wd
}

func (w *walker) word(wd *syntax.Word) Word {
	start, end := int(wd.Pos().Offset()), int(wd.End().Offset())
	v, ok := literal(wd)
	return Word{Start: start, End: end, Raw: w.s.Src[start:end], Value: v, Literal: ok}
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
// attest and for every way of assigning a variable that decides lookup or
// evaluation (see names.go), and records commands inside substitutions
// (for permission checks). Every node kind of the parser's tree is named
// here: one it does not know makes the line unsafe.
func (w *walker) scanUnsafe(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case nil: // Walk's call after a node's children
		case *syntax.File, *syntax.Comment, *syntax.Stmt, *syntax.Word, *syntax.Lit, *syntax.SglQuoted,
			*syntax.DblQuoted, *syntax.ExtGlob, *syntax.Subshell, *syntax.Block, *syntax.IfClause,
			*syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause, *syntax.CaseItem, *syntax.BinaryCmd,
			*syntax.FuncDecl, *syntax.TimeClause, *syntax.TestClause, *syntax.ParenTest, *syntax.ArrayExpr,
			*syntax.BinaryArithm, *syntax.UnaryArithm, *syntax.ParenArithm:
			// what they hold is walked
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
			w.arithm(x.X)
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
			if x.N != nil && strings.HasPrefix(x.N.Value, "{") {
				w.assigned(strings.Trim(x.N.Value, "{}")) // {fd}>file sets fd
			}
		case *syntax.CallExpr:
			w.callAssigns(x)
		case *syntax.DeclClause:
			w.declAssigns(x.Variant.Value, nakedWords(x.Args))
		case *syntax.Assign:
			w.assign(x)
		case *syntax.ArrayElem:
			w.subscript(x.Index)
		case *syntax.ParamExp:
			w.paramExp(x)
		case *syntax.ArithmCmd:
			w.arithm(x.X)
		case *syntax.LetClause:
			for _, e := range x.Exprs {
				w.arithm(e)
			}
		case *syntax.CStyleLoop:
			w.arithm(x.Init)
			w.arithm(x.Cond)
			w.arithm(x.Post)
		case *syntax.WordIter:
			w.assigned(x.Name.Value)
		case *syntax.CoprocClause:
			if x.Name != nil {
				if v, ok := literal(x.Name); ok {
					w.assigned(v)
				} else {
					w.redefines("a coprocess named at run time")
				}
			}
		case *syntax.BinaryTest:
			w.testBinary(x)
		case *syntax.UnaryTest:
			w.testUnary(x)
		default:
			w.unsafe(fmt.Sprintf("a construct gotk does not model (%T)", x))
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
