package decision

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/hosts/codex"

	"github.com/gotk-dev/gotk/core/permission"
)

// TestUnreadableRules: a host rule file gotk cannot parse makes every
// command a Deny (gotk steps aside), with the file named in a warning.
func TestUnreadableRules(t *testing.T) {
	home := t.TempDir()
	f := filepath.Join(home, ".codex", "rules", "default.rules")
	os.MkdirAll(filepath.Dir(f), 0o755)
	os.WriteFile(f, []byte(`prefix_rule(pattern=[f"git"], decision="forbidden")`+"\n"), 0o644) // f-strings: not Starlark gotk evaluates
	e := &Engine{Host: codex.Host, Env: permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: home, ManagedDir: filepath.Join(home, "managed")}}
	// a hook's question about a line with nothing to rewrite reads no rule
	// file: its answer is the no-op either way
	if d := e.Decide(Request{Command: "echo hi"}); d.Verdict != Passthrough || len(d.Warnings) != 0 {
		t.Errorf("nothing to rewrite: %v (%s) %q", d.Verdict, d.Reason, d.Warnings)
	}
	d := e.Decide(Request{Command: "git status"})
	if d.Verdict != Deny || d.Permission != permission.Deny || d.Command != "git status" || !strings.Contains(d.Reason, "steps aside") {
		t.Errorf("got %v %v %q (%s)", d.Verdict, d.Permission, d.Command, d.Reason)
	}
	if len(d.Warnings) == 0 || !strings.Contains(strings.Join(d.Warnings, "\n"), "default.rules") {
		t.Errorf("warnings: %q", d.Warnings)
	}
	// a readable file: forbidden rules deny; Codex takes only allows, so
	// its known-safe commands are rewritten and the rest left alone
	os.WriteFile(f, []byte(`prefix_rule(pattern=["git", "push"], decision="forbidden")`), 0o644)
	e = &Engine{Host: codex.Host, Env: e.Env}
	run(t, e, Request{}, []tc{
		{"git push origin", Deny, ""},
		{"git status", Passthrough, ""},
		{"ls -la", AllowRewrite, "gotk ls -la"},
	})
}
