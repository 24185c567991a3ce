package cursor

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// The Cursor CLI model. Cursor's agent is closed source and has no offline
// build this project can run, so this model is transcribed from its
// documentation (cursor.com/docs/cli/reference/permissions and
// cursor.com/docs/hooks, read through mehmetbaykar/cursor-docs-skill:
// cli__reference__permissions.md @e9d8c57, hooks.md @1cc1c99), not from
// its code:
//   - `permissions.allow` / `deny` of ~/.cursor/cli-config.json and the
//     project's .cursor/cli.json hold `Shell(base)` and `Shell(base:args)`;
//     the base is "the first token in the command line", the args the
//     rest; both are globs (`*`, `**`, `?`); deny wins over allow; a
//     command no rule allows is asked about;
//   - a preToolUse answer's `updated_input` is the tool input "to use
//     instead", `allow` proceeds, `ask` is "not enforced for preToolUse".
//
// Where the documentation is silent the model holds every reading at
// once, and gotk must keep parity under each: whether Cursor cuts a line
// into commands (as bash's words, or as their source text with leading
// assignments and redirections) or takes the whole line as one command;
// and whether a hook's `allow` skips Cursor's own prompt (the docs) or
// not (reports that it does not get past the allowlist).

// modelReading is one reading of Cursor's undocumented behaviour.
type modelReading struct {
	split     string // "line", "words" or "source"
	hookAllow bool   // a hook's allow runs the command without asking
}

var modelReadings = func() []modelReading {
	var out []modelReading
	for _, s := range []string{"line", "words", "source"} {
		out = append(out, modelReading{s, true}, modelReading{s, false})
	}
	return out
}()

type modelRules struct{ allow, deny []string } // inner patterns

// modelGlob: `*` any run, `?` one character, anything else itself.
func modelGlob(p, s string) bool {
	if p == "" {
		return s == ""
	}
	switch p[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if modelGlob(p[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && modelGlob(p[1:], s[1:])
	}
	return s != "" && s[0] == p[0] && modelGlob(p[1:], s[1:])
}

func modelMatch(pattern string, tokens []string) bool {
	if len(tokens) == 0 {
		return false
	}
	if base, args, ok := strings.Cut(pattern, ":"); ok {
		return modelGlob(base, tokens[0]) && modelGlob(args, strings.Join(tokens[1:], " "))
	}
	return modelGlob(pattern, tokens[0])
}

// modelCommands cuts one of the generator's lines as the reading does. The
// generator never quotes an operator or a space, so splitting the text is
// exact.
func modelCommands(line, split string) [][]string {
	if split == "line" {
		return [][]string{strings.Fields(line)}
	}
	r := strings.NewReplacer("&&", "\x00", "||", "\x00", ";", "\x00", "|", "\x00")
	var out [][]string
	for _, c := range strings.Split(r.Replace(line), "\x00") {
		f := strings.Fields(c)
		if split == "words" {
			var w []string
			for _, x := range f {
				if len(w) == 0 && strings.Contains(x, "=") && !strings.ContainsAny(x, `'"`) || strings.HasPrefix(x, "2>") {
					continue // a leading assignment, a redirection
				}
				w = append(w, strings.NewReplacer(`'`, "", `"`, "").Replace(x))
			}
			f = w
		}
		if len(f) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// modelJudge is Cursor's verdict on a line under reading rd.
func modelJudge(r modelRules, line string, rd modelReading) string {
	v := "run"
	for _, c := range modelCommands(line, rd.split) {
		for _, p := range r.deny {
			if modelMatch(p, c) {
				return "deny"
			}
		}
		ok := false
		for _, p := range r.allow {
			ok = ok || modelMatch(p, c)
		}
		if !ok {
			v = "ask"
		}
	}
	return v
}

// modelAfter is what Cursor does with gotk's answer: it judges the
// updated command; a deny stands; the hook's allow runs it where that
// reading says so; an ask changes nothing.
func modelAfter(r modelRules, rewritten, answer string, rd modelReading) string {
	v := modelJudge(r, rewritten, rd)
	if v != "deny" && answer == "allow" && rd.hookAllow {
		return "run"
	}
	return v
}

var (
	modelBases = []string{"git", "gi?", "g*", "*", "**", "gotk", "go", "ls", "l?", "timeout", "FOO=1", "rm", "cat", "gotk*", "'git'"}
	modelArgs  = []string{"*", "status*", "status", "push*", "st?tus", "-la", "test *", "test ./...", "git status*", "status 2>&1", "log -n 3"}
	modelProgs = []string{"git", "git", "ls", "cat", "go", "grep", "rm", "wc", "head"}
	modelWords = map[string][]string{
		"git":  {"status", "log", "push", "diff", "-n", "3", "--short"},
		"go":   {"test", "build", "vet", "./..."},
		"ls":   {"-la", "x", "."},
		"cat":  {"x.txt", "go.mod"},
		"grep": {"-n", "x", "go"},
		"rm":   {"x"},
		"wc":   {"-l", "x.txt"},
		"head": {"-n", "3", "x.txt"},
	}
	modelPrefix = []string{"", "", "", "FOO=1 ", "LANG=C ", "timeout 5 ", "nice ", "command ", "env "}
)

func modelRule(rng *rand.Rand) string {
	p := modelBases[rng.Intn(len(modelBases))]
	if rng.Intn(2) == 0 {
		p += ":" + modelArgs[rng.Intn(len(modelArgs))]
	}
	return p
}

func modelQuote(rng *rand.Rand, w string) string {
	switch rng.Intn(6) {
	case 0:
		return "'" + w + "'"
	case 1:
		return `"` + w + `"`
	}
	return w
}

func modelSimple(rng *rand.Rand) string {
	prog := modelProgs[rng.Intn(len(modelProgs))]
	s := modelPrefix[rng.Intn(len(modelPrefix))] + modelQuote(rng, prog)
	for n := rng.Intn(3); n > 0; n-- {
		ws := modelWords[prog]
		s += " " + modelQuote(rng, ws[rng.Intn(len(ws))])
	}
	if rng.Intn(6) == 0 {
		s += " 2>&1"
	}
	return s
}

func modelLine(rng *rand.Rand) string {
	ops := []string{" && ", " || ", "; ", " | "}
	line := modelSimple(rng)
	for rng.Intn(3) == 0 {
		line += ops[rng.Intn(len(ops))] + modelSimple(rng)
	}
	return line
}

func shellEntries(pats []string) string {
	var e []string
	for _, p := range pats {
		e = append(e, "Shell("+p+")")
	}
	b, _ := json.Marshal(e)
	return string(b)
}

// TestCursorModelParity: over generated Shell(…) rules (global and
// project, allow and deny) and generated lines (assignments, wrappers,
// quoting, redirections, chains, pipes), wherever gotk rewrites, Cursor
// does with gotk's answer what it would have done with the original, under
// every reading of the model: never wider, never narrower, a deny always
// standing.
func TestCursorModelParity(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	configs, lines := 150, 24
	if testing.Short() {
		configs = 60
	}
	rewrites := map[string]int{}
	for i := 0; i < configs; i++ {
		var global, proj modelRules
		for n := rng.Intn(4); n > 0; n-- {
			r := modelRule(rng)
			switch rng.Intn(4) {
			case 0:
				global.deny = append(global.deny, r)
			case 1:
				proj.allow = append(proj.allow, r)
			case 2:
				proj.deny = append(proj.deny, r)
			default:
				global.allow = append(global.allow, r)
			}
		}
		home := t.TempDir()
		projDir := filepath.Join(home, "p")
		permissiontest.Write(t, filepath.Join(home, ".cursor", "cli-config.json"),
			fmt.Sprintf(`{"version":1,"permissions":{"allow":%s,"deny":%s}}`, shellEntries(global.allow), shellEntries(global.deny)))
		permissiontest.Write(t, filepath.Join(projDir, ".cursor", "cli.json"),
			fmt.Sprintf(`{"permissions":{"allow":%s,"deny":%s}}`, shellEntries(proj.allow), shellEntries(proj.deny)))
		all := modelRules{allow: append(append([]string(nil), global.allow...), proj.allow...), deny: append(append([]string(nil), global.deny...), proj.deny...)}
		e := decision.New(Host, permissiontest.Env(home, projDir, nil))
		for j := 0; j < lines; j++ {
			line := modelLine(rng)
			d := e.Decide(decision.Request{Command: line, Cwd: projDir})
			answer := map[decision.Verdict]string{decision.AllowRewrite: "allow", decision.AskRewrite: "ask"}[d.Verdict]
			if answer == "" {
				continue
			}
			rewrites[answer]++
			for _, rd := range modelReadings {
				before, after := modelJudge(all, line, rd), modelAfter(all, d.Command, answer, rd)
				if before != after {
					t.Fatalf("rules %+v / project %+v, reading %+v\nline %q: Cursor would %s it; gotk answers %s %q, which Cursor would %s",
						global, proj, rd, line, before, answer, d.Command, after)
				}
			}
		}
	}
	// The property must see both answers, or it proves little.
	if rewrites["allow"] < 3 || rewrites["ask"] < 50 {
		t.Fatalf("too few rewrites to compare: %v", rewrites)
	}
	t.Logf("rewrites compared: %v", rewrites)
}
