package shell

import (
	"strings"
	"testing"
)

// TestCrashSeeds: lines that once crashed the walker (unbounded recursion
// is a fatal stack overflow, which blocks the agent) or that nest past any
// bound parse to a result or ErrTooComplex. How fast is BenchmarkCrashSeeds'
// to say (a timed test fails on a loaded machine, not on a slow parser).
func TestCrashSeeds(t *testing.T) {
	for _, src := range crashSeeds() {
		s, err := Parse(src)
		if err == nil && s == nil {
			t.Errorf("Parse(%.40q): nil script and nil error", src)
		}
	}
}

// BenchmarkCrashSeeds parses every crash seed once per iteration: the
// deepest lines gotk accepts must stay linear in their length.
func BenchmarkCrashSeeds(b *testing.B) {
	seeds := crashSeeds()
	for b.Loop() {
		for _, src := range seeds {
			Parse(src)
		}
	}
}

func crashSeeds() []string {
	n := MaxLen / 4
	return []string{
		"! 2>&1 | rm -rf /",
		"! >x | a | b",
		"! a | ! b",
		"time ! 2>&1 | c",
		strings.Repeat("(", n) + "a" + strings.Repeat(")", n),
		strings.Repeat("{ ", n/2) + "a;" + strings.Repeat(" }", n/2),
		strings.Repeat("$(", n/2) + "a" + strings.Repeat(")", n/2),
		strings.Repeat("echo \"$(", n/4) + "a" + strings.Repeat(")\"", n/4),
		strings.Repeat("`", 2),
		strings.Repeat("if a; then ", n/12) + "b" + strings.Repeat("; fi", n/12),
		strings.Repeat("a | ", n/2) + "b",
		strings.Repeat("a && ", n/2) + "b",
		strings.Repeat("x", MaxLen+1),
	}
}

func TestControlCharacters(t *testing.T) {
	for _, src := range []string{"ls\rf.txt", "git status\x00", "ls\x1b[2J", "git\x7fstatus", "a\x0bb"} {
		if _, err := Parse(src); err != ErrTooComplex {
			t.Errorf("Parse(%q) = %v, want ErrTooComplex", src, err)
		}
	}
	for _, src := range []string{"ls\tx", "a\nb"} {
		if _, err := Parse(src); err != nil {
			t.Errorf("Parse(%q) = %v", src, err)
		}
	}
}

func TestRedefines(t *testing.T) {
	const arith = "arithmetic on a variable (bash evaluates its value, which can assign variables and run commands)"
	cases := map[string]string{
		"git() { echo dry; }; git push":       "a function definition",
		"function git { :; }; git status":     "a function definition",
		"alias git=echo; git status":          "`alias`",
		"hash -p /tmp/x git; git status":      "`hash`",
		"enable -n echo; echo":                "`enable`",
		"source ./env.sh && git status":       "`source`",
		". ./env.sh && git status":            "`.`",
		"eval git status":                     "`eval`",
		"shopt -s expand_aliases; git status": "`shopt`",
		"unset PATH; git status":              "`unset`",
		"PATH=/usr/bin git status":            "an assignment to PATH",
		"PATH=/x; git status":                 "an assignment to PATH",
		"export PATH=/x; git status":          "an assignment to PATH",
		"declare -x PATH=/x; ls":              "an assignment to PATH",
		"export -f git; git status":           "`export -f`",
		"export $V; git status":               "a declaration that expands at run time",
		"(alias ls=x); ls":                    "`alias`",
		"echo $(alias g=x) && g":              "`alias`",
		// every form of assigning a variable that decides lookup
		`declare "PATH=/tmp/evil"; git status`:    "an assignment to PATH",
		`export "PATH=/x"; git status`:            "an assignment to PATH",
		`readonly "PATH"=/x; git status`:          "an assignment to PATH",
		`f() { local -x "PATH=/x"; git status; }`: "a function definition",
		`local -x "PATH=/x"; git status`:          "an assignment to PATH",
		`declare -x PA"TH"=/x; git status`:        "an assignment to PATH",
		`export PATH+=:/x; git status`:            "an assignment to PATH",
		`local PATH; git status`:                  "an assignment to PATH",
		"builtin declare PATH=/x; ls":             "an assignment to PATH",
		"command export PATH=/x; ls":              "an assignment to PATH",
		"printf -v PATH %s /tmp/evil; git status": "an assignment to PATH",
		"printf -vPATH %s /x; git status":         "an assignment to PATH",
		"read PATH; git status":                   "an assignment to PATH",
		"read -r -a PATH; git status":             "an assignment to PATH",
		"mapfile -t PATH; git status":             "an assignment to PATH",
		"readarray PATH; git status":              "an assignment to PATH",
		"getopts ab PATH; git status":             "an assignment to PATH",
		"wait -p PATH; git status":                "an assignment to PATH",
		"BASH_ALIASES[git]=x; git status":         "an assignment to BASH_ALIASES",
		"BASH_CMDS[gotk]=/tmp/x; git status":      "an assignment to BASH_CMDS",
		"CDPATH=/tmp; cd x && ls":                 "an assignment to CDPATH",
		"IFS=/; git status":                       "an assignment to IFS",
		"for PATH in /x; do ls; done":             "an assignment to PATH",
		"exec {PATH}>/dev/null; ls":               "an assignment to PATH",
		"coproc PATH { :; }; ls":                  "an assignment to PATH",
		": ${CDPATH:=/tmp}; cd x; ls":             "an assignment to CDPATH",
		"$d PATH=/x; ls":                          "a command whose name expands at run time",
		"builtin eval x; ls":                      "`eval`",
		"trap 'touch x' DEBUG; ls":                "`trap`",
		"set -a; ls":                              "`set` (shell options)",
		"declare -n r=PATH; r=/x; ls":             "`declare -n`",
		"mapfile -C cb -c 1 a; ls":                "`mapfile -C` (a callback run as code)",
		// arithmetic evaluates a variable's value: x='a[$(touch f)]' runs
		"x='a[$(touch /tmp/p)]'; (( x )); git status": arith,
		"let x; git status":                           arith,
		"builtin let x; git status":                   arith,
		"[[ $x -eq 1 ]] && git status":                arith,
		"[[ x -lt 1 ]] && git status":                 arith,
		"declare -i y=1; git status":                  arith,
		"a[x]=1; git status":                          arith,
		"a=([x]=1); git status":                       arith,
		"echo ${a[x]}; git status":                    arith,
		"echo ${s:x:1}; git status":                   arith,
		"printf -v 'a[$(touch x)]' 1; git status":     arith,
		"read 'a[x]'; git status":                     arith,
		"for ((i=x; i<2; i++)); do ls; done":          arith,
		"[[ -v a[x] ]] && ls":                         arith,
		"test -v 'a[x]' && ls":                        arith,
		"[ -v 'a[x]' ] && ls":                         arith,
		"echo ${!x}; ls":                              "an indirect expansion ${!…} (bash evaluates the named variable's subscript)",
	}
	for src, want := range cases {
		s, err := Parse(src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		if len(s.Redefines) == 0 || s.Redefines[0] != want {
			t.Errorf("Parse(%q).Redefines = %q, want %q", src, s.Redefines, want)
		}
	}
	for _, src := range []string{"git status", "X=1 git status", "export A=1; ls", "set -e; git status", "GIT_DIR=x git log",
		"set -euo pipefail; ls", "set -x; ls", "(( 1 + 2 )); ls", "[[ 1 -eq 1 ]] && ls", "read -r line; ls", "echo ${a[@]} ${a[0]} ${#a}",
		"printf '%s' PATH", "a[0]=1; ls", "declare -a a=(1 2); ls", "[[ -v x ]] && ls", "echo ${x:-PATH}; ls", "for f in a b; do ls $f; done"} {
		if s, _ := Parse(src); len(s.Redefines) > 0 {
			t.Errorf("Parse(%q).Redefines = %q, want none", src, s.Redefines)
		}
	}
}
