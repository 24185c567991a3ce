//go:build unix

package permission

import (
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/regfile/regfiletest"
)

// TestSpecialRuleFiles: a rule file that is a FIFO, a link to /dev/zero, a
// device or a directory, wherever a host reads one (home, ancestors of the
// working directory), neither hangs nor crashes the load, and gotk answers
// allow for nothing: the file is skipped with one warning and the host's
// rules count as unknown.
func TestSpecialRuleFiles(t *testing.T) {
	cases := []struct {
		host Host
		path string // under home; "cwd/" paths are the project's
	}{
		{Claude, ".claude/settings.json"},
		{Claude, "cwd/.claude/settings.local.json"},
		{Cursor, ".cursor/cli-config.json"},
		{Gemini, ".gemini/settings.json"},
		{Gemini, ".gemini/policies/x.toml"},
		{Gemini, "cwd/.gemini/policies"},
		{Vibe, ".vibe/config.toml"},
		{Codex, ".codex/rules/x.rules"},
		{Codex, ".codex/config.toml"},
		{Codex, "cwd/.codex/rules/x.rules"},
		{Droid, "cwd/.factory/settings.json"},
		{Kilo, ".config/kilo/kilo.json"},
		{Kilo, "proj/kilo.json"},
		{OpenCode, "proj/opencode.json"},
		{OpenCode, ".config/opencode/opencode.json"},
		{OpenCode, ".config/opencode/agent/x.md"},
		{Kilo, "proj/.kilo/agents/x.md"},
	}
	for _, c := range cases {
		for _, kind := range regfiletest.Kinds {
			if kind == "directory" && filepath.Ext(c.path) == "" {
				continue
			}
			t.Run(string(c.host)+"/"+c.path+"/"+kind, func(t *testing.T) {
				home := t.TempDir()
				proj := filepath.Join(home, "proj")
				cwd := filepath.Join(proj, "cwd")
				write(t, filepath.Join(proj, ".git", "HEAD"), "x")
				write(t, filepath.Join(cwd, "README"), "")
				p := filepath.Join(home, c.path)
				if rel, ok := cutPrefix(c.path, "cwd/"); ok {
					p = filepath.Join(cwd, rel)
				}
				regfiletest.Make(t, kind, p)
				var r *Rules
				regfiletest.Within(t, func() { r = Load(c.host, env(home, cwd, nil)) })
				if len(r.Warnings) > 1 {
					t.Errorf("%d warnings, want at most one: %q", len(r.Warnings), r.Warnings)
				}
				if kind == "directory" {
					return // a directory where a file belongs is no file at all
				}
				// Unknown rules, or a file the host skips too, said once.
				if !r.Unreadable && len(r.Warnings) != 1 {
					t.Errorf("a %s rule file left the rules readable without a warning", kind)
				}
			})
		}
	}
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return "", false
}
