package decision

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts/codex"
	"github.com/gotk-dev/gotk/core/hosts/gemini"
	"github.com/gotk-dev/gotk/core/hosts/kilo"
	"github.com/gotk-dev/gotk/core/hosts/opencode"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
	"github.com/gotk-dev/gotk/core/shell"
)

// TestPluginHostRuleSources: the OpenCode plugin (OpenCode and Kilo) does
// not rewrite a command one of the host's rules names, wherever the rule
// is written — an agent's markdown file, $OPENCODE_PERMISSION, a wildcard
// key — nor where Kilo's rule names the command's assignments or
// redirects, which only its source text shows.
func TestPluginHostRuleSources(t *testing.T) {
	home := t.TempDir()
	engine := func(h *host.Def, vars map[string]string) *Engine {
		return &Engine{Host: h, Env: permission.Env{Getenv: func(k string) string { return vars[k] }, Home: home, Cwd: home,
			ManagedDir: filepath.Join(home, "managed")}}
	}
	permissiontest.Write(t, filepath.Join(home, ".config", "opencode", "agents", "review.md"), "---\npermission:\n  bash:\n    \"git push *\": deny\n---\n")
	run(t, engine(opencode.Host, nil), Request{}, []tc{
		{"git push origin main", Passthrough, ""},
		{"git status", AskRewrite, "gotk git status"},
	})
	run(t, engine(opencode.Host, map[string]string{"OPENCODE_PERMISSION": `{"ba?h": {"git log*": "ask"}}`}), Request{}, []tc{
		{"git log -3", Passthrough, ""},
	})

	kiloVars := map[string]string{"GOTK_KILO_AGENT": "code", "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{"permission": {"bash": {"*": "allow",
		"GIT_SSH_COMMAND=* git push *": "deny", "git diff*2>&1": "deny"}}}`)
	run(t, engine(kilo.Host, kiloVars), Request{}, []tc{
		{"GIT_SSH_COMMAND=x git push origin main", Passthrough, ""},
		{"git diff HEAD 2>&1", Passthrough, ""},
		{"git diff HEAD", AskRewrite, "gotk git diff HEAD"},
	})
}

// TestRewriteJudgedAsTheHostJudges: a host that matches its rules on the
// rewritten command must judge it as it judges the original, or the
// original goes unchanged. A rule may match only the rewrite's longer text
// — the window flags gotk adds (`gotk --head 10 …`) or gotk's name.
func TestRewriteJudgedAsTheHostJudges(t *testing.T) {
	home := t.TempDir()
	engine := func(h *host.Def, cwd string) *Engine {
		return &Engine{Host: h, Env: permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: cwd,
			ManagedDir: filepath.Join(home, "managed")}}
	}
	// OpenCode asks about `gotk --head 10 git status`, not about the
	// original: the prompt is new, and "always" would save a gotk rule.
	oc := filepath.Join(home, "oc")
	permissiontest.Write(t, filepath.Join(oc, "opencode.json"), `{"permission":{"bash":{"*--head*":"ask"}}}`)
	run(t, engine(opencode.Host, oc), Request{}, []tc{
		{"git status 2>&1 | head", Passthrough, ""},
		{"git status", AskRewrite, "gotk git status"},
	})
	// Gemini allows `gotk git push` by a rule naming gotk, and would ask
	// about `git push`: the rewrite would run it unasked.
	gm := filepath.Join(home, "gm")
	permissiontest.Write(t, filepath.Join(gm, ".gemini", "settings.json"), `{"tools":{"allowed":["run_shell_command(gotk)"]}}`)
	run(t, engine(gemini.Host, gm), Request{}, []tc{
		{"git push origin main", Passthrough, ""},
		{"git status && git push", Passthrough, ""},
	})
}

// TestRewriteMatchesNoNewRuleProperty: over the corpus, a rule written
// for any run of words of OpenCode's rewritten line (`*--head 10 git*`,
// `*gotk git*`), whatever its action, leaves the line unrewritten or
// matches no command of the rewrite: OpenCode checks its rules on the
// rewritten commands' text, and a rule only the rewrite meets would
// decide a command the user never wrote a rule for.
func TestRewriteMatchesNoNewRuleProperty(t *testing.T) {
	proj, home := t.TempDir(), t.TempDir()
	engine := func() *Engine { // a hook call: rules read afresh
		return &Engine{Host: opencode.Host, Env: permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: proj,
			ManagedDir: filepath.Join(proj, "managed")}}
	}
	cfg := filepath.Join(proj, "opencode.json")
	r := rand.New(rand.NewPCG(27, 32))
	lines := append(corpus(t), "git status 2>&1 | head", "go test ./... 2>&1 | tail -30", "cd sub && git log -5 | head -n 3")
	checked := 0
	for _, line := range lines {
		os.Remove(cfg)
		base := engine().Decide(Request{Command: line})
		if !isRewrite(base) {
			continue
		}
		words := strings.Fields(base.Command)
		for range 3 {
			i := r.IntN(len(words))
			j := i + 1 + r.IntN(min(3, len(words)-i))
			pattern := "*" + strings.Join(words[i:j], " ") + "*"
			action := []string{"allow", "ask", "deny"}[r.IntN(3)]
			doc, _ := json.Marshal(map[string]any{"permission": map[string]any{"bash": map[string]string{pattern: action}}})
			if err := os.WriteFile(cfg, doc, 0o644); err != nil {
				t.Fatal(err)
			}
			d := engine().Decide(Request{Command: line})
			if !isRewrite(d) {
				continue
			}
			s, err := shell.Parse(d.Command)
			if err != nil {
				t.Fatalf("%q: rewrite %q does not parse: %v", line, d.Command, err)
			}
			for _, c := range s.Commands {
				if text := s.Src[c.Start:c.End]; opencode.Match(text, pattern) {
					t.Errorf("%q → %q: %q (%s) matches the rewritten command %q", line, d.Command, pattern, action, text)
				}
			}
			checked++
		}
	}
	if checked < 200 {
		t.Fatalf("only %d rewrites checked", checked)
	}
}

// TestCodexRuleOnRewrite: Codex runs a command one of its allow rules
// matches outside its sandbox; a rule naming gotk (an "always allow" of an
// earlier rewritten prompt) would take a sandboxed `ls -la` out.
func TestCodexRuleOnRewrite(t *testing.T) {
	home := t.TempDir()
	p := filepath.Join(home, ".codex", "rules", "default.rules")
	permissiontest.Write(t, p, `prefix_rule(pattern=["gotk"], decision="allow")`+"\n")
	e := &Engine{Host: codex.Host, Env: permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: home,
		ManagedDir: filepath.Join(home, "managed")}}
	run(t, e, Request{}, []tc{{"ls -la", Passthrough, ""}, {"ls -la && cat go.mod", Passthrough, ""}})
	os.Remove(p)
	e = &Engine{Host: codex.Host, Env: e.Env}
	run(t, e, Request{}, []tc{{"ls -la", AllowRewrite, "gotk ls -la"}})
}

// TestCodexGotkRuleByPath: the Codex hook writes gotk's absolute path,
// which Codex may match to a rule naming gotk by its basename.
func TestCodexGotkRuleByPath(t *testing.T) {
	for _, rule := range []string{`["gotk"]`, `["/opt/bin/gotk", "ls"]`, `[["gotk", "rtk"]]`} {
		home := t.TempDir()
		permissiontest.Write(t, filepath.Join(home, ".codex", "rules", "default.rules"), `prefix_rule(pattern=`+rule+`, decision="allow")`+"\n")
		e := &Engine{Host: codex.Host, Prefix: "/opt/bin/gotk", Env: permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: home,
			ManagedDir: filepath.Join(home, "managed")}}
		run(t, e, Request{}, []tc{{"ls -la", Passthrough, ""}})
	}
}
