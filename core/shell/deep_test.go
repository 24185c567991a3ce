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
	for _, src := range []string{"git status", "X=1 git status", "export A=1; ls", "set -e; git status", "GIT_DIR=x git log"} {
		if s, _ := Parse(src); len(s.Redefines) > 0 {
			t.Errorf("Parse(%q).Redefines = %q, want none", src, s.Redefines)
		}
	}
}
