package host

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// CodexKnownSafe mirrors Codex's is_known_safe_command
// (openai/codex codex-rs/shell-command/src/command_safety/is_safe_command.rs,
// read at 226bd15): a script of plain commands — literal or quoted words
// only, joined by &&, ||, ; or | — each of which is on Codex's safe list.
// Codex runs such a command without asking under every approval policy.
// Anything this parser is unsure of is not safe: the cost is only that
// gotk stays silent.
func CodexKnownSafe(cmd string) bool {
	cmds, ok := plainCommands(cmd, plainWord)
	if !ok {
		return false
	}
	for _, argv := range cmds {
		if !safeArgv(argv) {
			return false
		}
	}
	return true
}

// plainCommands returns the argv of each simple command of a script made
// only of simple commands of plain words (word decides which) joined by
// &&, ||, ; or | — no negation, background, redirect or assignment — and
// false for any other script.
func plainCommands(cmd string, word func(*syntax.Word) (string, bool)) ([][]string, bool) {
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

// plainWord is the value of a word made of literal text and quotes
// without expansions; globs are refused.
func plainWord(w *syntax.Word) (string, bool) {
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

// alwaysSafe are the programs Codex runs without asking whatever their
// arguments (numfmt and tac only on Linux, so not here).
var alwaysSafe = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"cat": true, "cd": true, "cut": true, "echo": true, "expr": true, "false": true, "grep": true,
		"head": true, "id": true, "ls": true, "nl": true, "paste": true, "pwd": true, "rev": true,
		"seq": true, "stat": true, "tail": true, "tr": true, "true": true, "uname": true, "uniq": true,
		"wc": true, "which": true, "whoami": true,
	}
})

// unsafeFlags are the arguments that make find and rg need approval.
var unsafeFlags = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"find": {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"},
		"rg":   {"--pre", "--hostname-bin", "--search-zip", "-z"},
	}
})

func safeArgv(argv []string) bool {
	prog := argv[0]
	if alwaysSafe()[prog] {
		return true
	}
	bad, ok := unsafeFlags()[prog]
	if !ok {
		return false // git, sed, base64… are not rewritten by gotk or need approval
	}
	for _, a := range argv[1:] {
		for _, f := range bad {
			if a == f || strings.HasPrefix(a, f+"=") {
				return false
			}
		}
	}
	return true
}
