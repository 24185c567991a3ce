package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

const codexRules = `# written by Codex
prefix_rule(pattern=["git", "status"], decision="allow")
prefix_rule(
    pattern = ["git", ["push", "fetch"]],
    decision = "forbidden",
    justification = "Use the review tool",
    match = [["git", "push", "origin"], "git fetch --all"],
    not_match = ["git pull"],
)
prefix_rule(["npm", "publish"], "prompt")
prefix_rule(pattern=["cat"])
host_executable(name = "git", paths = ["/usr/bin/git", "~/bin/git"])
network_rule(host="example.com", protocol="https", decision="deny")
`

func TestLoadCodex(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "repo")
	permissiontest.Write(t, filepath.Join(home, ".codex", "rules", "default.rules"), codexRules)
	permissiontest.Write(t, filepath.Join(proj, ".codex", "rules", "p.rules"), `prefix_rule(pattern=["make", "deploy"], decision="forbidden")
prefix_rule(pattern=["make"], decision="allow")`)
	permissiontest.Write(t, filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	r := Host.LoadRules(permissiontest.Env(home, filepath.Join(proj, "sub"), nil))
	if len(r.Warnings) != 0 || r.Unreadable {
		t.Fatalf("warnings: %v", r.Warnings)
	}
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{
		"git status -s":        permission.Allow,
		"git push origin main": permission.Deny,
		`git "push"`:           permission.Deny, // tokens, not text
		"git fetch":            permission.Deny,
		"/usr/bin/git push":    permission.Deny, // host-executable fallback
		"git $SUB x":           permission.Deny, // an unknown word may be any token
		"git pull":             permission.Default,
		"npm publish --dry":    permission.Ask,
		"npm install":          permission.Default,
		"cat x":                permission.Allow,
		"/bin/cat x":           permission.Default, // allow rules match the program exactly
		"make deploy":          permission.Deny,    // project rules: forbidden counts
		"make":                 permission.Default, // project allow rules do not
	})
	// CODEX_HOME relocates the user rules
	alt := filepath.Join(home, "alt")
	permissiontest.Write(t, filepath.Join(alt, "rules", "x.rules"), `prefix_rule(pattern=["rm"], decision="forbidden")`)
	r = Host.LoadRules(permissiontest.Env(home, "", map[string]string{"CODEX_HOME": alt}))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"rm -rf x": permission.Deny, "git push": permission.Default})
}

// TestCodexStarlark: rules files are Starlark, evaluated as Codex does —
// variables, loops and helpers make rules like literal calls.
func TestCodexStarlark(t *testing.T) {
	home := t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".codex", "rules", "s.rules"), `
DANGER = ["rm", "dd"]
def forbid(p):
    prefix_rule(pattern = p, decision = "forbidden")
for c in DANGER:
    forbid([c])
prefix_rule(["git", ["push", "fetch"]], "prompt")  # positional arguments
`)
	r := Host.LoadRules(permissiontest.Env(home, "", nil))
	if r.Unreadable || len(r.Warnings) != 0 {
		t.Fatalf("unreadable: %q", r.Warnings)
	}
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"rm -rf x": permission.Deny, "dd if=x": permission.Deny, "git push": permission.Ask, "git fetch origin": permission.Ask, "git status": permission.Default})
}

func TestCodexUnreadable(t *testing.T) {
	for name, src := range map[string]string{
		"syntax":         `prefix_rule(pattern=["git", "push"]`,
		"endless loop":   "for i in range(100000000):\n    pass",
		"not a list":     `prefix_rule(pattern={"git": 1}, decision="forbidden")`,
		"f-string":       `prefix_rule(pattern=[f"git"], decision="forbidden")`,
		"bad decision":   `prefix_rule(pattern=["git"], decision="deny")`,
		"empty pattern":  `prefix_rule(pattern=[], decision="forbidden")`,
		"failed example": `prefix_rule(pattern=["git", "push"], decision="allow", match=["git pull"])`,
		"unknown call":   `exec_rule(pattern=["git"])`,
	} {
		home := t.TempDir()
		permissiontest.Write(t, filepath.Join(home, ".codex", "rules", "a.rules"), `prefix_rule(pattern=["ls"], decision="allow")`)
		permissiontest.Write(t, filepath.Join(home, ".codex", "rules", "b.rules"), src)
		r := Host.LoadRules(permissiontest.Env(home, "", nil))
		if !r.Unreadable || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "b.rules") {
			t.Errorf("%s: want Unreadable and one warning naming b.rules: %v %q", name, r.Unreadable, r.Warnings)
		}
	}
}

func TestParseCodexRules(t *testing.T) {
	rules, err := parseCodexRules(`
# comment
prefix_rule(pattern = ('a', "b c"), decision = None, justification = """multi
line""");  prefix_rule(pattern=["x", ["y"]], decision="prompt",)
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 2 || rules[0].decision != "allow" || rules[0].String() != "a b c" || rules[1].decision != "prompt" || rules[1].String() != "x y" {
		t.Errorf("got %+v", rules)
	}
	m := rules[0].matcher(false)
	if !m(`a "b c" d`) || m("a b c") {
		t.Error(`pattern ["a", "b c"] matches the two words a and "b c"`)
	}
}

// A binary without the execpolicy evaluator (every hook but Codex's) finds
// Codex's rule files unreadable, naming why: gotk then never answers allow
// for Codex. With no rule file there is nothing to evaluate.
func TestCodexRulesWithoutEvaluator(t *testing.T) {
	saved := EvalExecPolicy
	EvalExecPolicy = nil
	defer func() { EvalExecPolicy = saved }()
	home := t.TempDir()
	env := permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: home}
	if r := Host.LoadRules(env); r.Unreadable {
		t.Fatalf("no rule file: unreadable: %q", r.Warnings)
	}
	f := filepath.Join(home, ".codex", "rules", "default.rules")
	os.MkdirAll(filepath.Dir(f), 0o755)
	os.WriteFile(f, []byte(`prefix_rule(pattern=["go"], decision="allow")`), 0o644)
	r := Host.LoadRules(env)
	if !r.Unreadable || !strings.Contains(strings.Join(r.Warnings, "\n"), "execpolicy") {
		t.Fatalf("unreadable %v, warnings %q", r.Unreadable, r.Warnings)
	}
}

// TestCodexProjectLayers: Codex loads the .codex folders from the project
// root down to the working directory, less those in untrusted folders; but
// the root's markers and the trust also come from sources gotk cannot see
// (-c overrides, --profile, managed config, trust keyed by the resolved
// path or the git root). A layer gotk skipped would let `gotk X` dodge its
// forbidden X, so the deny and prompt rules of every ancestor's layer count,
// whatever the markers and the trust gotk can read say.
func TestCodexProjectLayers(t *testing.T) {
	home := t.TempDir()
	above := filepath.Join(home, "w")
	proj := filepath.Join(above, "repo")
	cwd := filepath.Join(proj, "sub")
	deny := func(dir, word string) {
		permissiontest.Write(t, filepath.Join(dir, ".codex", "rules", word+".rules"), `prefix_rule(pattern=["`+word+`"], decision="forbidden")`)
	}
	deny(above, "above")
	deny(proj, "root")
	deny(cwd, "here")
	all := map[string]permission.Verdict{"here": permission.Deny, "root": permission.Deny, "above": permission.Deny}
	check := func(name, cwd string, want map[string]permission.Verdict) {
		t.Helper()
		r := Host.LoadRules(permissiontest.Env(home, cwd, nil))
		if r.Unreadable {
			t.Fatalf("%s: %v", name, r.Warnings)
		}
		for cmd, v := range want {
			if got := r.Check(permission.Segment{Forms: []string{cmd}, AllowForm: cmd}).Verdict; got != v {
				t.Errorf("%s: %q = %v, want %v", name, cmd, got, v)
			}
		}
	}
	check("no marker", cwd, all)
	// a .git in the repository: Codex's root by default, but `-c
	// project_root_markers=[...]` can move it above
	permissiontest.Write(t, filepath.Join(proj, ".git", "HEAD"), "x")
	check(".git", cwd, all)
	// a config.toml in a folder gotk sees no trust for: Codex may still
	// trust it (-c projects."…".trust_level, the resolved path)
	permissiontest.Write(t, filepath.Join(proj, ".codex", "config.toml"), "")
	check("untrusted as far as gotk sees", cwd, all)
	// the working directory through a symbolic link
	link := filepath.Join(home, "link")
	if err := os.Symlink(proj, link); err != nil {
		t.Fatal(err)
	}
	check("symlinked cwd", filepath.Join(link, "sub"), map[string]permission.Verdict{"here": permission.Deny, "root": permission.Deny})
	// the user's own CODEX_HOME is the user layer, allow rules and all
	permissiontest.Write(t, filepath.Join(home, ".codex", "rules", "u.rules"), `prefix_rule(pattern=["make"], decision="allow")`)
	check("home", home, map[string]permission.Verdict{"make": permission.Allow})
	// a config.toml Codex cannot parse: it would not start
	permissiontest.Write(t, filepath.Join(home, ".codex", "config.toml"), "[projects\n")
	if r := Host.LoadRules(permissiontest.Env(home, cwd, nil)); !r.Unreadable {
		t.Errorf("an unparseable config.toml: not unreadable")
	}
}

// TestCodexRequirements: an administrator's requirements.toml [rules] hold
// prompt and forbidden prefix rules that Codex merges over every rule
// file; gotk must see them, or `gotk git push` dodges a forbidden
// `git push`. A file Codex refuses (an allow rule, a malformed token)
// makes gotk step aside.
func TestCodexRequirements(t *testing.T) {
	home := t.TempDir()
	req := filepath.Join(home, "managed", "requirements.toml")
	permissiontest.Write(t, req, `allowed_approval_policies = ["on-request"]

[rules]
prefix_rules = [
  { pattern = [{ token = "git" }, { any_of = ["push", "reset"] }], decision = "forbidden", justification = "admins only" },
  { pattern = [{ any_of = ["curl", "wget"] }], decision = "prompt" },
]
`)
	r := Host.LoadRules(permissiontest.Env(home, "", nil))
	if r.Unreadable {
		t.Fatalf("unreadable: %v", r.Warnings)
	}
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{
		"git push origin main": permission.Deny,
		"/usr/bin/git reset":   permission.Deny,
		"wget https://x":       permission.Ask,
		"curl -s x":            permission.Ask,
		"git status":           permission.Default,
	})
	for name, body := range map[string]string{
		"allow":        "[rules]\nprefix_rules = [{ pattern = [{ token = \"ls\" }], decision = \"allow\" }]\n",
		"no decision":  "[rules]\nprefix_rules = [{ pattern = [{ token = \"ls\" }] }]\n",
		"both":         "[rules]\nprefix_rules = [{ pattern = [{ token = \"ls\", any_of = [\"a\"] }], decision = \"prompt\" }]\n",
		"empty":        "[rules]\nprefix_rules = []\n",
		"not toml":     "[rules\n",
		"empty any_of": "[rules]\nprefix_rules = [{ pattern = [{ any_of = [] }], decision = \"prompt\" }]\n",
	} {
		permissiontest.Write(t, req, body)
		if r := Host.LoadRules(permissiontest.Env(home, "", nil)); !r.Unreadable {
			t.Errorf("%s: requirements Codex refuses, read as rules: %+v", name, r.Deny)
		}
	}
	// no [rules] table: nothing to add
	permissiontest.Write(t, req, "allowed_sandbox_modes = [\"read-only\"]\n")
	if r := Host.LoadRules(permissiontest.Env(home, "", nil)); r.Unreadable || len(r.Deny)+len(r.Ask) != 0 {
		t.Errorf("no rules table: %+v", r)
	}
}
