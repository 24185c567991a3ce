package kilo

import (
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/hosts/opencode"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
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
		if got := opencode.Match(c.text, c.pattern); got != c.want {
			t.Errorf("opencode.Match(%q, %q) = %v, want %v", c.text, c.pattern, got, c.want)
		}
	}
}

func TestLoadKilo(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	permissiontest.Write(t, filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	vars := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	check := func(agent string, want map[string]permission.Verdict) {
		t.Helper()
		vars["GOTK_KILO_AGENT"] = agent
		r := Host.LoadRules(permissiontest.Env(home, proj, vars))
		if r.Unreadable {
			t.Fatalf("unreadable: %v", r.Warnings)
		}
		for cmd, v := range want {
			if got := r.Check(permissiontest.Seg(cmd)).Verdict; got != v {
				t.Errorf("agent %q, %q: %v, want %v", agent, cmd, got, v)
			}
		}
	}
	// No configuration: the code agent allows ls, cat…; git status falls to
	// its catch-all, "*": "ask", whose "Always" on `gotk git status` would
	// save `gotk *`: every command is an ask, gotk stays out. The plan
	// agent allows git status and denies the rest ("*": "deny").
	check("code", map[string]permission.Verdict{"git status": permission.Ask, "go test ./...": permission.Ask, "ls -la": permission.Ask, "tsc": permission.Ask, "cat x": permission.Ask})
	check("plan", map[string]permission.Verdict{"git status": permission.Ask, "go test ./...": permission.Default, "git push": permission.Ask, "tsc": permission.Default})
	check("", map[string]permission.Verdict{"git status": permission.Ask, "go test ./...": permission.Ask, "tsc": permission.Ask, "find . -name x": permission.Ask})

	// bash: "ask" (the user's catch-all asks): the same, for every agent
	permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{"permission": {"bash": "ask"}}`)
	check("code", map[string]permission.Verdict{"go test ./...": permission.Ask, "make": permission.Ask})
	check("plan", map[string]permission.Verdict{"go test ./...": permission.Ask})
	// an agent's catch-all that asks
	permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{"permission": {"bash": "allow"}, "agent": {"debug": {"permission": {"bash": {"*": "ask"}}}}}`)
	check("code", map[string]permission.Verdict{"go test ./...": permission.Ask})

	// bash: "allow" kills the code agent's defaults, not the plan agent's.
	permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{"permission": {"bash": "allow", "edit": "allow"}}`)
	check("code", map[string]permission.Verdict{"git status": permission.Default, "ls -la": permission.Default, "tsc": permission.Default, "cat x": permission.Ask})
	check("plan", map[string]permission.Verdict{"git status": permission.Ask, "go build": permission.Default})

	// Specific rules of every file keep gotk out, also where only the
	// rewrite would match; the project's .kilo folder counts.
	permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{
		// JSONC
		"permission": {"bash": {"*": "ask", "git status*": "allow", "go*": "deny"}},
		"agent": {"code": {"permission": {"bash": {"make *": "ask"}}}},
	}`)
	permissiontest.Write(t, filepath.Join(proj, ".kilo", "kilo.jsonc"), `{"permission": {"*": {"npm test": "allow"}}}`)
	check("code", map[string]permission.Verdict{
		"git status":  permission.Ask, // allowed: the rewrite would fall to "*": ask
		"git log -3":  permission.Ask, // `gotk git log` would match "go*": deny
		"make build":  permission.Ask, // the code agent's own rule
		"npm test":    permission.Ask, // a "*" key matches bash
		"cargo build": permission.Ask, // and the defaults are live again: no catch-all of the user's… but "*": ask is one
	})
}

// TestKiloSources: Kilo's agent and mode markdown files count, and its
// rules are matched on the command's source text too — leading
// assignments and trailing redirects included.
func TestKiloSources(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	permissiontest.Write(t, filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	vars := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "GOTK_KILO_AGENT": "code"}
	permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), `{"permission": {"bash": "allow"}}`)
	permissiontest.Write(t, filepath.Join(proj, ".kilo", "agent", "code.md"), "---\npermission:\n  bash:\n    \"git push *\": deny\n---\nbody\n")
	r := Host.LoadRules(permissiontest.Env(home, proj, vars))
	if r.Unreadable {
		t.Fatalf("unreadable: %q", r.Warnings)
	}
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"git push origin main": permission.Ask, "git status": permission.Default})

	permissiontest.Write(t, filepath.Join(proj, ".kilo", "agent", "code.md"), "---\npermission:\n  bash:\n    \"GIT_SSH_COMMAND=* git ls-remote *\": deny\n    \"git log*2>&1\": deny\n---\n")
	r = Host.LoadRules(permissiontest.Env(home, proj, vars))
	for _, c := range []struct {
		words, source string
		want          permission.Verdict
	}{
		{"git ls-remote origin", "GIT_SSH_COMMAND='ssh -i k' git ls-remote origin", permission.Ask},
		{"git ls-remote origin", "git ls-remote origin", permission.Default},
		{"git log -3", "git log -3 2>&1", permission.Ask},
		{"git log -3", "git log -3", permission.Default},
	} {
		s := permission.Segment{Forms: []string{c.words}, AllowForm: c.words, Source: c.source}
		if got := r.Check(s).Verdict; got != c.want {
			t.Errorf("%q: %v, want %v", c.source, got, c.want)
		}
	}
	// A broken front matter: the agent's rules are unknown.
	permissiontest.Write(t, filepath.Join(proj, ".kilo", "modes", "x.md"), "---\npermission: [\n---\n")
	if r := Host.LoadRules(permissiontest.Env(home, proj, vars)); !r.Unreadable {
		t.Error("broken front matter: rules readable")
	}
}

// TestKiloRuleSourcesAsKiloReads: ~/.kilo/kilo.json counts for a project
// outside the home folder; agent.build's rules are the code agent's (Kilo
// renames it), and an agent file's front matter name: renames its agent.
func TestKiloRuleSourcesAsKiloReads(t *testing.T) {
	for name, setup := range map[string]func(home, proj string){
		"~/.kilo": func(home, proj string) {
			permissiontest.Write(t, filepath.Join(home, ".kilo", "kilo.json"), `{"permission": {"bash": {"*": "allow", "git push *": "deny"}}}`)
		},
		"agent.build": func(home, proj string) {
			permissiontest.Write(t, filepath.Join(proj, ".kilo", "kilo.json"), `{"permission": {"bash": "allow"}, "agent": {"build": {"permission": {"bash": {"git push *": "deny"}}}}}`)
		},
		"front matter name": func(home, proj string) {
			permissiontest.Write(t, filepath.Join(proj, ".kilo", "kilo.json"), `{"permission": {"bash": "allow"}}`)
			permissiontest.Write(t, filepath.Join(proj, ".kilo", "agents", "team-build.md"), "---\nname: code\npermission:\n  bash:\n    \"git push *\": deny\n---\nx\n")
		},
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			proj := filepath.Join(t.TempDir(), "proj") // outside home
			permissiontest.Write(t, filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
			setup(home, proj)
			vars := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "GOTK_KILO_AGENT": "code"}
			r := Host.LoadRules(permissiontest.Env(home, proj, vars))
			if r.Unreadable {
				t.Fatalf("unreadable: %v", r.Warnings)
			}
			permissiontest.CheckAll(t, r, map[string]permission.Verdict{"git push origin main": permission.Ask, "git status": permission.Default})
		})
	}
}
