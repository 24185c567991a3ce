package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClaudeMatch(t *testing.T) {
	cases := []struct {
		pattern, cmd string
		want         bool
	}{
		{"git status", "git status", true},
		{"git status", "git  status", true},
		{"git status", "git status --short", false}, // exact: see lenient for deny/ask
		{"git status", "git statusx", false},
		{"git push *", "git push origin main", true},
		{"git push *", "git push", true},
		{"git push *", "git pushx", false},
		{"git push:*", "git push -f", true},
		{"git push:*", "git pusher", false},
		{"ls*", "lsof", true},
		{"npm run test *", "npm run test -- -u", true},
		{"npm run test *", "npm run testing", false},
		{"git * diff *", "git -C /x diff", true},
		{"git * diff *", "git -C /x diff HEAD", true},
		{"git * diff *", "git log", false},
		{"*", "anything at all", true},
		{"", "x", false},
		{"git commit -m *", `git commit -m "a b"`, true},
	}
	for _, c := range cases {
		if got := claudeMatch(c.pattern, c.cmd); got != c.want {
			t.Errorf("claudeMatch(%q, %q) = %v, want %v", c.pattern, c.cmd, got, c.want)
		}
	}
}

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
	}
	for _, c := range cases {
		if got := cursorMatch(c.pattern, c.cmd); got != c.want {
			t.Errorf("cursorMatch(%q, %q) = %v, want %v", c.pattern, c.cmd, got, c.want)
		}
	}
}

func TestGeminiMatch(t *testing.T) {
	if !geminiMatch("git status", "git status -s") || geminiMatch("git status", "git statusx") || !geminiMatch("git", "git log") {
		t.Error("gemini prefix semantics")
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func env(home, cwd string, vars map[string]string) Env {
	return Env{Getenv: func(k string) string { return vars[k] }, Home: home, Cwd: cwd, ManagedDir: filepath.Join(home, "managed")}
}

func seg(cmd string) Segment { return Segment{Forms: []string{cmd}, AllowForm: cmd} }

func TestLoadClaude(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "work", "proj")
	// user settings with a BOM, comments and a trailing comma
	write(t, filepath.Join(home, ".claude", "settings.json"), "\ufeff{\n // user\n \"permissions\": {\"allow\": [\"Bash(npm test)\", \"Read(*)\",], \"deny\": [\"Bash(git push --force:*)\"]}}")
	write(t, filepath.Join(proj, ".claude", "settings.local.json"), `{"permissions":{"ask":["Bash(git push *)"]}}`)
	write(t, filepath.Join(proj, "sub", "x"), "")
	write(t, filepath.Join(home, "managed", "managed-settings.json"), `{"permissions":{"deny":["Bash(curl *)"]}}`)
	// an empty .claude/ nearer the working directory does not hide the
	// project's rules: Claude reads $CLAUDE_PROJECT_DIR
	write(t, filepath.Join(proj, "sub", ".claude", "settings.json"), `{}`)
	r := Load(Claude, env(home, filepath.Join(proj, "sub"), map[string]string{"CLAUDE_PROJECT_DIR": proj}))
	if len(r.Warnings) != 0 {
		t.Fatalf("warnings: %v", r.Warnings)
	}
	if len(r.Dirs) != 1 || r.Dirs[0] != proj {
		t.Errorf("Dirs = %q, want the project dir", r.Dirs)
	}
	check := func(cmd string, want Verdict) {
		t.Helper()
		if got := r.Check(seg(cmd)).Verdict; got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
	check("npm test", Allow)
	check("git push origin", Ask)
	check("git push --force origin", Deny)
	check("curl -s x", Deny)
	check("git status", Default)
	check("npm test -- -u", Default) // allow rules without a star are exact
	check("curl", Deny)
	// an allow rule never matches a segment whose AllowForm is empty
	if got := r.Check(Segment{Forms: []string{"npm test"}}).Verdict; got != Default {
		t.Errorf("empty AllowForm: %v", got)
	}
	// deny wins over allow, checked on every form
	if got := r.Check(Segment{Forms: []string{"timeout 5 curl x", "curl x"}, AllowForm: "curl x"}).Verdict; got != Deny {
		t.Errorf("deny on a peeled form: %v", got)
	}
}

func TestClaudeConfigDir(t *testing.T) {
	home := t.TempDir()
	alt := filepath.Join(home, "alt")
	write(t, filepath.Join(alt, "settings.json"), `{"permissions":{"allow":["Bash(make)"]}}`)
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions":{"allow":["Bash(ls)"]}}`)
	r := Load(Claude, env(home, "", map[string]string{"CLAUDE_CONFIG_DIR": alt}))
	if r.Check(seg("make")).Verdict != Allow || r.Check(seg("ls")).Verdict != Default {
		t.Errorf("CLAUDE_CONFIG_DIR not honoured: %+v", r)
	}
}

func TestBrokenFileIsNoRules(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions":{"allow":["Bash(*)"]`)
	r := Load(Claude, env(home, "", nil))
	if r.Check(seg("rm -rf /")).Verdict != Default {
		t.Error("a broken file must never allow")
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "settings.json") {
		t.Errorf("want one warning naming the file, got %q", r.Warnings)
	}
}

func TestLoadCursor(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".cursor", "cli-config.json"), `{"version":1,"permissions":{"allow":["Shell(git)","Shell(ls)"],"deny":["Shell(rm)"]}}`)
	proj := filepath.Join(home, "p")
	write(t, filepath.Join(proj, ".cursor", "cli.json"), `{"permissions":{"allow":["Shell(curl)"],"deny":["Shell(git:push*)"]}}`)
	r := Load(Cursor, env(home, proj, nil))
	for cmd, want := range map[string]Verdict{"git status": Allow, "ls -la": Allow, "rm x": Deny, "curl x": Default, "git push": Deny} {
		if got := r.Check(seg(cmd)).Verdict; got != want {
			t.Errorf("cursor %q: %v, want %v", cmd, got, want)
		}
	}
}

func TestLoadGemini(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	write(t, filepath.Join(home, ".gemini", "settings.json"), `{
  // comments are fine
  "tools": {"allowed": ["run_shell_command(git status)", "read_file"], "exclude": ["run_shell_command(rm)"]},
  "security": {"folderTrust": {"enabled": true}},
}`)
	write(t, filepath.Join(proj, ".gemini", "settings.json"), `{"tools":{"allowed":["run_shell_command"]}}`)
	// folder trust on, workspace not trusted: the project file is ignored,
	// and Gemini asks before any git command (gotk steps aside for it)
	r := Load(Gemini, env(home, proj, nil))
	for cmd, want := range map[string]Verdict{"git status": Deny, "git log": Deny, "rm -rf x": Deny, "ls": Default, "cat x": Default} {
		if got := r.Check(seg(cmd)).Verdict; got != want {
			t.Errorf("gemini untrusted %q: %v, want %v", cmd, got, want)
		}
	}
	// trusted: the project's bare run_shell_command allows everything
	r = Load(Gemini, env(home, proj, map[string]string{"GEMINI_CLI_TRUST_WORKSPACE": "true"}))
	if got := r.Check(seg("git log")).Verdict; got != Allow {
		t.Errorf("gemini trusted: %v", got)
	}
}

func TestOtherHostsHaveNoRules(t *testing.T) {
	r := Load("copilot", env(t.TempDir(), "", nil))
	if r.Check(seg("git status")).Verdict != Default {
		t.Error("copilot: want Default")
	}
}
