package permission

import (
	"path/filepath"
	"testing"
)

func TestKiloMatch(t *testing.T) {
	for _, c := range []struct {
		text, pattern string
		want          bool
	}{
		{"git status", "git status *", true}, {"git status -s", "git status *", true}, {"git statusx", "git status *", false},
		{"gotk git status", "git status *", false}, {"git status", "*", true}, {"go test", "g?", false}, {"go", "g?", true},
		{"npm run a.b", "npm run a.b", true}, {"npm run axb", "npm run a.b", false}, {`a\b`, "a/b", true},
		{"x\ny", "*\n*", true}, {"GIT status", "git *", false},
	} {
		if got := kiloMatch(c.text, c.pattern); got != c.want {
			t.Errorf("kiloMatch(%q, %q) = %v, want %v", c.text, c.pattern, got, c.want)
		}
	}
}

func TestLoadKilo(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	write(t, filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	vars := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	check := func(agent string, want map[string]Verdict) {
		t.Helper()
		vars["GOTK_KILO_AGENT"] = agent
		r := Load(Kilo, env(home, proj, vars))
		if r.Unreadable {
			t.Fatalf("unreadable: %v", r.Warnings)
		}
		for cmd, v := range want {
			if got := r.Check(seg(cmd)).Verdict; got != v {
				t.Errorf("agent %q, %q: %v, want %v", agent, cmd, got, v)
			}
		}
	}
	// No configuration: the code agent allows ls, cat…; git status falls to
	// its catch-all (ask), but the plan agent allows it.
	check("code", map[string]Verdict{"git status": Default, "go test ./...": Default, "ls -la": Ask, "tsc": Ask, "cat x": Ask})
	check("plan", map[string]Verdict{"git status": Ask, "go test ./...": Default, "git push": Ask, "tsc": Default})
	check("", map[string]Verdict{"git status": Ask, "go test ./...": Default, "tsc": Ask, "find . -name x": Ask})

	// bash: "allow" kills the code agent's defaults, not the plan agent's.
	write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{"permission": {"bash": "allow", "edit": "allow"}}`)
	check("code", map[string]Verdict{"git status": Default, "ls -la": Default, "tsc": Default, "cat x": Ask})
	check("plan", map[string]Verdict{"git status": Ask, "go build": Default})

	// Specific rules of every file keep gotk out, also where only the
	// rewrite would match; the project's .kilo folder counts.
	write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{
		// JSONC
		"permission": {"bash": {"*": "ask", "git status*": "allow", "go*": "deny"}},
		"agent": {"code": {"permission": {"bash": {"make *": "ask"}}}},
	}`)
	write(t, filepath.Join(proj, ".kilo", "kilo.jsonc"), `{"permission": {"*": {"npm test": "allow"}}}`)
	check("code", map[string]Verdict{
		"git status":  Ask, // allowed: the rewrite would fall to "*": ask
		"git log -3":  Ask, // `gotk git log` would match "go*": deny
		"make build":  Ask, // the code agent's own rule
		"npm test":    Ask, // a "*" key matches bash
		"cargo build": Ask, // and the defaults are live again: no catch-all of the user's… but "*": ask is one
	})
}

// TestKiloSources: Kilo's agent and mode markdown files count, and its
// rules are matched on the command's source text too — leading
// assignments and trailing redirects included.
func TestKiloSources(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	write(t, filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	vars := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "GOTK_KILO_AGENT": "code"}
	write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{"permission": {"bash": "allow"}}`)
	write(t, filepath.Join(proj, ".kilo", "agent", "code.md"), "---\npermission:\n  bash:\n    \"git push *\": deny\n---\nbody\n")
	r := Load(Kilo, env(home, proj, vars))
	if r.Unreadable {
		t.Fatalf("unreadable: %q", r.Warnings)
	}
	checkAll(t, r, map[string]Verdict{"git push origin main": Ask, "git status": Default})

	write(t, filepath.Join(proj, ".kilo", "agent", "code.md"), "---\npermission:\n  bash:\n    \"GIT_SSH_COMMAND=* git push *\": deny\n    \"git log*2>&1\": deny\n---\n")
	r = Load(Kilo, env(home, proj, vars))
	for _, c := range []struct {
		words, source string
		want          Verdict
	}{
		{"git push origin", "GIT_SSH_COMMAND='ssh -i k' git push origin", Ask},
		{"git push origin", "git push origin", Default},
		{"git log -3", "git log -3 2>&1", Ask},
		{"git log -3", "git log -3", Default},
	} {
		s := Segment{Forms: []string{c.words}, AllowForm: c.words, Source: c.source}
		if got := r.Check(s).Verdict; got != c.want {
			t.Errorf("%q: %v, want %v", c.source, got, c.want)
		}
	}
	// A broken front matter: the agent's rules are unknown.
	write(t, filepath.Join(proj, ".kilo", "modes", "x.md"), "---\npermission: [\n---\n")
	if r := Load(Kilo, env(home, proj, vars)); !r.Unreadable {
		t.Error("broken front matter: rules readable")
	}
}
