package auggie

import (
	"math/rand"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// TestFiles: Auggie's order (managed, the workspace's local then shared
// file, the user's), the workspace read up to the root, ~ read once.
func TestFiles(t *testing.T) {
	got := Files(permissiontest.Env("/home/u", "/home/u/p", nil))
	want := []string{"/etc/augment/settings.json", "/home/u/p/.augment/settings.local.json", "/home/u/p/.augment/settings.json",
		"/home/u/.augment/settings.local.json", "/home/.augment/settings.local.json", "/home/.augment/settings.json", "/.augment/settings.local.json", "/.augment/settings.json", "/home/u/.augment/settings.json"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Files:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// decide runs the decision for host auggie with settings in the
// workspace's .augment/settings.json.
func decide(t *testing.T, settings, cmd string) decision.Decision {
	t.Helper()
	home := t.TempDir()
	ws := filepath.Join(home, "ws")
	if settings != "" {
		permissiontest.Write(t, filepath.Join(ws, ".augment", "settings.json"), settings)
	}
	e := decision.New(Host, permissiontest.Env(home, ws, nil))
	return e.Decide(decision.Request{Command: cmd, Cwd: ws})
}

// TestRulesKeepOutcome: a rewrite happens only where no rule of the user's
// matches the rewritten command otherwise than the original; a deny rule
// of the original, a policy, a broken file or a regex Go cannot read keep
// gotk out.
func TestRulesKeepOutcome(t *testing.T) {
	rule := func(typ, re string) string {
		r := `{"toolName":"launch-process","permission":{"type":"` + typ + `"}`
		if re != "" {
			r += `,"shellInputRegex":` + strconvQuote(re)
		}
		return r + `}`
	}
	perms := func(rules ...string) string { return `{"toolPermissions":[` + strings.Join(rules, ",") + `]}` }
	for _, c := range []struct {
		name, settings, cmd string
		rewrite             bool
	}{
		{"no rules", "", "git status", true},
		{"catch-all allow", perms(rule("allow", "")), "git status", true},
		{"catch-all ask", perms(rule("ask-user", "")), "git status", true},
		{"anchored allow would stop matching", perms(rule("allow", "^git status")), "git status", false},
		{"anchored deny would stop matching", perms(rule("deny", "^git push")), "git push", false},
		{"deny matching both", perms(rule("deny", "git push")), "git push", false},
		{"ask matching only the rewrite", perms(rule("ask-user", "gotk")), "git status", false},
		{"unanchored allow matches both", perms(rule("allow", "git status")), "git status", true},
		{"a rule for another command", perms(rule("deny", "^rm ")), "git status", true},
		{"rule of another tool", `{"toolPermissions":[{"toolName":"shell","shellInputRegex":"^git","permission":{"type":"deny"}}]}`, "git status", true},
		{"script policy", perms(rule("script-policy", "")), "git status", false},
		{"webhook policy on another command", perms(rule("webhook-policy", "^npm publish")), "git status", true},
		{"tool-response policy", `{"toolPermissions":[{"toolName":"launch-process","eventType":"tool-response","permission":{"type":"webhook-policy"}}]}`, "git status", false},
		{"compound, one segment would change", perms(rule("allow", "&& ls$")), "git status && ls", false},
		{"regex Go cannot read", perms(rule("allow", "^(?=git)")), "git status", false},
		{"broken settings", `{"toolPermissions":[`, "git status", false},
		{"JSONC settings", "// mine\n" + perms(rule("allow", "^echo")), "git status", true},
	} {
		d := decide(t, c.settings, c.cmd)
		got := d.Verdict == decision.AllowRewrite || d.Verdict == decision.AskRewrite
		if got != c.rewrite {
			t.Errorf("%s: %q → %v %q (%s), want rewrite %v", c.name, c.cmd, d.Verdict, d.Command, d.Reason, c.rewrite)
		}
	}
}

func strconvQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// TestSameProperty: for random rules over random lines, whatever gotk
// rewrites is matched by every rule exactly as the original — so Auggie's
// first-match, strictest-list outcome is the same for both.
func TestSameProperty(t *testing.T) {
	cmds := []string{"git status", "ls -la", "go test ./...", "echo hi", "git log -5", "gotk git status", "git diff"}
	ops := []string{" && ", " | ", "; ", " || "}
	regexes := []string{"^git", "git status$", "^gotk", "gotk git", "ls", "^go test", `\bgo\b`, "status", "^(gotk )?git", "&& ls", "^echo", "test ./"}
	rng := rand.New(rand.NewSource(1))
	rewrites, refused := 0, 0
	for i := 0; i < 300; i++ {
		var rules []string
		var res []*regexp.Regexp
		for j := rng.Intn(3); j >= 0; j-- {
			re := regexes[rng.Intn(len(regexes))]
			res = append(res, regexp.MustCompile(re))
			typ := []string{"allow", "ask-user"}[rng.Intn(2)]
			rules = append(rules, `{"toolName":"launch-process","shellInputRegex":`+strconvQuote(re)+`,"permission":{"type":"`+typ+`"}}`)
		}
		cmd := cmds[rng.Intn(len(cmds))]
		for j := rng.Intn(3); j > 0; j-- {
			cmd += ops[rng.Intn(len(ops))] + cmds[rng.Intn(len(cmds))]
		}
		d := decide(t, `{"toolPermissions":[`+strings.Join(rules, ",")+`]}`, cmd)
		if d.Verdict != decision.AllowRewrite && d.Verdict != decision.AskRewrite {
			if strings.Contains(d.Reason, "otherwise than the original") {
				refused++
			}
			continue
		}
		rewrites++
		for _, re := range res {
			if re.MatchString(cmd) != re.MatchString(d.Command) {
				t.Errorf("%q → %q: %s matches one and not the other", cmd, d.Command, re)
			}
		}
	}
	if rewrites == 0 || refused == 0 {
		t.Errorf("%d rewrites, %d refused for a rule: the lines test nothing", rewrites, refused)
	}
}
