package runner

import (
	"bytes"
	"testing"
)

// TestRewriteFastPath: `gotk rewrite` handed straight to the decision
// (the plugins' call) answers exactly as through the whole CLI's parser,
// whatever the flags and the command; calls that are not well formed
// (--help, unknown flags or hosts, no command) take the parser's way.
func TestRewriteFastPath(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	for _, args := range [][]string{
		{"--json", "git", "status"},
		{"git", "status"},
		{"--json", "--host", "claude", "git status && ls -la"},
		{"--host=gemini", "--json", "--", "cat", "README.md"},
		{"--mode", "bypassPermissions", "--json", "git log"},
		{"--json", "rm -rf /tmp/x"},
		{"--json", "echo $(whoami)"},
		{"--json", "--host", "hermes", "--", "git status"},
		{"--json", "--host", "opencode", "--", "git diff"},
		{"--json", "--host", "kilo", "--", "ls -la"},
		{"--json", "--host", "pi", "--", "go test ./..."},
		{"--json", "--host", "nosuch", "git", "status"},
		{"--json"},
		{"--help"},
		{"--json", "--bogus", "git", "status"},
	} {
		run := func(fast bool) (int, string, string) {
			var out, errw bytes.Buffer
			a := newApp()
			a.stdout, a.stderr = &out, &errw
			var code int
			if fast {
				code = a.main(append([]string{"rewrite"}, args...))
			} else {
				code = a.command(append([]string{"rewrite"}, args...))
			}
			return code, out.String(), errw.String()
		}
		c1, o1, e1 := run(true)
		c2, o2, e2 := run(false)
		if c1 != c2 || o1 != o2 || e1 != e2 {
			t.Errorf("rewrite %q: fast exit %d %q %q; parser exit %d %q %q", args, c1, o1, e1, c2, o2, e2)
		}
	}
}
