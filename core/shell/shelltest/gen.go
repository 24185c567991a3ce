// Package shelltest generates valid bash for property tests and fuzzing:
// random syntax trees printed by mvdan.cc/sh's printer, so every output is
// a line bash itself would parse, with the constructs that matter to gotk
// (pipelines with `!` and redirect-only stages, wrappers, assignments,
// functions, substitutions, quoting of every kind, subshells and blocks)
// mixed at random depth. It also requotes words, the move a model makes to
// dodge a rule.
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
		"timeout", "env", "command", "builtin", "exec", "nice", "nohup", "alias", "hash", "eval", "source", "gotk"}
	words = []string{"status", "log", "diff", "push", "--force", "-la", "test", "./...", "-f", "--file=x", "/etc/passwd", "..", "~/x", "5", "-i",
		"PATH=/x", "-p", "-u", "a b", "it's", "*.go", "-n", "3", "origin", "main", "HEAD~1", "-C", "/tmp", "--no-index", "x.txt", "-", "--"}
)

// Gen returns one random bash command line of at most about depth levels.
func Gen(r *rand.Rand, depth int) string {
	g := gen{r: r}
	f := &syntax.File{}
	n := 1 + r.IntN(3)
	for i := 0; i < n; i++ {
		f.Stmts = append(f.Stmts, g.stmt(depth, false))
	}
	var b bytes.Buffer
	if err := syntax.NewPrinter(syntax.Minify(r.IntN(2) == 0)).Print(&b, f); err != nil {
		return "true"
	}
	return strings.TrimRight(b.String(), "\n")
}

type gen struct{ r *rand.Rand }

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
	if g.r.IntN(6) == 0 {
		name := g.pick([]string{"PATH", "FOO", "GOTK_DISABLED", "LANG"})
		c.Assigns = append(c.Assigns, &syntax.Assign{Name: lit(name), Value: g.word(g.pick([]string{"/usr/bin", "1", "x"}))})
	}
	c.Args = append(c.Args, g.word(g.pick(programs)))
	for n := g.r.IntN(4); n > 0; n-- {
		switch g.r.IntN(10) {
		case 0:
			c.Args = append(c.Args, &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{Short: true, Param: lit("X")}}})
		case 1:
			c.Args = append(c.Args, &syntax.Word{Parts: []syntax.WordPart{&syntax.CmdSubst{Stmts: []*syntax.Stmt{{Cmd: g.call()}}}}})
		default:
			c.Args = append(c.Args, g.word(g.pick(words)))
		}
	}
	return c
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
	switch g.r.IntN(10) {
	case 0, 1, 2:
		op := []syntax.BinCmdOperator{syntax.AndStmt, syntax.OrStmt, syntax.Pipe, syntax.Pipe, syntax.PipeAll}[g.r.IntN(5)]
		pipe := op == syntax.Pipe || op == syntax.PipeAll
		// the left side of && and || cannot be negated a second time
		x, y := g.stmt(depth-1, true), g.stmt(depth-1, pipe)
		if op == syntax.Pipe && g.r.IntN(5) == 0 {
			// a pipeline stage made only of redirects (issue 11's crash)
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
	default:
		st.Cmd = g.call()
	}
	if _, ok := st.Cmd.(*syntax.TimeClause); ok {
		st.Redirs = nil // the printer would put them before `time`
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
