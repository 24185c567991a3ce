package decision

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/hosts/codex"

	"github.com/gotk-dev/gotk/core/permission"
)

// TestCodexWholeScriptLines: Codex matches its prefix rules only on lines
// it splits into plain commands (bash.rs try_parse_word_only_commands_
// sequence); any other line it judges as one `bash -lc` script, which no
// rule and no known-safe list matches, and asks. gotk never answers allow
// for such a line, under an allow rule or its known-safe commands.
func TestCodexWholeScriptLines(t *testing.T) {
	home := t.TempDir()
	f := filepath.Join(home, ".codex", "rules", "default.rules")
	os.MkdirAll(filepath.Dir(f), 0o755)
	os.WriteFile(f, []byte(`prefix_rule(pattern=["git", "status"], decision="allow")`+"\n"+`prefix_rule(pattern=["git", "log"], decision="allow")`), 0o644)
	e := &Engine{Host: codex.Host, Env: permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: home, ManagedDir: filepath.Join(home, "managed")}}
	for _, cmd := range []string{
		"git status 2>&1", "git status >&2", "git status &", "(git status)", "{ git status; }", "! git status",
		"time git status", "A=1 git status", "git status |& head", "git status # look", "git status $X",
		"ls -la 2>&1", "(ls -la)", "time ls",
	} {
		d := e.Decide(Request{Command: cmd, Explain: true})
		if d.Verdict == AllowRewrite {
			t.Errorf("%q: allow (%s); Codex asks about a line it cannot split", cmd, d.Reason)
		}
	}
	run(t, e, Request{}, []tc{
		{"ls -la", AllowRewrite, "gotk ls -la"},
		{"ls -la && cat README.md", AllowRewrite, "gotk ls -la && gotk cat README.md"},
		{`ls "-la"`, AllowRewrite, `gotk ls "-la"`},
		{"ls; cat go.mod", AllowRewrite, "gotk ls; gotk cat go.mod"},
		// Codex runs what an allow rule matches outside its sandbox;
		// `gotk git status` would run inside it: left to Codex
		{"git status", Passthrough, ""},
		{"git status && git log -3", Passthrough, ""},
		{"ls -la && git log -3", Passthrough, ""},
	})
	run(t, e, Request{AutoAllow: true}, []tc{{"git status", Passthrough, ""}, {"go test ./...", AllowRewrite, "gotk go test ./..."}})
}
