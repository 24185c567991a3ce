package decision

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/hosts/opencode"

	"github.com/gotk-dev/gotk/core/config"
	"github.com/gotk-dev/gotk/core/permission"
)

// The holes a hostile review found, each as the class it belongs
// to. The property tests in property_test.go prove the principles; these
// pin the reported examples.

// project makes a project directory with files, a link inside and links
// that lead outside, and returns an engine whose working directory it is.
func project(t *testing.T, settings string) (*Engine, string) {
	t.Helper()
	e := newEngine(t, settings, config.Config{})
	proj := filepath.Join(e.Env.Home, "proj")
	outside := filepath.Join(e.Env.Home, "secret")
	for _, d := range []string{filepath.Join(proj, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(proj, "notes.txt"), filepath.Join(proj, "sub", "a.txt"), filepath.Join(outside, "passwd")} {
		os.WriteFile(f, []byte("x\n"), 0o644)
	}
	for link, target := range map[string]string{
		"leak":      filepath.Join(outside, "passwd"),
		"leakdir":   outside,
		"sub/up":    "../..",
		"good":      "notes.txt",
		"sub/alias": "../notes.txt",
		"dangling":  filepath.Join(outside, "new.txt"),
		"loop":      "loop",
	} {
		if err := os.Symlink(target, filepath.Join(proj, link)); err != nil {
			t.Fatal(err)
		}
	}
	e.Env.Cwd = proj
	return e, proj
}

func TestQuotingDoesNotDodgeRules(t *testing.T) {
	e, _ := project(t, `{"permissions":{"allow":["Bash(git:*)","Bash(npm:*)"],"ask":["Bash(git log:*)"],"deny":["Bash(git diff:*)","Bash(ls:*)","Bash(npm publish)"]}}`)
	claude := Request{ReadOnlyAutoAllow: true}
	run(t, e, claude, []tc{
		{"git diff", Deny, ""},
		{`git "diff"`, Deny, ""},
		{`git 'diff'`, Deny, ""},
		{`git di""ff`, Deny, ""},
		{`git d\iff HEAD`, Deny, ""},
		{`"git" diff`, Deny, ""},
		{`"ls"`, Deny, ""},
		{`l\s -la`, Deny, ""},
		{`'l's`, Deny, ""},
		{`npm "publish"`, Deny, ""},
		{`timeout 5 git "diff"`, Deny, ""},
		// an ask rule dodged by quoting: the readings disagree, so gotk
		// says nothing and the host decides
		{`git 'log'`, Passthrough, ""},
		{`git l"o"g -1`, Passthrough, ""},
		{"git log", AskRewrite, "gotk git log"},
		{"git status", AllowRewrite, "gotk git status"},
		{`git "status"`, AllowRewrite, `gotk git "status"`},
		// one word that holds a space is not two words
		{`git "status -s"`, Passthrough, ""},
	})
}

func TestReadsOutsideTheProject(t *testing.T) {
	e, proj := project(t, "")
	claude := Request{ReadOnlyAutoAllow: true}
	run(t, e, claude, []tc{
		{"cat notes.txt", AllowRewrite, "gotk cat notes.txt"},
		{"cat good", AllowRewrite, "gotk cat good"},
		{"cat sub/alias", AllowRewrite, "gotk cat sub/alias"},
		{"cat leak", AskRewrite, "gotk cat leak"},
		{"cat leakdir/passwd", AskRewrite, "gotk cat leakdir/passwd"},
		{"cat sub/up/secret/passwd", AskRewrite, "gotk cat sub/up/secret/passwd"},
		{"cat leakdir/../proj/notes.txt", AllowRewrite, "gotk cat leakdir/../proj/notes.txt"}, // home/secret/.. is home
		{"cat leakdir/../secret/passwd", AskRewrite, "gotk cat leakdir/../secret/passwd"},
		{"ls sub/up", AskRewrite, "gotk ls sub/up"},
		{"cat dangling", AskRewrite, "gotk cat dangling"},
		{"cat loop", AskRewrite, "gotk cat loop"},
		{"head -n 5 leak", AskRewrite, "gotk head -n 5 leak"},
		{"tail -3 leak", AskRewrite, "gotk tail -3 leak"},
		{"wc -l leak", AskRewrite, "gotk wc -l leak"},
		{"diff notes.txt leak", AskRewrite, "gotk diff notes.txt leak"},
		{"grep --file=leak notes.txt", AskRewrite, "gotk grep --file=leak notes.txt"},
		{"grep -fleak notes.txt", AskRewrite, "gotk grep -fleak notes.txt"},
		{"grep -f leak notes.txt", AskRewrite, "gotk grep -f leak notes.txt"},
		{"grep -r x /etc", AskRewrite, "gotk grep -r x /etc"},
		{"tree --fromfile leak", AskRewrite, "gotk tree --fromfile leak"},
		{"git diff --no-index notes.txt leak", AskRewrite, "gotk git diff --no-index notes.txt leak"},
		{"git diff --no-index notes.txt /etc/passwd", AskRewrite, "gotk git diff --no-index notes.txt /etc/passwd"},
		{"ls nosuch/../..", AskRewrite, "gotk ls nosuch/../.."},
		{"ls nosuch/file", AllowRewrite, "gotk ls nosuch/file"},
		// where the line moves to, the reads follow
		{"cd sub && cat a.txt", AllowRewrite, "cd sub && gotk cat a.txt"},
		{"cd /etc && cat passwd", AskRewrite, "cd /etc && gotk cat passwd"},
		{"cd leakdir && cat passwd", AskRewrite, "cd leakdir && gotk cat passwd"},
		{"cd $D && cat passwd", Passthrough, ""},
		{"cd - && ls", Passthrough, ""},
	})
	// an agent whose shell already left the project: what it names there
	// is outside; what it reads implicitly there gotk cannot tell
	e.Env.Getenv = func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return proj
		}
		return ""
	}
	out := filepath.Join(e.Env.Home, "secret")
	run(t, e, Request{ReadOnlyAutoAllow: true, Cwd: out}, []tc{
		{"cat passwd", AskRewrite, "gotk cat passwd"},
		{"git status", AskRewrite, "gotk git status"}, // "status" is a name under cwd
		{"ls", Passthrough, ""},
		{"cat " + filepath.Join(proj, "notes.txt"), AllowRewrite, "gotk cat " + filepath.Join(proj, "notes.txt")},
	})
}

func TestWorkingDirectoriesFromSettingsAndFlags(t *testing.T) {
	e, proj := project(t, "")
	claude := Request{ReadOnlyAutoAllow: true}
	run(t, e, claude, []tc{{"cat leak", AskRewrite, "gotk cat leak"}})
	// --add-dir
	e2, _ := project(t, "")
	e2.Env.Session.Dirs = []string{filepath.Join(e2.Env.Home, "secret")}
	run(t, e2, claude, []tc{{"cat leak", AllowRewrite, "gotk cat leak"}})
	// permissions.additionalDirectories, relative to the project
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), []byte(`{"permissions":{"additionalDirectories":["../secret"]}}`), 0o644)
	e3 := &Engine{Host: e.Host, Env: e.Env}
	run(t, e3, claude, []tc{{"cat leak", AllowRewrite, "gotk cat leak"}, {"cat /etc/hostname", AskRewrite, "gotk cat /etc/hostname"}})
}

func TestSettingsClaudeReads(t *testing.T) {
	e, proj := project(t, `{"permissions":{"allow":["Bash(make:*)"]}}`)
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), []byte(`{"permissions":{"deny":["Bash(git log:*)"]}}`), 0o644)
	os.MkdirAll(filepath.Join(proj, "sub", ".claude"), 0o755)
	os.WriteFile(filepath.Join(proj, "sub", ".claude", "settings.json"), []byte(`{}`), 0o644)
	e.Env.Getenv = func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return proj
		}
		return ""
	}
	claude := Request{ReadOnlyAutoAllow: true, Cwd: filepath.Join(proj, "sub")}
	run(t, e, claude, []tc{{"git log", Deny, ""}, {"make", AllowRewrite, "gotk make"}})

	// the session's own flags
	flags := func(s permission.Session) *Engine {
		return &Engine{Host: e.Host, Env: permission.Env{Getenv: e.Env.Getenv, Home: e.Env.Home, Cwd: proj, ManagedDir: e.Env.ManagedDir, Session: s}}
	}
	run(t, flags(permission.Session{Deny: []string{"Bash(make:*)"}}), claude, []tc{{"make", Deny, ""}})
	run(t, flags(permission.Session{Allow: []string{"Bash(npm test)"}}), claude, []tc{{"npm test", AllowRewrite, "gotk npm test"}})
	run(t, flags(permission.Session{Settings: []string{`{"permissions":{"deny":["Bash(git status)"]}}`}}), claude, []tc{{"git status", Deny, ""}})
	os.WriteFile(filepath.Join(proj, "extra.json"), []byte(`{"permissions":{"ask":["Bash(make)"]}}`), 0o644)
	run(t, flags(permission.Session{Settings: []string{"extra.json"}}), claude, []tc{{"make", AskRewrite, "gotk make"}})
	// --setting-sources user: the project's deny is not read, and neither
	// would its allow be
	run(t, flags(permission.Session{Sources: []string{"user"}}), claude, []tc{{"git log", AllowRewrite, "gotk git log"}})
	run(t, flags(permission.Session{Sources: []string{"project"}}), claude, []tc{{"make", AskRewrite, "gotk make"}})
	// flags gotk cannot read: never allow, and never ask where an allow
	// among them would let Claude run the original (its allow rules match
	// the original, not gotk's rewrite), unless an ask rule gotk reads
	// makes Claude ask whatever they say
	blind := flags(permission.Session{})
	blind.Session.Unreadable = true
	run(t, blind, claude, []tc{{"git status", Passthrough, ""}, {"make", Passthrough, ""}, {"go test ./...", Passthrough, ""}, {"go test ./... 2>&1 | tail -5", Passthrough, ""}})
	run(t, blind, Request{AutoAllow: true}, []tc{{"go test ./...", Passthrough, ""}})
	blindAsk := flags(permission.Session{Settings: []string{"extra.json"}})
	blindAsk.Session.Unreadable = true
	run(t, blindAsk, claude, []tc{{"make", AskRewrite, "gotk make"}, {"make && go test ./...", AskRewrite, "gotk make && gotk go test ./..."}, {"go test ./...", Passthrough, ""}})
}

func TestSameLineRedefinitions(t *testing.T) {
	e, _ := project(t, `{"permissions":{"allow":["Bash(git:*)"]}}`)
	claude := Request{ReadOnlyAutoAllow: true}
	for _, cmd := range []string{
		"git() { echo dry; }; git push",
		"function git { :; }; git status",
		"alias git='echo'; git status",
		"hash -p /tmp/evil git; git status",
		"enable -n kill; git status",
		"source ./x.sh && git status",
		"eval 'git() { :; }'; git status",
		"unset -f git; git status",
		"PATH=/tmp/bin:$PATH; git status",
		"export PATH=/tmp/bin; git status",
		"PATH=/usr/bin git status",
		// rewrites that could not run
		"command -p git status",
		"env -i git status",
		"env -u PATH git status",
		"env PATH=/usr/bin git status",
		"exec -c git status",
		"builtin git status",
		// a control character is part of a word for bash
		"ls\rf.txt",
		"git status\x1b",
	} {
		if d := e.Decide(Request{Command: cmd, ReadOnlyAutoAllow: claude.ReadOnlyAutoAllow}); d.Verdict == AllowRewrite || d.Verdict == AskRewrite {
			t.Errorf("%q: %v %q, want no rewrite", cmd, d.Verdict, d.Command)
		}
	}
}

func TestExpansions(t *testing.T) {
	e, _ := project(t, `{"permissions":{"allow":["Bash(git log:*)"],"deny":["Bash(git push --force:*)"]}}`)
	run(t, e, Request{ReadOnlyAutoAllow: true}, []tc{
		{"git log", AllowRewrite, "gotk git log"},
		{`git log --author="$USER"`, Passthrough, ""},
		{"ls $D", AskRewrite, "gotk ls $D"},
		{"ls *.txt", AskRewrite, "gotk ls *.txt"},
	})
	run(t, e, Request{AutoAllow: true}, []tc{
		{"git push $F", Passthrough, ""},
		{"make", AllowRewrite, "gotk make"},
	})
}

func TestCrashSeedsDecide(t *testing.T) {
	e, _ := project(t, `{"permissions":{"allow":["Bash(git:*)"],"deny":["Bash(rm:*)"]}}`)
	for _, cmd := range []string{
		"! 2>&1 | rm -rf /",
		"! 2>&1 | git status",
		"! >x | git log | head",
		strings.Repeat("(", 70) + "git status" + strings.Repeat(")", 70),
		strings.Repeat("{ ", 70) + "git status;" + strings.Repeat(" }", 70),
		strings.Repeat("$(", 5000) + "x" + strings.Repeat(")", 5000),
		strings.Repeat("git status; ", 10000),
	} {
		d := e.Decide(Request{Command: cmd, ReadOnlyAutoAllow: true})
		if d.Verdict == AllowRewrite && strings.Contains(cmd, "rm") {
			t.Errorf("%.40q: allowed", cmd)
		}
	}
}

// TestQuotedDenyEveryHost: a deny rule of each host's own kind holds
// whatever the quoting (Cursor Shell(…), Gemini tools.exclude, Codex
// execpolicy, Vibe denylist, Claude Bash(…)).
func TestQuotedDenyEveryHost(t *testing.T) {
	for host, e := range hostEngines(t) {
		for _, cmd := range []string{`git "push" origin`, `git pu''sh`, `g\it push`, `"rm" -rf x`, `r\m x`} {
			d := e.Decide(Request{Command: cmd, ReadOnlyAutoAllow: host == "claude", AutoAllow: true, Explain: true})
			if d.Verdict != Deny {
				t.Errorf("%s: %q: %v (%s), want deny", host, cmd, d.Verdict, d.Reason)
			}
		}
	}
}

// TestOpenCodePlugin: OpenCode checks its rules on the rewritten command
// and looks for cat as the program before a read outside the project, so
// the plugin's host never rewrites cat, and steps aside where the user has
// permission rules (found in Kilo, its fork, measured by the issue-18 work).
func TestOpenCodePlugin(t *testing.T) {
	home := t.TempDir()
	e := &Engine{Host: opencode.Host, Env: permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: home}}
	run(t, e, Request{}, []tc{
		{"git status", AskRewrite, "gotk git status"},
		{"cat /etc/passwd", Passthrough, ""},
		{"git status && cat x", Passthrough, ""},
	})
	os.WriteFile(filepath.Join(home, "opencode.json"), []byte(`{"permission":{"bash":"ask"}}`), 0o644)
	e = &Engine{Host: opencode.Host, Env: e.Env}
	run(t, e, Request{}, []tc{{"git status", Deny, ""}})
}

// TestModeMayRun: Claude's acceptEdits mode runs mkdir, touch, rm… without
// asking. gotk never rewrites those, but a line joining one to a command it
// rewrites may be one Claude runs unasked: gotk's "ask" would prompt for
// it, so the line is left to Claude. Where another command needs approval
// anyway, Claude asks for the line and gotk's ask changes nothing.
func TestModeMayRun(t *testing.T) {
	e, _ := project(t, `{"permissions":{"ask":["Bash(rm:*)"]}}`)
	acceptEdits := Request{ReadOnlyAutoAllow: true, ModeMayRun: []string{"mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"}}
	run(t, e, acceptEdits, []tc{
		{"touch a && git status", Passthrough, ""},
		{"mkdir -p out; ls out", Passthrough, ""},
		{"/bin/mv a b && git diff", Passthrough, ""},
		{"timeout 5 cp a b && git log", Passthrough, ""},
		{"mkdir -p out && go test ./...", AskRewrite, "mkdir -p out && gotk go test ./..."},
		{"rm x && git status", AskRewrite, "rm x && gotk git status"}, // an ask rule: Claude asks
		{"git status", AllowRewrite, "gotk git status"},
		{"go test ./...", AskRewrite, "gotk go test ./..."},
	})
	// the default mode asks for touch: so does gotk
	run(t, e, Request{ReadOnlyAutoAllow: true}, []tc{{"touch a && git status", AskRewrite, "touch a && gotk git status"}})
}
