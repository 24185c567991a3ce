package openclaw

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// openClawEnv is a home with the given files (relative paths) and env vars.
func openClawEnv(t *testing.T, files map[string]string, vars map[string]string) permission.Env {
	t.Helper()
	home := t.TempDir()
	for name, body := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return permission.Env{Home: home, Cwd: home, Getenv: func(k string) string {
		return strings.ReplaceAll(vars[k], "HOME", home)
	}}
}

// TestOpenClawPolicy: gotk rewrites for OpenClaw only where its exec policy
// checks no command; any allowlist, approval, review, sandbox or unread
// source makes it step aside.
func TestOpenClawPolicy(t *testing.T) {
	const cfg = ".openclaw/openclaw.json"
	for _, c := range []struct {
		name  string
		files map[string]string
		vars  map[string]string
		aside string // "" = rewrites; else a word of the warning
	}{
		{name: "no config: the gateway's full/off default"},
		{name: "mode full", files: map[string]string{cfg: `{"tools":{"exec":{"mode":"full"}}}`}},
		{name: "legacy full/off, comments, trailing comma", files: map[string]string{cfg: "{\n// mine\n\"tools\":{\"exec\":{\"security\":\"full\",\"ask\":\"off\",\"host\":\"gateway\",\"strictInlineEval\":false,}}}"}},
		{name: "other settings only", files: map[string]string{cfg: `{"agents":{"defaults":{"model":{"primary":"a/b"}}},"models":{"providers":{}},"plugins":{"load":{"paths":[]}}}`}},
		{name: "mode ask", files: map[string]string{cfg: `{"tools":{"exec":{"mode":"ask"}}}`}, aside: `mode is "ask"`},
		{name: "mode auto", files: map[string]string{cfg: `{"tools":{"exec":{"mode":"auto"}}}`}, aside: `"auto"`},
		{name: "mode allowlist", files: map[string]string{cfg: `{"tools":{"exec":{"mode":"allowlist"}}}`}, aside: `"allowlist"`},
		{name: "mode deny", files: map[string]string{cfg: `{"tools":{"exec":{"mode":"deny"}}}`}, aside: `"deny"`},
		{name: "legacy ask on-miss", files: map[string]string{cfg: `{"tools":{"exec":{"security":"full","ask":"on-miss"}}}`}, aside: "ask"},
		{name: "strict inline eval", files: map[string]string{cfg: `{"tools":{"exec":{"strictInlineEval":true}}}`}, aside: "strictInlineEval"},
		{name: "node host", files: map[string]string{cfg: `{"tools":{"exec":{"host":"node"}}}`}, aside: "host"},
		{name: "one agent's override", files: map[string]string{cfg: `{"tools":{"exec":{"mode":"full"}},"agents":{"entries":{"main":{"tools":{"exec":{"mode":"ask"}}}}}}`}, aside: "agents.entries.main."},
		{name: "agents list", files: map[string]string{cfg: `{"agents":{"list":[{"id":"x","tools":{"exec":{"mode":"allowlist"}}}]}}`}, aside: "agents.list[]"},
		{name: "sandbox", files: map[string]string{cfg: `{"agents":{"defaults":{"sandbox":{"mode":"all"}}}}`}, aside: "sandbox"},
		{name: "sandbox off", files: map[string]string{cfg: `{"agents":{"defaults":{"sandbox":{"mode":"off"}}}}`}},
		{name: "include", files: map[string]string{cfg: `{"$include":"./more.json5"}`}, aside: "$include"},
		{name: "JSON5 beyond comments", files: map[string]string{cfg: `{tools: {exec: {mode: 'full'}}}`}, aside: "JSON5"},
		{name: "exec not an object", files: map[string]string{cfg: `{"tools":{"exec":"full"}}`}, aside: "not an object"},
		{name: "approvals stored", files: map[string]string{".openclaw/state/openclaw.sqlite": "SQLite format 3\x00...{\n  \"version\": 1,\n  \"defaults\": {}\n}\n"}, aside: "exec-approvals"},
		{name: "approvals in the WAL", files: map[string]string{".openclaw/state/openclaw.sqlite-wal": "x{\n  \"version\": 1\n}"}, aside: "exec-approvals"},
		{name: "state database without approvals", files: map[string]string{".openclaw/state/openclaw.sqlite": "SQLite format 3\x00 CREATE TABLE exec_approvals_config"}},
		{name: "config path from the environment", files: map[string]string{"elsewhere.json": `{"tools":{"exec":{"mode":"ask"}}}`, cfg: `{}`},
			vars: map[string]string{"OPENCLAW_CONFIG_PATH": "HOME/elsewhere.json"}, aside: "ask"},
		{name: "state dir from the environment", files: map[string]string{"st/openclaw.json": `{"tools":{"exec":{"mode":"auto"}}}`},
			vars: map[string]string{"OPENCLAW_STATE_DIR": "HOME/st"}, aside: "auto"},
		{name: "a profile gotk does not resolve", vars: map[string]string{"OPENCLAW_PROFILE": "work"}, aside: "PROFILE"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Host.LoadRules(openClawEnv(t, c.files, c.vars))
			if c.aside == "" {
				if r.Unreadable || len(r.Warnings) > 0 {
					t.Fatalf("steps aside: %v", r.Warnings)
				}
				if v := r.Check(permissiontest.Seg("git status")).Verdict; v != permission.Default {
					t.Fatalf("git status: %v", v)
				}
				return
			}
			if !r.Unreadable || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], c.aside) {
				t.Fatalf("want a step aside naming %q; unreadable %v, warnings %q", c.aside, r.Unreadable, r.Warnings)
			}
		})
	}
}

// TestOpenClawUnreadableConfig: a config gotk cannot read (a directory in
// its place) is unsure, never "no rules".
func TestOpenClawUnreadableConfig(t *testing.T) {
	env := openClawEnv(t, nil, nil)
	if err := os.MkdirAll(filepath.Join(env.Home, ".openclaw", "openclaw.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if r := Host.LoadRules(env); !r.Unreadable {
		t.Fatalf("a directory for a config: %v", r.Warnings)
	}
}
