package host

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// PlainCommands returns the argv of each simple command of a script made
// only of simple commands of plain words (word decides which) joined by
// &&, ||, ; or | — no negation, background, redirect or assignment — and
// false for any other script.
func PlainCommands(cmd string, word func(*syntax.Word) (string, bool)) ([][]string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) == 0 {
		return nil, false
	}
	var out [][]string
	var walk func(st *syntax.Stmt) bool
	walk = func(st *syntax.Stmt) bool {
		if st == nil || st.Negated || st.Background || st.Coprocess || st.Disown || len(st.Redirs) > 0 {
			return false
		}
		switch x := st.Cmd.(type) {
		case *syntax.BinaryCmd:
			switch x.Op {
			case syntax.AndStmt, syntax.OrStmt, syntax.Pipe:
				return walk(x.X) && walk(x.Y)
			}
		case *syntax.CallExpr:
			if len(x.Assigns) > 0 || len(x.Args) == 0 {
				return false
			}
			argv := make([]string, len(x.Args))
			for i, w := range x.Args {
				v, ok := word(w)
				if !ok {
					return false
				}
				argv[i] = v
			}
			out = append(out, argv)
			return true
		}
		return false
	}
	for _, st := range f.Stmts {
		if !walk(st) {
			return nil, false
		}
	}
	return out, true
}

// PlainWord is the value of a word made of literal text and quotes
// without expansions; globs are refused.
func PlainWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, `*?[]{}~\$`) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsAny(l.Value, `\$`+"`") {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
