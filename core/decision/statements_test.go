package decision

import (
	"testing"
)

// Every statement of a line is a part the host's rules are matched on and
// that must itself be allowed: assignments, declarations, arithmetic and
// test clauses and let no longer hide behind a read-only command, and any
// way of assigning a variable that decides lookup or evaluation keeps the
// line as written. These pin the reported examples, one class each; the
// principle is proved over generated bash by TestSandboxOracle.

// TestStatementsArePartsOfTheLine: with no rule, a line holding a
// statement that runs no program is not the host's read-only run, and
// gotk cannot tell whether Claude counts that statement as read-only: it
// says nothing.
func TestStatementsArePartsOfTheLine(t *testing.T) {
	e, _ := project(t, "")
	claude := Request{ReadOnlyAutoAllow: true}
	run(t, e, claude, []tc{
		{"git status", AllowRewrite, "gotk git status"},
		{"x='a[$(touch /tmp/pwn1)]'; (( x )); git status", Passthrough, ""},
		{"x=1; git status", Passthrough, ""},
		{"x=1 y=2 && git status", Passthrough, ""},
		{"export FOO=1 && git status", Passthrough, ""},
		{"declare FOO=1; git status", Passthrough, ""},
		{"typeset FOO=1; git status", Passthrough, ""},
		{"readonly FOO=1; git status", Passthrough, ""},
		{"f() { local FOO=1; }; git status", Passthrough, ""},
		{"(( 1 )) && git status", Passthrough, ""},
		{"[[ -f notes.txt ]] && git status", Passthrough, ""},
		{"let 1; git status", Passthrough, ""},
		{"for ((;0;)); do :; done; git status", Passthrough, ""},
		{"git status | { x=1; cat; }", Passthrough, ""},
		{"echo $(x=1) && git status", Passthrough, ""},
	})
	// Without the read-only run (the host asks about what no rule allows),
	// such a line is asked about as a whole, and rewritten.
	run(t, e, Request{}, []tc{
		{"export FOO=1 && git status", AskRewrite, "export FOO=1 && gotk git status"},
		{"[[ -f notes.txt ]] && git status", AskRewrite, "[[ -f notes.txt ]] && gotk git status"},
	})
}

// TestStatementRulesMatch: deny and ask rules on export, declare, let …
// match those statements, and an allow rule on one allows it.
func TestStatementRulesMatch(t *testing.T) {
	e, _ := project(t, `{"permissions":{"deny":["Bash(export:*)","Bash(declare:*)","Bash(let:*)","Bash(FOO=*)"],"ask":["Bash(typeset:*)"],"allow":["Bash(readonly:*)"]}}`)
	claude := Request{ReadOnlyAutoAllow: true}
	run(t, e, claude, []tc{
		{"export A=1 && git status", Deny, ""},
		{"export GIT_DIR=/tmp/other/.git && git status", Deny, ""},
		{"declare -x A=1; git status", Deny, ""},
		{`declare "A=1"; git status`, Deny, ""},
		{"let 1+1; git status", Deny, ""},
		{"FOO=1; git status", Deny, ""},
		{"echo $(export A=1); git status", Deny, ""},
		{"typeset A=1; git status", AskRewrite, "typeset A=1; gotk git status"},
		{"readonly A=1; git status", AllowRewrite, "readonly A=1; gotk git status"},
		// an allow rule cannot see through an expansion
		{"readonly A=$HOME; git status", Passthrough, ""},
	})
}

// TestRedefinitionByAnyForm: every form that assigns a variable deciding
// lookup or evaluation keeps the line as written, whatever the rules say.
func TestRedefinitionByAnyForm(t *testing.T) {
	e, _ := project(t, `{"permissions":{"allow":["Bash(printf:*)","Bash(declare:*)","Bash(export:*)","Bash(read:*)"]}}`)
	claude := Request{ReadOnlyAutoAllow: true}
	var cases []tc
	for _, c := range []string{
		`declare "PATH=/tmp/evil"; git status`,
		`export "PATH=/tmp/evil"; git status`,
		`readonly "PATH"=/tmp/evil; git status`,
		`local -x "PATH=/tmp/evil"; git status`,
		`declare -x PA"TH"=/tmp/evil; git status`,
		"printf -v PATH %s /tmp/evil; git status",
		"read PATH; git status",
		"mapfile -t PATH; git status",
		"readarray PATH; git status",
		"getopts a PATH; git status",
		"BASH_ALIASES[git]=/tmp/evil; git status",
		"BASH_CMDS[gotk]=/tmp/evil; git status",
		"declare BASH_CMDS[gotk]=/tmp/evil; git status",
		"CDPATH=/tmp; cd proj && cat notes.txt",
		"IFS=/; git status",
		"x='PATH=0'; (( x )); git status",
		"x='a[$(touch /tmp/pwn1)]'; (( x )); git status",
		"[[ $x -eq 1 ]]; git status",
		"printf -v 'a[$(touch /tmp/pwn1)]' 1; git status",
		"$d PATH=/tmp/evil; git status",
	} {
		cases = append(cases, tc{c, Passthrough, ""})
	}
	run(t, e, claude, cases)
	run(t, e, Request{AutoAllow: true}, cases)
}

// TestCdpathFromTheEnvironment: with CDPATH set, `cd sub` may land in any
// directory on it, so what follows cannot be placed inside the project.
func TestCdpathFromTheEnvironment(t *testing.T) {
	e, _ := project(t, "")
	claude := Request{ReadOnlyAutoAllow: true}
	run(t, e, claude, []tc{{"cd sub && cat a.txt", AllowRewrite, "cd sub && gotk cat a.txt"}})
	e2, _ := project(t, "")
	e2.Env.Getenv = func(k string) string {
		if k == "CDPATH" {
			return e2.Env.Home
		}
		return ""
	}
	run(t, e2, claude, []tc{
		{"cd sub && cat a.txt", Passthrough, ""},
		{"cd ./sub && cat a.txt", AllowRewrite, "cd ./sub && gotk cat a.txt"},
	})
}

// TestReadOnlyClaimsWithWritingFlags: a flag that writes or assigns takes
// a command out of Claude's read-only set. Claude Code itself runs du and
// wc --files0-from and a negated read-only command without asking
// (measured, e2e readonly-writing-flags): those stay read-only.
func TestReadOnlyClaimsWithWritingFlags(t *testing.T) {
	e, _ := project(t, "")
	claude := Request{ReadOnlyAutoAllow: true}
	run(t, e, claude, []tc{
		{"file notes.txt && git status", AllowRewrite, "file notes.txt && gotk git status"},
		{"file -C -m notes.txt && git status", AskRewrite, "file -C -m notes.txt && gotk git status"},
		{"file -Cm notes.txt && git status", AskRewrite, "file -Cm notes.txt && gotk git status"},
		{"file -f notes.txt && git status", AskRewrite, "file -f notes.txt && gotk git status"},
		{"printf x && git status", AllowRewrite, "printf x && gotk git status"},
		{"printf -v x %s y; git status", AskRewrite, "printf -v x %s y; gotk git status"},
		{"printf -vx %s y; git status", AskRewrite, "printf -vx %s y; gotk git status"},
		{"find . -files0-from notes.txt && git status", AskRewrite, "gotk find . -files0-from notes.txt && gotk git status"},
		{"du --files0-from=notes.txt && git status", AllowRewrite, "du --files0-from=notes.txt && gotk git status"},
		{"wc --files0-from notes.txt", AllowRewrite, "gotk wc --files0-from notes.txt"},
		{"du --files0-from=/etc/list && git status", AskRewrite, "du --files0-from=/etc/list && gotk git status"},
		{"! git status", AllowRewrite, "! gotk git status"},
	})
}
