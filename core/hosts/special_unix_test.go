//go:build unix

package hosts

import (
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts/claude"
	"github.com/gotk-dev/gotk/core/hosts/codex"
	"github.com/gotk-dev/gotk/core/hosts/cursor"
	"github.com/gotk-dev/gotk/core/hosts/droid"
	"github.com/gotk-dev/gotk/core/hosts/gemini"
	"github.com/gotk-dev/gotk/core/hosts/kilo"
	"github.com/gotk-dev/gotk/core/hosts/opencode"
	"github.com/gotk-dev/gotk/core/hosts/vibe"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
	"github.com/gotk-dev/gotk/core/regfile/regfiletest"
)

// TestSpecialRuleFiles: a rule file that is a FIFO, a link to /dev/zero, a
// device or a directory, wherever a host reads one (home, ancestors of the
// working directory), neither hangs nor crashes the load, and gotk answers
// allow for nothing: the file is skipped with one warning and the host's
// rules count as unknown.
func TestSpecialRuleFiles(t *testing.T) {
	cases := []struct {
		host *host.Def
		path string // under home; "cwd/" paths are the project's
	}{
		{claude.Host, ".claude/settings.json"},
		{claude.Host, "cwd/.claude/settings.local.json"},
		{cursor.Host, ".cursor/cli-config.json"},
		{gemini.Host, ".gemini/settings.json"},
		{gemini.Host, ".gemini/policies/x.toml"},
		{gemini.Host, "cwd/.gemini/policies"},
		{vibe.Host, ".vibe/config.toml"},
		{codex.Host, ".codex/rules/x.rules"},
		{codex.Host, ".codex/config.toml"},
		{codex.Host, "cwd/.codex/rules/x.rules"},
		{droid.Host, "cwd/.factory/settings.json"},
		{kilo.Host, ".config/kilo/kilo.json"},
		{kilo.Host, "proj/kilo.json"},
		{opencode.Host, "proj/opencode.json"},
		{opencode.Host, ".config/opencode/opencode.json"},
		{opencode.Host, ".config/opencode/agent/x.md"},
		{kilo.Host, "proj/.kilo/agents/x.md"},
	}
	for _, c := range cases {
		for _, kind := range regfiletest.Kinds {
			if kind == "directory" && filepath.Ext(c.path) == "" {
				continue
			}
			t.Run(c.host.Name+"/"+c.path+"/"+kind, func(t *testing.T) {
				home := t.TempDir()
				proj := filepath.Join(home, "proj")
				cwd := filepath.Join(proj, "cwd")
				permissiontest.Write(t, filepath.Join(proj, ".git", "HEAD"), "x")
				permissiontest.Write(t, filepath.Join(cwd, "README"), "")
				p := filepath.Join(home, c.path)
				if rel, ok := cutPrefix(c.path, "cwd/"); ok {
					p = filepath.Join(cwd, rel)
				}
				regfiletest.Make(t, kind, p)
				var r *permission.Rules
				regfiletest.Within(t, func() { r = c.host.LoadRules(permissiontest.Env(home, cwd, nil)) })
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
