package shell

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// lookupVar are the variables that decide which program a name runs, which
// directory a cd reaches, or how the shell evaluates what follows: a line
// that assigns one, by any form, changes what `gotk <cmd>` would run next
// to what the original runs.
var lookupVar = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, v := range []string{
		"PATH", "BASH_ENV", "ENV", "BASH_ALIASES", "BASH_CMDS", "CDPATH", "IFS", "EXECIGNORE",
		"PS4", "SHELLOPTS", "BASHOPTS", "POSIXLY_CORRECT", "BASH_COMPAT", "GLOBIGNORE",
	} {
		m[v] = true
	}
	return m
})

// redefiners are the builtins that can change what a later word of the
// same line runs: new aliases or functions, a hashed path, a disabled
// builtin, a sourced file, a string run as code, shell options, a trap
// that runs before each command.
var redefiners = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"alias": true, "unalias": true, "hash": true, "enable": true, "source": true, ".": true,
		"eval": true, "shopt": true, "unset": true, "trap": true,
	}
})

// arithmeticReason is why arithmetic on a variable is a redefinition: bash
// evaluates the variable's value as an expression, where an assignment
// (PATH=0) or a subscript's $(…) runs.
const arithmeticReason = "arithmetic on a variable (bash evaluates its value, which can assign variables and run commands)"

// assigned records an assignment to the variable named by s (a name, or a
// name with a subscript).
func (w *walker) assigned(s string) {
	name, sub, hasSub := strings.Cut(s, "[")
	if lookupVar()[name] {
		w.redefines("an assignment to " + name)
	}
	if hasSub && !isNumber(strings.TrimSuffix(sub, "]")) {
		w.redefines(arithmeticReason)
	}
}

// assign reads an Assign node: NAME=…, NAME[i]=…, or a declaration's bare
// NAME (local PATH unsets it in a function). A declaration's naked word is
// read by declAssigns.
func (w *walker) assign(a *syntax.Assign) {
	if a.Name == nil {
		return
	}
	w.assigned(a.Name.Value)
	w.subscript(a.Index)
}

// subscript reads an array subscript: bash evaluates an indexed array's as
// arithmetic.
func (w *walker) subscript(x syntax.ArithmExpr) {
	if x != nil {
		w.arithm(x)
	}
}

// arithm records a redefinition when an arithmetic expression names
// anything but numbers.
func (w *walker) arithm(x syntax.ArithmExpr) {
	if x == nil {
		return
	}
	found := false
	syntax.Walk(x, func(n syntax.Node) bool {
		if wd, ok := n.(*syntax.Word); ok && !found {
			if v, ok := literal(wd); !ok || !isNumber(v) {
				found = true
				w.redefines(arithmeticReason)
			}
		}
		return !found
	})
}

// isNumber: a run of decimal digits (anything else in arithmetic may name
// a variable: 0x1f and 16#ff are taken for names, which costs nothing).
func isNumber(s string) bool { return IsDigits(strings.TrimSpace(s)) }

// paramExp reads ${…}: a subscript or a slice is arithmetic, ${!x}
// evaluates x's value as a name (with its subscript), and ${x:=v} assigns.
func (w *walker) paramExp(x *syntax.ParamExp) {
	if x.Index != nil {
		if v, ok := x.Index.(*syntax.Word); !ok || (v.Lit() != "@" && v.Lit() != "*") {
			w.arithm(x.Index)
		}
	}
	if x.Slice != nil {
		w.arithm(x.Slice.Offset)
		w.arithm(x.Slice.Length)
	}
	if x.Excl && x.Names == 0 {
		w.redefines("an indirect expansion ${!…} (bash evaluates the named variable's subscript)")
	}
	if x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) && x.Param != nil {
		w.assigned(x.Param.Value)
	}
}

// testBinary: [[ a -eq b ]] and its kin evaluate both sides as arithmetic.
func (w *walker) testBinary(x *syntax.BinaryTest) {
	switch x.Op {
	case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
		for _, side := range []syntax.TestExpr{x.X, x.Y} {
			wd, ok := side.(*syntax.Word)
			if !ok {
				w.redefines(arithmeticReason)
				continue
			}
			if v, ok := literal(wd); !ok || !isNumber(strings.TrimPrefix(v, "-")) {
				w.redefines(arithmeticReason)
			}
		}
	}
}

// testUnary: [[ -v a[i] ]] and [[ -R … ]] evaluate the subscript of the
// name they are given.
func (w *walker) testUnary(x *syntax.UnaryTest) {
	if x.Op != syntax.TsVarSet && x.Op != syntax.TsRefVar {
		return
	}
	wd, ok := x.X.(*syntax.Word)
	if !ok {
		w.redefines(arithmeticReason)
		return
	}
	if v, ok := literal(wd); !ok || strings.Contains(v, "[") {
		w.redefines(arithmeticReason)
	}
}

// nakedWords are a declaration's arguments that are whole words (flags,
// quoted or expanded NAME=value forms).
func nakedWords(args []*syntax.Assign) []*syntax.Word {
	var out []*syntax.Word
	for _, a := range args {
		if a.Naked && a.Name == nil && a.Value != nil {
			out = append(out, a.Value)
		}
	}
	return out
}

// declAssigns reads the words of a declaration builtin (declare, typeset,
// export, local, readonly — a DeclClause, or one run through `builtin` or
// `command`): a word that expands at run time may name any variable; -f
// and -n change what a name means, -i makes later assignments arithmetic;
// `"PATH=…"` and `PA"TH"=…` assign PATH like PATH=… does.
func (w *walker) declAssigns(variant string, words []*syntax.Word) {
	for _, wd := range words {
		v, ok := literal(wd)
		switch {
		case !ok:
			w.redefines("a declaration that expands at run time")
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
			if strings.ContainsAny(v, "fn") {
				w.redefines("`" + variant + " " + v + "`")
			}
			if strings.Contains(v, "i") {
				w.redefines(arithmeticReason)
			}
		default:
			name, _, _ := strings.Cut(v, "=")
			w.assigned(strings.TrimSuffix(name, "+"))
		}
	}
}

// callAssigns reads a simple command for what it may redefine: its
// program word as the shell resolves it (after `builtin` and `command`),
// and the builtins that assign a variable they are given by name.
func (w *walker) callAssigns(x *syntax.CallExpr) {
	args, prog := x.Args, ""
	for len(args) > 0 {
		v, ok := commandName(args[0])
		if !ok {
			// `$cmd PATH=/x` may be declare, `$cmd -v PATH x` printf.
			w.redefines("a command whose name expands at run time")
			return
		}
		if v != "builtin" && v != "command" && !(v == "--" || v == "-p") {
			prog = v
			break
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return
	}
	rest := args[1:]
	if redefiners()[prog] {
		w.redefines("`" + prog + "`")
	}
	switch prog {
	case "declare", "typeset", "export", "local", "readonly":
		w.declAssigns(prog, rest)
	case "printf":
		w.printfTarget(rest)
	case "read", "mapfile", "readarray", "getopts", "wait":
		// Each names its variables among its words; an option's value
		// taken for a name costs nothing.
		for _, wd := range rest {
			v, ok := literal(wd)
			switch {
			case !ok:
				w.redefines("`" + prog + "` into a variable named at run time")
			case (prog == "mapfile" || prog == "readarray") && strings.HasPrefix(v, "-") && strings.Contains(v, "C"):
				w.redefines("`" + prog + " -C` (a callback run as code)")
			case !strings.HasPrefix(v, "-"):
				w.assigned(v)
			}
		}
	case "let":
		for _, wd := range rest {
			if v, ok := literal(wd); !ok || !isNumber(v) {
				w.redefines(arithmeticReason)
			}
		}
	case "test", "[":
		for i, wd := range rest {
			if v, _ := literal(wd); (v == "-v" || v == "-R") && i+1 < len(rest) {
				if t, ok := literal(rest[i+1]); !ok || strings.Contains(t, "[") {
					w.redefines(arithmeticReason)
				}
			}
		}
	case "set":
		if !safeSet(rest) {
			w.redefines("`set` (shell options)")
		}
	}
}

// commandName is the value of a command word; a lone [ is the test
// builtin, not a glob.
func commandName(wd *syntax.Word) (string, bool) {
	if wd.Lit() == "[" {
		return "[", true
	}
	return literal(wd)
}

// printfTarget reads printf's options: -v NAME (or -vNAME) assigns NAME.
func (w *walker) printfTarget(args []*syntax.Word) {
	for i := 0; i < len(args); i++ {
		v, ok := literal(args[i])
		switch {
		case !ok:
			w.redefines("`printf` with an option that expands at run time")
			return
		case v == "-v":
			if i+1 >= len(args) {
				return
			}
			t, ok := literal(args[i+1])
			if !ok {
				w.redefines("`printf -v` into a variable named at run time")
				return
			}
			w.assigned(t)
			i++
		case strings.HasPrefix(v, "-v"):
			w.assigned(v[2:])
		default:
			return // `--` or the format
		}
	}
}

// safeSet: `set` with only the options agents use to make a script strict
// or verbose (-e, -u, -x, -v, -o pipefail, and their + forms); anything else
// (-a, -k, -f, -o posix, positional parameters) changes how later words
// are read.
func safeSet(args []*syntax.Word) bool {
	for i := 0; i < len(args); i++ {
		v, ok := literal(args[i])
		if !ok || len(v) < 2 || (v[0] != '-' && v[0] != '+') {
			return false
		}
		letters := v[1:]
		if strings.HasSuffix(letters, "o") {
			if i+1 >= len(args) {
				return false
			}
			switch o, _ := literal(args[i+1]); o {
			case "pipefail", "errexit", "nounset", "xtrace", "verbose":
			default:
				return false
			}
			i++
			letters = letters[:len(letters)-1]
		}
		for _, c := range letters {
			if !strings.ContainsRune("euxv", c) {
				return false
			}
		}
	}
	return true
}
