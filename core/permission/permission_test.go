package permission

import (
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
		{"git * diff *", "git -C /x diff", false}, // two stars: neither is optional
		{"git * log:*", "git log -3", false},      // a prefix rule: its star is literal
		{"git * log:*", "git * log -3", true},
		{"git  status", "git status", false}, // exact rules are not space-folded
		{`git \* main`, "git x main", false},
		{"gotk:*", "xargs gotk git status", true},
		{"git * diff *", "git -C /x diff HEAD", true},
		{"git * diff *", "git log", false},
		{"*", "anything at all", true},
		{"", "x", false},
		{"git commit -m *", `git commit -m "a b"`, true},
	}
	for _, c := range cases {
		if got := PrefixMatch(c.pattern, c.cmd); got != c.want {
			t.Errorf("PrefixMatch(%q, %q) = %v, want %v", c.pattern, c.cmd, got, c.want)
		}
	}
}

func TestOtherHostsHaveNoRules(t *testing.T) {
	r := Load("copilot", nil, Env{Home: t.TempDir(), Getenv: func(string) string { return "" }})
	if r.Check(Segment{Forms: []string{"git status"}, AllowForm: "git status"}).Verdict != Default {
		t.Error("copilot: want Default")
	}
}
