package cursor

import (
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

func TestCursorMatch(t *testing.T) {
	cases := []struct {
		pattern, cmd string
		want         bool
	}{
		{"git", "git status", true},
		{"git", "gitk", false},
		{"curl:*", "curl -s x", true},
		{"git:status*", "git status --short", true},
		{"git:status*", "git log", false},
		{"*", "rm -rf /", true},
		{"npm*", "npmx i", true},
		{"gi?", "git status", true},
		{"gi?", "gitk", false},
		{"git:st?tus", "git status", true},
		{"**", "make", true},
		{"curl:*", "curl", true},
	}
	for _, c := range cases {
		if got := match(c.pattern, c.cmd); got != c.want {
			t.Errorf("match(%q, %q) = %v, want %v", c.pattern, c.cmd, got, c.want)
		}
	}
}

func TestLoadCursor(t *testing.T) {
	home := t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".cursor", "cli-config.json"), `{"version":1,"permissions":{"allow":["Shell(git)","Shell(ls)"],"deny":["Shell(rm)"]}}`)
	proj := filepath.Join(home, "p")
	permissiontest.Write(t, filepath.Join(proj, ".cursor", "cli.json"), `{"permissions":{"allow":["Shell(curl)"],"deny":["Shell(git:push*)"]}}`)
	r := Host.LoadRules(permissiontest.Env(home, proj, nil))
	for cmd, want := range map[string]permission.Verdict{"git status": permission.Allow, "ls -la": permission.Allow, "rm x": permission.Deny, "curl x": permission.Default, "git push": permission.Deny} {
		if got := r.Check(permissiontest.Seg(cmd)).Verdict; got != want {
			t.Errorf("cursor %q: %v, want %v", cmd, got, want)
		}
	}
}

// decide writes Cursor's global and project rule files and decides line.
func decide(t *testing.T, global, project, line string) decision.Decision {
	t.Helper()
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	permissiontest.Write(t, filepath.Join(home, ".cursor", "cli-config.json"), global)
	permissiontest.Write(t, filepath.Join(proj, ".cursor", "cli.json"), project)
	return decision.New(Host, permissiontest.Env(home, proj, nil)).Decide(decision.Request{Command: line, Cwd: proj})
}

// TestCursorDenyQuestionGlob: Cursor's globs take `?`. A `Shell(gi?)` deny
// denies `git status`; gotk, reading `?` as itself, rewrote it to `gotk git
// status`, which the deny no longer matches.
func TestCursorDenyQuestionGlob(t *testing.T) {
	d := decide(t, `{"permissions":{"deny":["Shell(gi?)"]}}`, `{}`, "git status")
	if d.Verdict != decision.Deny || d.Command != "git status" {
		t.Errorf("deny Shell(gi?): %s %q, want deny, unchanged", d.Verdict, d.Command)
	}
}

// TestCursorWrapperIsTheBase: Cursor's base is the first token, so
// `Shell(go)` does not allow `timeout 5 go test`. gotk, seeing through the
// wrapper, answered allow, which runs a command Cursor would ask about.
func TestCursorWrapperIsTheBase(t *testing.T) {
	for _, line := range []string{"timeout 5 go test ./...", "nice go test", "go test && cat x.txt"} {
		if d := decide(t, `{"permissions":{"allow":["Shell(go)"]}}`, `{}`, line); d.Verdict == decision.AllowRewrite {
			t.Errorf("%q under Shell(go): allow %q; Cursor would ask about the original", line, d.Command)
		}
	}
}

// TestCursorAllowedNotRewritten: a command Cursor's allow rules cover is
// left alone, since Cursor may test its allowlist on the rewritten
// command, which `Shell(git)` does not cover (it would ask where it ran);
// with `Shell(gotk)` allowed too the rewrite is judged alike and allowed.
func TestCursorAllowedNotRewritten(t *testing.T) {
	if d := decide(t, `{"permissions":{"allow":["Shell(git)"]}}`, `{}`, "git status"); d.Command != "git status" {
		t.Errorf("Shell(git): rewritten to %q", d.Command)
	}
	if d := decide(t, `{"permissions":{"allow":["Shell(git)","Shell(gotk)"]}}`, `{}`, "git status"); d.Verdict != decision.AllowRewrite || d.Command != "gotk git status" {
		t.Errorf("Shell(git), Shell(gotk): %s %q, want allow gotk git status", d.Verdict, d.Command)
	}
}

// TestCursorProjectAllowMatchesRewrite: a project allow rule that covers
// the rewrite but not the original (`Shell(g*)` and `cat`) would run what
// Cursor asks about: no rewrite. gotk never allows by a project rule, but
// Cursor applies it.
func TestCursorProjectAllowMatchesRewrite(t *testing.T) {
	if d := decide(t, `{}`, `{"permissions":{"allow":["Shell(g*)"]}}`, "cat x.txt"); d.Command != "cat x.txt" {
		t.Errorf("project Shell(g*): %s %q, want no rewrite", d.Verdict, d.Command)
	}
	if d := decide(t, `{}`, `{}`, "cat x.txt"); d.Verdict != decision.AskRewrite {
		t.Errorf("no rules: %s %q, want an ask rewrite", d.Verdict, d.Command)
	}
}
