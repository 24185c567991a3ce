package opencode

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/hosts/opencode/opencodetest"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

func TestLoadOpenCode(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	r := Host.LoadRules(permissiontest.Env(home, proj, nil))
	if r.Unreadable {
		t.Fatalf("no config: unreadable %q", r.Warnings)
	}
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"cat /etc/passwd": permission.Ask, "cat x": permission.Ask, "git status": permission.Default})
	// bash allowed outright: rules stay readable (edit and webfetch do not
	// matter); a catch-all ask or deny anywhere makes gotk step aside.
	permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"permission":{"bash":"allow","edit":"allow","webfetch":"deny"}}`)
	permissiontest.CheckAll(t, Host.LoadRules(permissiontest.Env(home, proj, nil)), map[string]permission.Verdict{"git status": permission.Default, "git push": permission.Default})
	permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"agent":{"plan":{"permission":{"b*":{"*":"ask"}}}}}`)
	if r := Host.LoadRules(permissiontest.Env(home, proj, nil)); !r.Unreadable || len(r.Warnings) != 1 {
		t.Errorf("catch-all ask: want unreadable and one warning, got %v %q", r.Unreadable, r.Warnings)
	}
	permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"permission":{"bash":{"git push":"ask"}}}`)
	permissiontest.CheckAll(t, Host.LoadRules(permissiontest.Env(home, proj, nil)), map[string]permission.Verdict{"git status": permission.Default, "git push": permission.Ask})
	permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"permission":{"bash":{"git push":"ask"}}`)
	if r := Host.LoadRules(permissiontest.Env(home, proj, nil)); !r.Unreadable || len(r.Warnings) != 1 {
		t.Errorf("broken JSON: want unreadable and one warning, got %v %q", r.Unreadable, r.Warnings)
	}
}

// TestOpenCodeRuleSources: a `git push *` deny in any source OpenCode reads
// keeps gotk from rewriting `git push origin main` (OpenCode would match
// the rewrite, miss the deny and run it under the build agent's "*": allow),
// and leaves `git status` alone.
func TestOpenCodeRuleSources(t *testing.T) {
	const deny = `{"git push *": "deny"}`
	md := func(key string) string {
		return "---\ndescription: x\n" + key + ":\n  bash:\n    \"git push *\": deny\n---\nYou review.\n"
	}
	for name, c := range map[string]struct {
		path, data string
		vars       map[string]string
	}{
		"top level":                {".config/opencode/opencode.json", `{"permission": {"bash": ` + deny + `}}`, nil},
		"agent.NAME.permission":    {".config/opencode/opencode.jsonc", `{"agent": {"build": {"permission": {"bash": ` + deny + `}}}}`, nil},
		"mode.NAME.permission":     {"p/opencode.json", `{"mode": {"build": {"permission": {"bash": ` + deny + `}}}}`, nil},
		"wildcard key b*":          {"p/.opencode/opencode.json", `{"permission": {"b*": ` + deny + `}}`, nil},
		"wildcard key ba?h":        {".config/opencode/config.json", `{"permission": {"ba?h": ` + deny + `}}`, nil},
		"key *":                    {".opencode/opencode.json", `{"permission": {"*": ` + deny + `}}`, nil},
		"agent markdown":           {".config/opencode/agent/review/deep.md", md("permission"), nil},
		"agents markdown":          {"p/.opencode/agents/x.md", md("permission"), nil},
		"mode markdown":            {"cfg/modes/m.md", md("permission"), map[string]string{"OPENCODE_CONFIG_DIR": "cfg"}},
		"$OPENCODE_CONFIG_DIR":     {"cfg/opencode.json", `{"permission": {"bash": ` + deny + `}}`, map[string]string{"OPENCODE_CONFIG_DIR": "cfg"}},
		"$OPENCODE_CONFIG":         {"x.json", `{"permission": {"bash": ` + deny + `}}`, map[string]string{"OPENCODE_CONFIG": "x.json"}},
		"$OPENCODE_PERMISSION":     {"", "", map[string]string{"OPENCODE_PERMISSION": `{"bash": ` + deny + `}`}},
		"$OPENCODE_CONFIG_CONTENT": {"", "", map[string]string{"OPENCODE_CONFIG_CONTENT": `{"agent": {"plan": {"permission": {"bash": ` + deny + `}}}}`}},
		"managed":                  {"managed/opencode/opencode.json", `{"permission": {"bash": ` + deny + `}}`, nil},
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			vars := map[string]string{}
			for k, v := range c.vars {
				if k != "OPENCODE_PERMISSION" && k != "OPENCODE_CONFIG_CONTENT" {
					v = filepath.Join(home, v)
				}
				vars[k] = v
			}
			if c.path != "" {
				permissiontest.Write(t, filepath.Join(home, c.path), c.data)
			}
			r := Host.LoadRules(permissiontest.Env(home, filepath.Join(home, "p"), vars))
			if r.Unreadable {
				t.Fatalf("unreadable: %q", r.Warnings)
			}
			permissiontest.CheckAll(t, r, map[string]permission.Verdict{"git push origin main": permission.Ask, "git push": permission.Ask, "git status": permission.Default})
		})
	}
}

// openCodeModel is OpenCode 1.18.33's bash verdict (opencodetest: its
// permission service and wildcard): rules in order, the last whose
// permission key matches "bash" and whose pattern matches the command
// decides; none: "ask". The build agent's defaults ("*": allow) come
// first.
func openCodeModel(rules [][3]string, cmd string) string {
	all := []opencodetest.Rule{{Permission: "*", Pattern: "*", Action: "allow"}}
	for _, r := range rules {
		all = append(all, opencodetest.Rule{Permission: r[0], Pattern: r[1], Action: r[2]})
	}
	return opencodetest.Evaluate("bash", cmd, all)
}

// TestOpenCodeProperty: over generated rules and commands, wherever gotk
// would rewrite (no ask rule of its own), OpenCode's verdict on the
// rewrite is its verdict on the original.
func TestOpenCodeProperty(t *testing.T) {
	keys := []string{"bash", "*", "b*", "ba?h", "edit", "bas"}
	pats := []string{"*", "git *", "git push *", "git push*", "* push *", "g?t *", "gotk *", "git status", "ls *", "*status*", "git * main", "? *"}
	acts := []string{"allow", "ask", "deny"}
	cmds := []string{"git push origin main", "git status", "git status -s", "ls -la", "go test", "git log -3", "gh pr list", "cargo build"}
	rng := rand.New(rand.NewSource(1))
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	for i := 0; i < 300; i++ {
		var rules [][3]string
		var perm []string
		byKey := map[string][]string{}
		for n := rng.Intn(4); n >= 0; n-- {
			k, p, a := keys[rng.Intn(len(keys))], pats[rng.Intn(len(pats))], acts[rng.Intn(len(acts))]
			if dup := fmt.Sprintf("%q: %q", p, a); !strings.Contains(strings.Join(byKey[k], ","), fmt.Sprintf("%q:", p)) {
				byKey[k] = append(byKey[k], dup)
			}
		}
		ks := make([]string, 0, len(byKey))
		for k := range byKey {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			perm = append(perm, fmt.Sprintf("%q: {%s}", k, strings.Join(byKey[k], ", ")))
			for _, e := range byKey[k] {
				var p, a string
				fmt.Sscanf(strings.Replace(e, ": ", " ", 1), "%q %q", &p, &a)
				rules = append(rules, [3]string{k, p, a})
			}
		}
		permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"permission": {`+strings.Join(perm, ", ")+`}}`)
		r := Host.LoadRules(permissiontest.Env(home, proj, nil))
		for _, cmd := range cmds {
			if r.Check(permissiontest.Seg(cmd)).Verdict == permission.Ask {
				continue // gotk keeps out
			}
			if a, b := openCodeModel(rules, cmd), openCodeModel(rules, "gotk "+cmd); a != b {
				t.Fatalf("rules %v: %q is %s, its rewrite %s, yet gotk would rewrite", rules, cmd, a, b)
			}
		}
	}
}

// TestOpenCodeRuleSourcesAsOpenCodeReads: rules that reach OpenCode
// through its text substitutions, a symbolic link to shared agents, or a
// flag variable OpenCode reads as false keep `git push` from being
// rewritten too.
func TestOpenCodeRuleSourcesAsOpenCodeReads(t *testing.T) {
	md := "---\ndescription: x\npermission:\n  bash:\n    \"git push *\": deny\n---\nYou review.\n"
	for name, c := range map[string]struct {
		setup func(home, proj string)
		vars  map[string]string
	}{
		"{env:} key": {func(home, proj string) {
			permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"permission": {"bash": {"{env:OC_BLOCK}": "deny"}}}`)
		}, map[string]string{"OC_BLOCK": "git push *"}},
		"{file:} key": {func(home, proj string) {
			permissiontest.Write(t, filepath.Join(proj, "blocked.txt"), "git push *\n")
			permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"permission": {"bash": {"{file:./blocked.txt}": "deny"}}}`)
		}, nil},
		"{file:~/} key": {func(home, proj string) {
			permissiontest.Write(t, filepath.Join(home, "b.txt"), "git push *")
			permissiontest.Write(t, filepath.Join(home, ".config", "opencode", "opencode.jsonc"), "{\n// {file:./nowhere} in a comment is left\n\"permission\": {\"bash\": {\"{file:~/b.txt}\": \"deny\"}}}")
		}, nil},
		"symlinked agents": {func(home, proj string) {
			permissiontest.Write(t, filepath.Join(proj, ".claude", "agents", "reviewer.md"), md)
			os.MkdirAll(filepath.Join(proj, ".opencode"), 0o755)
			if err := os.Symlink(filepath.Join("..", ".claude", "agents"), filepath.Join(proj, ".opencode", "agents")); err != nil {
				t.Fatal(err)
			}
		}, nil},
		"OPENCODE_DISABLE_PROJECT_CONFIG=0": {func(home, proj string) {
			permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"permission": {"bash": {"git push *": "deny"}}}`)
		}, map[string]string{"OPENCODE_DISABLE_PROJECT_CONFIG": "0"}},
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			proj := filepath.Join(home, "p")
			c.setup(home, proj)
			r := Host.LoadRules(permissiontest.Env(home, proj, c.vars))
			if r.Unreadable {
				t.Fatalf("unreadable: %q", r.Warnings)
			}
			permissiontest.CheckAll(t, r, map[string]permission.Verdict{"git push origin main": permission.Ask, "git status": permission.Default})
		})
	}
	// OPENCODE_DISABLE_PROJECT_CONFIG=TRUE does skip the project's config;
	// a {file:} OpenCode cannot read fails the document, as OpenCode fails
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"permission": {"bash": {"git push *": "deny"}}}`)
	permissiontest.CheckAll(t, Host.LoadRules(permissiontest.Env(home, proj, map[string]string{"OPENCODE_DISABLE_PROJECT_CONFIG": "TRUE"})),
		map[string]permission.Verdict{"git push origin main": permission.Default})
	permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"permission": {"bash": {"{file:missing.txt}": "deny"}}}`)
	if r := Host.LoadRules(permissiontest.Env(home, proj, nil)); !r.Unreadable {
		t.Errorf("a {file:} that cannot be read: not unreadable")
	}
}

// TestOpenCodeRemoteConfig: a .well-known login in auth.json (or
// $OPENCODE_AUTH_CONTENT) makes OpenCode fetch an organisation's config,
// rules and all, which gotk cannot read: it steps aside. An API key login
// changes nothing.
func TestOpenCodeRemoteConfig(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	auth := filepath.Join(home, ".local", "share", "opencode", "auth.json")
	permissiontest.Write(t, auth, `{"anthropic": {"type": "api", "key": "sk-x"}}`)
	if r := Host.LoadRules(permissiontest.Env(home, proj, nil)); r.Unreadable {
		t.Fatalf("an API key login: unreadable %q", r.Warnings)
	}
	permissiontest.Write(t, auth, `{"https://corp.example": {"type": "wellknown", "key": "TOKEN", "token": "t"}}`)
	if r := Host.LoadRules(permissiontest.Env(home, proj, nil)); !r.Unreadable {
		t.Errorf("a .well-known login: the rules stay readable")
	}
	os.Remove(auth)
	if r := Host.LoadRules(permissiontest.Env(home, proj, map[string]string{"OPENCODE_AUTH_CONTENT": `{"x": {"type": "wellknown", "key": "K", "token": "t"}}`})); !r.Unreadable {
		t.Errorf("$OPENCODE_AUTH_CONTENT with a .well-known login: the rules stay readable")
	}
}
