package decision

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts/kilo"
	"github.com/gotk-dev/gotk/core/hosts/opencode"

	"github.com/gotk-dev/gotk/core/permission"
)

// TestPluginHostRuleSources: the OpenCode plugin (OpenCode and Kilo) does
// not rewrite a command one of the host's rules names, wherever the rule
// is written — an agent's markdown file, $OPENCODE_PERMISSION, a wildcard
// key — nor where Kilo's rule names the command's assignments or
// redirects, which only its source text shows.
func TestPluginHostRuleSources(t *testing.T) {
	home := t.TempDir()
	write := func(p, data string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	engine := func(h *host.Def, vars map[string]string) *Engine {
		return &Engine{Host: h, Env: permission.Env{Getenv: func(k string) string { return vars[k] }, Home: home, Cwd: home,
			ManagedDir: filepath.Join(home, "managed")}}
	}
	write(filepath.Join(home, ".config", "opencode", "agents", "review.md"), "---\npermission:\n  bash:\n    \"git push *\": deny\n---\n")
	run(t, engine(opencode.Host, nil), Request{}, []tc{
		{"git push origin main", Passthrough, ""},
		{"git status", AskRewrite, "gotk git status"},
	})
	run(t, engine(opencode.Host, map[string]string{"OPENCODE_PERMISSION": `{"ba?h": {"git log*": "ask"}}`}), Request{}, []tc{
		{"git log -3", Passthrough, ""},
	})

	kiloVars := map[string]string{"GOTK_KILO_AGENT": "code", "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	write(filepath.Join(home, ".config", "kilo", "kilo.json"), `{"permission": {"bash": {"*": "allow",
		"GIT_SSH_COMMAND=* git push *": "deny", "git diff*2>&1": "deny"}}}`)
	run(t, engine(kilo.Host, kiloVars), Request{}, []tc{
		{"GIT_SSH_COMMAND=x git push origin main", Passthrough, ""},
		{"git diff HEAD 2>&1", Passthrough, ""},
		{"git diff HEAD", AskRewrite, "gotk git diff HEAD"},
	})
}
