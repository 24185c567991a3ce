package droid

import (
	"strings"

	"github.com/gotk-dev/gotk/core/host"
	"mvdan.cc/sh/v3/syntax"
)

// KnownSafe reports whether Factory Droid's built-in allow rules run
// the whole line without asking, whatever the model's risk level (droid
// 0.225.2, in both of its rule engines, the legacy lists and permission
// rules): every command is `ls`, `dir`, `pwd` or `git status|diff|log|show|
// blame|ls-files` (the program word as is: no path, no wrapper, no
// assignment), `cd`, or one of the filters Droid ignores beside an allowed
// command (`head`, `tail`, `grep`, `cat`, `echo`) — at least one allowed —
// joined by ;, &&, || or |, on one line, every word plain (quotes, no
// expansion, glob, redirect or escape). Anything else is not known safe:
// the cost is only that gotk stays silent. The user's own lists and rules
// are Load's: a default entry the user's commandAllowlist
// leaves out is an ask rule there, and this is consulted only when no rule
// matched.
func KnownSafe(cmd string) bool {
	if strings.ContainsAny(cmd, "\n\r") {
		return false
	}
	cmds, ok := host.PlainCommands(cmd, droidPlainWord)
	if !ok || !namesUnquoted(cmd) {
		return false
	}
	allowed := false
	for _, argv := range cmds {
		switch {
		case droidAllowed(argv):
			allowed = true
		case argv[0] == "cd" || droidFilters[argv[0]]:
		default:
			return false
		}
	}
	return allowed
}

// droidFilters are the commands Droid leaves out of its allow check when
// the line has others.
var droidFilters = func() map[string]bool {
	return map[string]bool{"head": true, "tail": true, "grep": true, "cat": true, "echo": true}
}()

// droidAllowed: Droid's default allow rules (builtin/directory-list-allow,
// pwd-allow, git-inspection-allow).
func droidAllowed(argv []string) bool {
	switch argv[0] {
	case "ls", "dir", "pwd":
		return true
	case "git":
		if len(argv) > 1 {
			switch argv[1] {
			case "status", "diff", "log", "show", "blame", "ls-files":
				return true
			}
		}
	}
	return false
}

// droidPlainWord is the value of a word Droid counts as proven: literal
// text and quotes, no expansion, glob, escape or special character, not
// starting with ~ or =.
func droidPlainWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "$`{}*?[]()<>#;&|\\") || (i == 0 && (strings.HasPrefix(p.Value, "~") || strings.HasPrefix(p.Value, "="))) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar || strings.Contains(p.Value, `\`) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsAny(l.Value, "\\$`") {
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

// namesUnquoted: every command's program word, and git's subcommand, is
// written without quotes. Droid names a command by its words as typed
// (its normaliser X): `g'i't` is no program it allows, and a quoted word
// is skipped where it looks for git's subcommand (`git 'status'` is git).
func namesUnquoted(cmd string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return false
	}
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, is := n.(*syntax.CallExpr); is {
			for i, w := range c.Args {
				if i > 1 || i == 1 && c.Args[0].Lit() != "git" {
					break
				}
				if w.Lit() == "" {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}
