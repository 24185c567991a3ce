// Package shelltest generates valid bash for property tests and fuzzing:
// random syntax trees printed by mvdan.cc/sh's printer, so every output is
// a line bash itself would parse, with every kind of node the parser makes
// for bash (NodeKinds) mixed at random depth: pipelines with `!` and
// redirect-only stages, wrappers, assignments and declarations of the
// variables that decide lookup, arithmetic and test clauses, loops, case,
// coprocesses, functions, substitutions, heredocs, quoting of every kind.
// Its vocabulary holds payloads an oracle can see run: the program `touch`,
// a directory `evil` of look-alike programs to put on PATH, and the value
// a[$(touch pwned)] that runs `touch` wherever bash evaluates it as
// arithmetic. Every loop it writes ends. It also requotes words, the move
// a model makes to dodge a rule.
package shelltest

import (
	"bytes"
	"math/rand/v2"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Programs and words the generator draws from: programs gotk rewrites,
// programs host rules name, wrappers, and builtins that redefine names.
var (
	programs = []string{"git", "ls", "cat", "grep", "go", "npm", "rm", "curl", "make", "find", "head", "tail", "wc", "diff", "tree", "echo", "cd",
		"timeout", "env", "command", "builtin", "exec", "nice", "nohup", "alias", "hash", "eval", "source", "gotk",
		"touch", "printf", "read", "file", "du", "test", "pwd", "mapfile", "set"}
	words = []string{"status", "log", "diff", "push", "--force", "-la", "test", "./...", "-f", "--file=x", "/etc/passwd", "..", "~/x", "5", "-i",
		"PATH=/x", "-p", "-u", "a b", "it's", "*.go", "-n", "3", "origin", "main", "HEAD~1", "-C", "/tmp", "--no-index", "x.txt", "-", "--",
		"pwned", "-v", "PATH", "x", "a[x]", "PATH=evil", Payload, "--files0-from=x.txt", "-m", "declare", "let"}
	// names are the variables assignments, loops and reads use: ordinary
	// ones, the ones that decide lookup, and x, which arithmetic reads.
	names = []string{"x", "FOO", "PATH", "GOTK_DISABLED", "LANG", "BASH_ENV", "IFS", "CDPATH", "BASH_CMDS", "GIT_DIR"}
	// values are what they are given.
	values = []string{"/usr/bin", "1", "x", "evil", Payload, "PATH=0", "a b"}
)

// Payload is a value that runs `touch pwned` wherever bash evaluates it
// as arithmetic (as a name's value in (( )), let, [[ -eq ]], a subscript).
const Payload = "a[$(touch pwned)]"

// Gen returns one random bash command line of at most about depth levels.
func Gen(r *rand.Rand, depth int) string {
	return GenFrom(r, depth, Vocab{Programs: programs, Words: words})
}

// Vocab is what a generated line's commands are made of: program words
// and argument words.
type Vocab struct{ Programs, Words []string }

// GenFrom is Gen with commands drawn from v: an oracle that runs lines
// draws from read-only commands, so that more lines are allowed and the
// constructs around them are what is tested.
func GenFrom(r *rand.Rand, depth int, v Vocab) string {
	g := gen{r: r, programs: v.Programs, words: v.Words}
	f := &syntax.File{}
	n := 1 + r.IntN(3)
	for i := 0; i < n; i++ {
		st := g.stmt(depth, false)
		st.Background = r.IntN(10) == 0 // only at the top: the printer misplaces a `;` after a nested one
		f.Stmts = append(f.Stmts, st)
	}
	var b bytes.Buffer
	if err := syntax.NewPrinter(syntax.Minify(r.IntN(2) == 0)).Print(&b, f); err != nil {
		return "true"
	}
	out := strings.TrimRight(b.String(), "\n")
	// On lines of their own: the printer has no place for a comment or a
	// heredoc's body in a tree without positions.
	if r.IntN(6) == 0 {
		out += "\n# a comment; " + g.pick(g.programs)
	}
	if r.IntN(8) == 0 {
		out = g.pick(g.programs) + " <<EOF\n$x\nEOF\n" + out
	}
	return out
}

type gen struct {
	r               *rand.Rand
	programs, words []string
}

func (g gen) pick(list []string) string { return list[g.r.IntN(len(list))] }

func lit(s string) *syntax.Lit { return &syntax.Lit{Value: s} }

// word returns s as a word quoted one of several ways.
func (g gen) word(s string) *syntax.Word {
	return &syntax.Word{Parts: Quoted(g.r, s)}
}

// Quoted returns the parts of a word whose value is s, spelled one of the
// ways a shell accepts: plain (escaped where needed), single-quoted,
// double-quoted, split in two halves with different quoting, or with
// every character backslash-escaped.
func Quoted(r *rand.Rand, s string) []syntax.WordPart {
	switch k := r.IntN(6); {
	case k == 1 && !strings.Contains(s, "'"):
		return []syntax.WordPart{&syntax.SglQuoted{Value: s}}
	case k == 2 && !strings.ContainsAny(s, "\"\\$`!"):
		return []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{lit(s)}}}
	case k == 3 && len(s) > 1:
		h := len(s) / 2
		return append(Quoted(r, s[:h]), Quoted(r, s[h:])...)
	case k == 4:
		var b strings.Builder
		for _, c := range s {
			b.WriteByte('\\')
			b.WriteRune(c)
		}
		return []syntax.WordPart{lit(b.String())}
	}
	return []syntax.WordPart{lit(escape(s))}
}

// escape backslash-escapes the characters a shell would treat specially.
func escape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(" \t'\"\\$`*?[]{}()<>|&;#~!=", c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func (g gen) call() *syntax.CallExpr {
	c := &syntax.CallExpr{}
	if g.r.IntN(12) == 0 {
		c.Assigns = append(c.Assigns, g.assign(true))
		return c // assignments only
	}
	if g.r.IntN(6) == 0 {
		// before a command, bash takes no array
		c.Assigns = append(c.Assigns, &syntax.Assign{Name: lit(g.pick(names)), Value: g.word(g.pick(values))})
	}
	c.Args = append(c.Args, g.word(g.pick(g.programs)))
	for n := g.r.IntN(4); n > 0; n-- {
		c.Args = append(c.Args, g.arg())
	}
	return c
}

// arg is one argument word: mostly a literal, else an expansion of one of
// the kinds bash has.
func (g gen) arg() *syntax.Word {
	part := func(p syntax.WordPart) *syntax.Word { return &syntax.Word{Parts: []syntax.WordPart{p}} }
	switch g.r.IntN(24) {
	case 0:
		return part(&syntax.ParamExp{Short: true, Param: lit(g.pick([]string{"X", "x"}))})
	case 1:
		return part(&syntax.CmdSubst{Stmts: []*syntax.Stmt{{Cmd: g.call()}}})
	case 2:
		return part(g.paramExp())
	case 3:
		return part(&syntax.ArithmExp{X: g.arithm(2)})
	case 4:
		return part(&syntax.ProcSubst{Op: syntax.CmdIn, Stmts: []*syntax.Stmt{{Cmd: g.call()}}})
	case 5:
		return part(&syntax.ExtGlob{Op: syntax.GlobOne, Pattern: lit("a|b")})
	case 6:
		return part(&syntax.DblQuoted{Parts: []syntax.WordPart{lit("v="), g.paramExp()}})
	}
	return g.word(g.pick(g.words))
}

// paramExp is a ${…} of one of bash's forms: a subscript, a slice, an
// indirection, a default that assigns, a length.
func (g gen) paramExp() *syntax.ParamExp {
	name := lit(g.pick(names))
	switch g.r.IntN(6) {
	case 0:
		return &syntax.ParamExp{Param: name, Index: g.arithm(1)}
	case 1:
		return &syntax.ParamExp{Param: name, Slice: &syntax.Slice{Offset: g.arithm(1), Length: g.arithm(0)}}
	case 2:
		return &syntax.ParamExp{Param: lit("x"), Excl: true}
	case 3:
		return &syntax.ParamExp{Param: name, Exp: &syntax.Expansion{Op: syntax.AssignUnsetOrNull, Word: g.word(g.pick(values))}}
	case 4:
		return &syntax.ParamExp{Param: name, Length: true}
	}
	return &syntax.ParamExp{Param: name}
}

// assign is NAME=value, NAME+=value, or with arrays NAME[i]=value or
// NAME=(…).
func (g gen) assign(arrays bool) *syntax.Assign {
	a := &syntax.Assign{Name: lit(g.pick(names))}
	k := g.r.IntN(6)
	if !arrays && k < 2 {
		k = 2
	}
	switch k {
	case 0:
		a.Index = g.arithm(0)
		a.Value = g.word(g.pick(values))
	case 1:
		a.Array = &syntax.ArrayExpr{Elems: []*syntax.ArrayElem{{Value: g.word(g.pick(values))}, {Index: g.arithm(0), Value: g.word(g.pick(values))}}}
	case 2:
		a.Append = true
		a.Value = g.word(g.pick(values))
	default:
		a.Value = g.word(g.pick(values))
	}
	return a
}

// arithm is an arithmetic expression: numbers and names (x holds what the
// line gave it), with binary, unary and parenthesised operators.
func (g gen) arithm(depth int) syntax.ArithmExpr {
	if depth <= 0 || g.r.IntN(3) == 0 {
		return &syntax.Word{Parts: []syntax.WordPart{lit(g.pick([]string{"1", "0", "x", "x", "i"}))}}
	}
	switch g.r.IntN(3) {
	case 0:
		return &syntax.UnaryArithm{Op: syntax.Not, X: g.arithm(depth - 1)}
	case 1:
		return &syntax.ParenArithm{X: g.arithm(depth - 1)}
	}
	op := []syntax.BinAritOperator{syntax.Add, syntax.Lss, syntax.Mul, syntax.Eql}[g.r.IntN(4)]
	return &syntax.BinaryArithm{Op: op, X: g.arithm(depth - 1), Y: g.arithm(depth - 1)}
}

// test is a [[ … ]] expression.
func (g gen) test(depth int) syntax.TestExpr {
	w := func(s string) *syntax.Word { return g.word(s) }
	switch k := g.r.IntN(5); {
	case k == 0 && depth > 0:
		return &syntax.ParenTest{X: g.test(depth - 1)}
	case k == 1 && depth > 0:
		return &syntax.BinaryTest{Op: syntax.AndTest, X: g.test(depth - 1), Y: g.test(depth - 1)}
	case k == 2:
		return &syntax.BinaryTest{Op: syntax.TsEql, X: w(g.pick([]string{"x", "1"})), Y: w("1")}
	case k == 3:
		return &syntax.UnaryTest{Op: syntax.TsVarSet, X: w(g.pick([]string{"x", "a[x]"}))}
	}
	return &syntax.UnaryTest{Op: syntax.TsExists, X: w(g.pick(g.words))}
}

// decl is export/declare/local/readonly/typeset with a flag, and NAME=…
// written plainly or as one quoted word.
func (g gen) decl() *syntax.DeclClause {
	d := &syntax.DeclClause{Variant: lit(g.pick([]string{"export", "declare", "local", "readonly", "typeset"}))}
	if g.r.IntN(2) == 0 {
		d.Args = append(d.Args, &syntax.Assign{Naked: true, Value: g.word(g.pick([]string{"-x", "-i", "-a", "-r", "-g"}))})
	}
	if g.r.IntN(3) == 0 {
		d.Args = append(d.Args, &syntax.Assign{Naked: true, Value: g.word(g.pick(names) + "=" + g.pick(values))})
	} else {
		d.Args = append(d.Args, g.assign(true))
	}
	return d
}

func (g gen) redirs() []*syntax.Redirect {
	if g.r.IntN(4) != 0 {
		return nil
	}
	switch g.r.IntN(4) {
	case 0:
		return []*syntax.Redirect{{Op: syntax.DplOut, N: lit("2"), Word: g.word("1")}}
	case 1:
		return []*syntax.Redirect{{Op: syntax.RdrOut, Word: g.word("out.txt")}}
	case 2:
		return []*syntax.Redirect{{Op: syntax.RdrOut, Word: g.word("/dev/null")}}
	}
	return []*syntax.Redirect{{Op: syntax.RdrIn, Word: g.word("in.txt")}}
}

// stmt returns a statement; a pipeline stage (stage) cannot carry `!`.
func (g gen) stmt(depth int, stage bool) *syntax.Stmt {
	st := &syntax.Stmt{Negated: !stage && g.r.IntN(8) == 0, Redirs: g.redirs()}
	if depth <= 0 {
		st.Cmd = g.call()
		return st
	}
	switch g.r.IntN(24) {
	case 0, 1, 2:
		op := []syntax.BinCmdOperator{syntax.AndStmt, syntax.OrStmt, syntax.Pipe, syntax.Pipe, syntax.PipeAll}[g.r.IntN(5)]
		pipe := op == syntax.Pipe || op == syntax.PipeAll
		// the left side of && and || cannot be negated a second time
		x, y := g.stmt(depth-1, true), g.stmt(depth-1, pipe)
		if op == syntax.Pipe && g.r.IntN(5) == 0 {
			// a pipeline stage made only of redirects (it once crashed the walker)
			x = &syntax.Stmt{Redirs: []*syntax.Redirect{{Op: syntax.DplOut, N: lit("2"), Word: g.word("1")}}}
		}
		st.Cmd = &syntax.BinaryCmd{Op: op, X: x, Y: y}
	case 3:
		st.Cmd = &syntax.Subshell{Stmts: []*syntax.Stmt{g.stmt(depth-1, false)}}
	case 4:
		st.Cmd = &syntax.Block{Stmts: []*syntax.Stmt{g.stmt(depth-1, false)}}
	case 5:
		st.Cmd = &syntax.FuncDecl{Name: lit(g.pick([]string{"git", "ls", "f"})), Parens: true, Body: &syntax.Stmt{Cmd: &syntax.Block{Stmts: []*syntax.Stmt{g.stmt(depth-1, false)}}}}
	case 6:
		st.Cmd = &syntax.IfClause{Cond: []*syntax.Stmt{g.stmt(depth-1, false)}, Then: []*syntax.Stmt{g.stmt(depth-1, false)}}
	case 7:
		st.Cmd = &syntax.TimeClause{Stmt: g.stmt(depth-1, true)}
	case 8:
		st.Cmd = g.decl()
	case 9:
		st.Cmd = &syntax.ArithmCmd{X: g.arithm(2)}
	case 10:
		// let's words take no parentheses (!(0) would be a glob), and it
		// stands in a block: the parser would read a | after it as arithmetic
		let := &syntax.LetClause{Exprs: []syntax.ArithmExpr{&syntax.BinaryArithm{Op: syntax.Add, X: g.arithm(0), Y: g.arithm(0)}}}
		st.Cmd = &syntax.Block{Stmts: []*syntax.Stmt{{Cmd: let}}}
	case 11:
		st.Cmd = &syntax.TestClause{X: g.test(2)}
	case 12:
		// a for loop over words (its name is assigned) or a counted one
		var loop syntax.Loop = &syntax.WordIter{Name: lit(g.pick(names)), InPos: syntax.NewPos(1, 1, 1), Items: []*syntax.Word{g.word(g.pick(values))}}
		if g.r.IntN(2) == 0 {
			i := func() *syntax.Word { return &syntax.Word{Parts: []syntax.WordPart{lit("i")}} }
			loop = &syntax.CStyleLoop{
				Init: &syntax.BinaryArithm{Op: syntax.Assgn, X: i(), Y: &syntax.Word{Parts: []syntax.WordPart{lit("0")}}},
				Cond: &syntax.BinaryArithm{Op: syntax.Lss, X: i(), Y: g.arithm(0)},
				Post: &syntax.UnaryArithm{Op: syntax.Inc, Post: true, X: i()},
			}
		}
		st.Cmd = &syntax.ForClause{Loop: loop, Do: []*syntax.Stmt{g.stmt(depth-1, false)}}
	case 13:
		// while false / until true: the body is there, and never loops
		until := g.r.IntN(2) == 0
		cond := map[bool]string{false: "false", true: "true"}[until]
		st.Cmd = &syntax.WhileClause{Until: until, Cond: []*syntax.Stmt{{Cmd: &syntax.CallExpr{Args: []*syntax.Word{g.word(cond)}}}}, Do: []*syntax.Stmt{g.stmt(depth-1, false)}}
	case 14:
		st.Cmd = &syntax.CaseClause{Word: g.arg(), Items: []*syntax.CaseItem{
			{Op: syntax.Break, Patterns: []*syntax.Word{{Parts: []syntax.WordPart{&syntax.ExtGlob{Op: syntax.GlobOne, Pattern: lit("a|x")}}}}, Stmts: []*syntax.Stmt{g.stmt(depth-1, false)}},
			{Op: syntax.Break, Patterns: []*syntax.Word{{Parts: []syntax.WordPart{lit("*")}}}, Stmts: []*syntax.Stmt{g.stmt(depth-1, false)}},
		}}
	case 15:
		st.Cmd = &syntax.CoprocClause{Name: &syntax.Word{Parts: []syntax.WordPart{lit(g.pick(names))}}, Stmt: &syntax.Stmt{Cmd: &syntax.Block{Stmts: []*syntax.Stmt{g.stmt(depth-1, false)}}}}
		st.Redirs = nil
	default:
		st.Cmd = g.call()
	}

	last := st.Cmd // a pipeline's redirects are printed after its last stage
	for b, ok := last.(*syntax.BinaryCmd); ok; b, ok = last.(*syntax.BinaryCmd) {
		last = b.Y.Cmd
	}
	switch last.(type) {
	case *syntax.TimeClause, *syntax.DeclClause, *syntax.ArithmCmd, *syntax.LetClause, *syntax.TestClause:
		st.Redirs = nil // the printer would misplace them, or let would read them as arithmetic
	}
	return st
}

// Spell returns one random spelling of a word whose value is s.
func Spell(r *rand.Rand, s string) string {
	var b strings.Builder
	w := &syntax.Word{Parts: Quoted(r, s)}
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// NodeKinds are the node types of mvdan.cc/sh's syntax tree that its
// parser makes for bash; Gen's output holds each of them
// (TestGenCoversEveryNodeKind). The package's other node types are never
// made for bash: NotBash.
var NodeKinds = []string{
	"ArithmCmd", "ArithmExp", "ArrayElem", "ArrayExpr", "Assign", "BinaryArithm", "BinaryCmd", "BinaryTest",
	"Block", "CStyleLoop", "CallExpr", "CaseClause", "CaseItem", "CmdSubst", "Comment", "CoprocClause",
	"DblQuoted", "DeclClause", "ExtGlob", "File", "ForClause", "FuncDecl", "IfClause", "LetClause", "Lit",
	"ParamExp", "ParenArithm", "ParenTest", "ProcSubst", "Redirect", "SglQuoted", "Stmt", "Subshell",
	"TestClause", "TimeClause", "UnaryArithm", "UnaryTest", "WhileClause", "Word", "WordIter",
}

// NotBash are the node types the parser never makes for bash: BraceExp
// (only syntax.SplitBraces makes it), FlagsArithm (zsh), TestDecl (bats).
var NotBash = []string{"BraceExp", "FlagsArithm", "TestDecl"}

// Programs returns the program words Gen draws from.
func Programs() []string { return append([]string(nil), programs...) }
