package hosts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts/claude"
	"github.com/gotk-dev/gotk/core/hosts/codex"
	"github.com/gotk-dev/gotk/core/hosts/gemini"
	"github.com/gotk-dev/gotk/core/permission"
)

// FuzzRuleFiles: any bytes in a host's rule files → no panic, and a host
// whose rules gotk cannot read never allows anything.
func FuzzRuleFiles(f *testing.F) {
	f.Add([]byte(`prefix_rule(pattern=["git", ["push", "fetch"]], decision="forbidden", match=["git push"])`),
		[]byte("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git push\"\ndecision = \"deny\"\npriority = 100\n"),
		[]byte(`{"permissions":{"allow":["Bash(*)"]}}`))
	f.Add([]byte(`prefix_rule(`), []byte("[[rule]\n"), []byte(`{"permissions":`))
	f.Fuzz(func(t *testing.T, codexRules, geminiPolicy, claudeJSON []byte) {
		home := t.TempDir()
		for p, b := range map[string][]byte{
			".codex/rules/x.rules":    codexRules,
			".gemini/policies/x.toml": geminiPolicy,
			".claude/settings.json":   claudeJSON,
		} {
			p = filepath.Join(home, p)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, b, 0o644)
		}
		env := permission.Env{Getenv: func(string) string { return "" }, Home: home, ManagedDir: filepath.Join(home, "none")}
		for _, h := range []*host.Def{claude.Host, codex.Host, gemini.Host} {
			r := h.LoadRules(env)
			res := r.Check(permission.Segment{Forms: []string{"rm -rf /"}, AllowForm: "rm -rf /"})
			if r.Unreadable && res.Verdict == permission.Allow {
				t.Fatalf("%s: unreadable rules allowed a command", h.Name)
			}
		}
	})
}
