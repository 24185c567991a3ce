package decision

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts/claude"
	"github.com/gotk-dev/gotk/core/hosts/codex"
	"github.com/gotk-dev/gotk/core/hosts/cursor"
	"github.com/gotk-dev/gotk/core/hosts/gemini"
	"github.com/gotk-dev/gotk/core/hosts/vibe"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/shell"
	"github.com/gotk-dev/gotk/core/shell/shelltest"
)

// The decision path's principles, proved over the corpus and over generated bash,
// for every host with rules.

// hostEngines returns one engine per host, each with allow, ask and deny
// rules over the same commands, in a fresh home and project.
func hostEngines(t testing.TB) map[string]*Engine {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	files := map[string]string{
		".claude/settings.json":   `{"permissions":{"allow":["Bash(git:*)","Bash(go test:*)","Bash(make)","Bash(npm:*)"],"ask":["Bash(git log:*)","Bash(npm install:*)"],"deny":["Bash(git push:*)","Bash(rm:*)","Bash(curl:*)","Bash(npm publish)"]}}`,
		".cursor/cli-config.json": `{"permissions":{"allow":["Shell(git)","Shell(go)","Shell(ls)","Shell(cat)"],"deny":["Shell(rm)","Shell(curl)","Shell(git:push*)"]}}`,
		".gemini/settings.json":   `{"tools":{"allowed":["run_shell_command(git)","run_shell_command(go test)","run_shell_command(ls)"],"exclude":["run_shell_command(git push)","run_shell_command(rm)"]}}`,
		".codex/rules/r.rules":    "prefix_rule(pattern=[\"git\", [\"push\", \"fetch\"]], decision=\"forbidden\")\nprefix_rule(pattern=[\"git\", \"log\"], decision=\"prompt\")\nprefix_rule(pattern=[\"git\"], decision=\"allow\")\nprefix_rule(pattern=[\"rm\"], decision=\"forbidden\")\n",
		".vibe/config.toml":       "[tools.bash]\nallowlist = [\"git status\", \"git diff\", \"ls\", \"go test\"]\ndenylist = [\"git push\", \"rm\", \"curl\"]\n",
	}
	for f, data := range files {
		p := filepath.Join(home, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(proj, "src"), 0o755)
	os.WriteFile(filepath.Join(proj, "notes.txt"), []byte("x\n"), 0o644)
	out := map[string]*Engine{}
	for _, h := range []*host.Def{claude.Host, cursor.Host, gemini.Host, codex.Host, vibe.Host} {
		out[h.Name] = &Engine{Host: h, Env: permission.Env{
			Getenv: func(k string) string {
				if k == "CLAUDE_PROJECT_DIR" {
					return proj
				}
				return ""
			},
			Home: home, Cwd: proj, ManagedDir: filepath.Join(home, "managed"),
		}}
	}
	return out
}

// canonical spells every literal word of src as shell.Quote(value): the
// plain form both readings agree on. ok is false when src does not parse.
func canonical(src string) (string, []shell.Word, bool) {
	s, err := shell.Parse(src)
	if err != nil {
		return "", nil, false
	}
	var at []shell.Word
	for _, c := range s.Commands {
		if c.Kind != shell.Simple && c.Kind != shell.Declaration {
			continue // quoted, an assignment's word is a command
		}
		for _, w := range c.Words {
			if w.Literal && !c.Substituted {
				at = append(at, w)
			}
		}
	}
	out, words := splice(src, at, func(w shell.Word) string { return shell.Quote(w.Value) })
	return out, words, true
}

// splice replaces each word of at (byte ranges of src, any order) with
// repl(word), and returns the new text and the words at their new places.
func splice(src string, at []shell.Word, repl func(shell.Word) string) (string, []shell.Word) {
	sorted := append([]shell.Word(nil), at...)
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && sorted[j].Start < sorted[j-1].Start; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	var b strings.Builder
	var moved []shell.Word
	prev := 0
	for _, w := range sorted {
		if w.Start < prev {
			continue // nested (a word inside a substitution inside a word)
		}
		b.WriteString(src[prev:w.Start])
		r := repl(w)
		nw := w
		nw.Start = b.Len()
		b.WriteString(r)
		nw.End, nw.Raw = b.Len(), r
		moved = append(moved, nw)
		prev = w.End
	}
	b.WriteString(src[prev:])
	return b.String(), moved
}

// checkRequote asserts the quoting property for one command on one
// engine: spelling any one word of its canonical form another way never
// turns a non-allow into an allow, and never turns a deny into a rewrite.
func checkRequote(t *testing.T, e *Engine, host, src string, r *rand.Rand, req Request) {
	t.Helper()
	canon, words, ok := canonical(src)
	if !ok || len(words) == 0 {
		return
	}
	base := e.Decide(withCommand(req, canon))
	for k := 0; k < 3; k++ {
		w := words[r.IntN(len(words))]
		variant, _ := splice(canon, []shell.Word{w}, func(w shell.Word) string { return shelltest.Spell(r, w.Value) })
		got := e.Decide(withCommand(req, variant))
		if got.Verdict == AllowRewrite && base.Verdict != AllowRewrite {
			t.Errorf("%s: quoting widened:\n  %q → %v (%s)\n  %q → allow", host, canon, base.Verdict, base.Reason, variant)
		}
		if base.Verdict == Deny && (got.Verdict == AllowRewrite || got.Verdict == AskRewrite) {
			t.Errorf("%s: quoting dodged a deny:\n  %q → deny\n  %q → %v", host, canon, variant, got.Verdict)
		}
	}
}

func withCommand(r Request, cmd string) Request { r.Command = cmd; return r }

// TestQuotingProperty: over the whole corpus and every host with rules,
// in the host's default and auto-allow modes.
func TestQuotingProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	cmds := corpus(t)
	for host, e := range hostEngines(t) {
		for _, req := range []Request{{ReadOnlyAutoAllow: host == "claude"}, {AutoAllow: true}} {
			for _, c := range cmds {
				checkRequote(t, e, host, c, r, req)
			}
		}
	}
}

// TestSymlinkProperty: for every corpus command Claude's engine allows,
// turning any operand (or --opt=value) into a symlink that leads outside
// the project never leaves it allowed.
func TestSymlinkProperty(t *testing.T) {
	e := hostEngines(t)["claude"]
	// only the read-only set: allow rules do not look at paths
	os.WriteFile(filepath.Join(e.Env.Home, ".claude", "settings.json"), []byte(`{}`), 0o644)
	proj := e.Env.Cwd
	outside := filepath.Join(e.Env.Home, "outside")
	os.MkdirAll(outside, 0o755)
	link := func(i int) string {
		name := "lnk" + string(rune('a'+i%26)) + strings.Repeat("x", i/26)
		p := filepath.Join(proj, name)
		if _, err := os.Lstat(p); err != nil {
			target := outside
			if i%2 == 1 {
				target = filepath.Join(outside, "file")
			}
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
		}
		return name
	}
	req := Request{ReadOnlyAutoAllow: true}
	tried, n := 0, 0
	for _, c := range corpus(t) {
		d := e.Decide(withCommand(req, c))
		if d.Verdict != AllowRewrite {
			continue
		}
		s, err := shell.Parse(c)
		if err != nil {
			continue
		}
		for _, cmd := range s.Commands {
			for wi, w := range cmd.Words {
				if wi == 0 || !w.Literal {
					continue
				}
				var repl string
				switch {
				case strings.HasPrefix(w.Value, "--") && strings.Contains(w.Value, "="):
					k, _, _ := strings.Cut(w.Value, "=")
					repl = k + "=" + link(n)
				case strings.HasPrefix(w.Value, "-"):
					continue
				default:
					repl = link(n)
				}
				n++
				variant, _ := splice(c, []shell.Word{w}, func(shell.Word) string { return repl })
				tried++
				if got := e.Decide(withCommand(req, variant)); got.Verdict == AllowRewrite {
					t.Errorf("a symlink out of the project stays allowed:\n  %q → allow\n  %q → allow (%+v)", c, variant, got.Segments)
				}
			}
		}
	}
	if tried < 100 {
		t.Errorf("only %d symlink swaps tried", tried)
	}
	t.Logf("%d symlink swaps", tried)
}

// TestGrammarProperty runs generated bash through every host: no panic,
// bounded time, the insertion property, and the quoting property.
func TestGrammarProperty(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewPCG(21, 22))
	engines := hostEngines(t)
	for i := 0; i < n; i++ {
		src := shelltest.Gen(r, 1+r.IntN(4))
		for host, e := range engines {
			req := Request{ReadOnlyAutoAllow: host == "claude", AutoAllow: i%3 == 0}
			checkDecision(t, e, host, src, req)
			checkRequote(t, e, host, src, r, req)
		}
	}
}

// FuzzGrammar explores the generator's space (make fuzz).
func FuzzGrammar(f *testing.F) {
	f.Add(uint64(1), uint64(2), uint8(3))
	engines := hostEngines(f)
	f.Fuzz(func(t *testing.T, a, b uint64, depth uint8) {
		r := rand.New(rand.NewPCG(a, b))
		src := shelltest.Gen(r, int(depth%6))
		for host, e := range engines {
			req := Request{ReadOnlyAutoAllow: host == "claude", AutoAllow: a%2 == 0}
			checkDecision(t, e, host, src, req)
			checkRequote(t, e, host, src, r, req)
		}
	})
}

const mark = "\x01GOTK\x01"

// checkDecision: Decide returns in bounded time, only inserts gotk, and a
// rewrite verdict comes with a changed command.
func checkDecision(t *testing.T, e *Engine, host, src string, req Request) {
	t.Helper()
	start := time.Now()
	saved := e.Prefix
	e.Prefix = mark
	d := e.Decide(withCommand(req, src))
	e.Prefix = saved
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("%s: %q took %v", host, src, el)
	}
	if got := stripInserted(d.Command, mark); got != src {
		t.Fatalf("%s: insertion property broken:\n in  %q\n out %q", host, src, d.Command)
	}
	if (d.Verdict == AllowRewrite || d.Verdict == AskRewrite) != (d.Command != src) {
		t.Fatalf("%s: verdict %v with command %q for %q", host, d.Verdict, d.Command, src)
	}
	// explain's promise: every command a rule covers says whether it is
	// rewritten, and if not, why
	for _, s := range d.Segments {
		if s.Rule != "" && !s.Rewritten && s.Reason == "" {
			t.Fatalf("%s: %q: %s (%s) not rewritten, and no reason given (verdict %v, line: %q)", host, src, s.Text, s.Rule, d.Verdict, d.Reason)
		}
	}
}

// TestNothingIsSound: the shortcut that answers without parsing
// (Nothing: no word names a program with a rule) never drops a rewrite the
// engine would make — over the corpus, generated bash and requoted words,
// every host, the verdict and command are those of the full decision.
func TestNothingIsSound(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	lines := corpus(t)
	n := 2000
	if testing.Short() {
		n = 200
	}
	for i := 0; i < n; i++ {
		lines = append(lines, shelltest.Gen(r, 1+r.IntN(4)))
	}
	for _, c := range corpus(t) {
		if canon, words, ok := canonical(c); ok && len(words) > 0 {
			variant, _ := splice(canon, []shell.Word{words[0]}, func(w shell.Word) string { return shelltest.Spell(r, w.Value) })
			lines = append(lines, variant)
		}
	}
	short, rewrites := 0, 0
	for host, e := range hostEngines(t) {
		for _, c := range lines {
			req := Request{Command: c, ReadOnlyAutoAllow: host == "claude"}
			full := e.Decide(Request{Command: c, ReadOnlyAutoAllow: req.ReadOnlyAutoAllow, Explain: true})
			got := e.Decide(req)
			// Explain also names a deny where nothing is rewritten; a hook
			// answers a deny and a passthrough alike (the host decides)
			if isRewrite(got) != isRewrite(full) || isRewrite(full) && (got.Verdict != full.Verdict || got.Command != full.Command) {
				t.Errorf("%s: %q: %v %q with the shortcut, %v %q without", host, c, got.Verdict, got.Command, full.Verdict, full.Command)
			}
			if _, ok := Nothing(req); ok {
				short++
				if isRewrite(full) {
					t.Errorf("%s: %q: the shortcut says nothing to rewrite, the engine rewrites it", host, c)
				}
			} else if isRewrite(full) {
				rewrites++
			}
		}
	}
	if short < 100 || rewrites < 100 {
		t.Errorf("too few cases either way: %d short-cut, %d rewritten", short, rewrites)
	}
	t.Logf("%d lines short-cut, %d rewritten", short, rewrites)
}

func isRewrite(d Decision) bool { return d.Verdict == AllowRewrite || d.Verdict == AskRewrite }
