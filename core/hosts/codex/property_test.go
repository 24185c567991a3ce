package codex

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
	"github.com/gotk-dev/gotk/core/shell"
)

// codexModel is Codex's verdict on a line, transcribed from codex-rs
// (core/src/exec_policy.rs and execpolicy/src/policy.rs @b981304): a line
// it splits into plain commands (plain here: the generator's own
// constructs, known by construction) is judged command by command, a rule
// matching when its tokens are a prefix of the argv, the strictest
// matching decision winning; the line is forbidden if any command is,
// prompts if any does, is allowed if every command matched an allow rule,
// and is otherwise unmatched (Codex's heuristics decide). A line that is
// not plain is one `bash -lc` script that no rule matches.
func codexModel(rules []codexRule, argvs [][]string, plain bool) string {
	if !plain {
		return "unmatched"
	}
	rank := map[string]int{"": 0, "allow": 1, "prompt": 2, "forbidden": 3}
	line := "allow"
	for _, argv := range argvs {
		best := ""
		for _, r := range rules {
			if len(argv) < len(r.pattern) {
				continue
			}
			ok := true
			for i, alts := range r.pattern {
				if !slices.Contains(alts, argv[i]) {
					ok = false
					break
				}
			}
			if ok && rank[r.decision] > rank[best] {
				best = r.decision
			}
		}
		switch {
		case best == "":
			if line == "allow" {
				line = "unmatched"
			}
		case rank[best] > rank[line] || line == "unmatched" && best != "allow":
			line = best
		}
	}
	return line
}

// TestCodexProperty: over generated rules and lines, gotk answers permission.Allow
// for every command of a line only where Codex allows the line, and permission.Deny
// for a command Codex forbids.
func TestCodexProperty(t *testing.T) {
	words := []string{"git", "status", "log", "push", "origin", "-s", "make", "deploy"}
	decisions := []string{"allow", "prompt", "forbidden"}
	wrap := []struct {
		fmt   string
		plain bool
	}{
		{"%s", true}, {"%s 2>&1", false}, {"%s >&2", false}, {"%s &", false}, {"(%s)", false}, {"{ %s; }", false},
		{"! %s", false}, {"time %s", false}, {"A=1 %s", false}, {"%s # c", false}, {`%s "$X"`, false},
	}
	joins := []string{" && ", " || ", "; ", " | "}
	rng := rand.New(rand.NewSource(2))
	home := t.TempDir()
	for i := 0; i < 400; i++ {
		var rules []codexRule
		var src []string
		for n := rng.Intn(3); n >= 0; n-- {
			var pat [][]string
			var toks []string
			for k := rng.Intn(2) + 1; k > 0; k-- {
				w := words[rng.Intn(len(words))]
				pat = append(pat, []string{w})
				toks = append(toks, fmt.Sprintf("%q", w))
			}
			d := decisions[rng.Intn(len(decisions))]
			rules = append(rules, codexRule{pattern: pat, decision: d})
			src = append(src, fmt.Sprintf("prefix_rule(pattern=[%s], decision=%q)", strings.Join(toks, ", "), d))
		}
		permissiontest.Write(t, filepath.Join(home, ".codex", "rules", "x.rules"), strings.Join(src, "\n"))
		r := Host.LoadRules(permissiontest.Env(home, "", nil))
		if r.Unreadable {
			t.Fatalf("rules %q: %v", src, r.Warnings)
		}
		var argvs [][]string
		var parts []string
		for n := rng.Intn(2); n >= 0; n-- {
			argv := []string{words[rng.Intn(len(words))]}
			for k := rng.Intn(3); k > 0; k-- {
				argv = append(argv, words[rng.Intn(len(words))])
			}
			argvs = append(argvs, argv)
			parts = append(parts, strings.Join(argv, " "))
		}
		w := wrap[rng.Intn(len(wrap))]
		line := fmt.Sprintf(w.fmt, strings.Join(parts, joins[rng.Intn(len(joins))]))
		want := codexModel(rules, argvs, w.plain)
		s, err := shell.Parse(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		allAllow, anyDeny := true, false
		for _, c := range s.Commands {
			var ws []string
			for _, x := range c.Words {
				ws = append(ws, shell.Quote(x.Value))
			}
			cmd := strings.Join(ws, " ")
			v := r.Check(permission.Segment{Forms: []string{cmd}, AllowForm: cmd, Source: s.Src[c.Start:c.End], Line: line}).Verdict
			allAllow = allAllow && v == permission.Allow
			anyDeny = anyDeny || v == permission.Deny
		}
		if allAllow && want != "allow" {
			t.Fatalf("rules %q, line %q: gotk allows every command, Codex: %s", src, line, want)
		}
		if want == "forbidden" && !anyDeny {
			t.Fatalf("rules %q, line %q: Codex forbids it, gotk denies nothing", src, line)
		}
	}
}
