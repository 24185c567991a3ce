package auggie

import (
	"math/rand"
	rand2 "math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
	"github.com/gotk-dev/gotk/core/shell/shelltest"
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

// auggieOutcome is Auggie 0.36.0's verdict on a launch-process call
// (augment.mjs: nwe over the rules toolsModel.callTool reads): in each
// permission list the first rule whose regex matches the whole command
// counts, the strictest list with one wins, none runs the call.
func auggieOutcome(rules [][2]string, cmd string) string {
	for _, typ := range []string{"deny", "webhook-policy", "script-policy", "ask-user", "allow"} {
		for _, r := range rules {
			if r[1] == typ && regexp.MustCompile(r[0]).MatchString(cmd) {
				return typ
			}
		}
	}
	return "run"
}

// TestSameProperty: for random rules over random lines — assignments,
// redirects, quoting and uneven blanks included — whatever gotk rewrites
// is matched by every rule exactly as the original, so Auggie's outcome
// (auggieOutcome) is the same for both.
func TestSameProperty(t *testing.T) {
	cmds := [][]string{{"git", "status"}, {"ls", "-la"}, {"go", "test", "./..."}, {"echo", "hi"}, {"git", "log", "-5"},
		{"gotk", "git", "status"}, {"git", "diff"}, {"grep", "-n", "a b", "x.txt"}}
	ops := []string{" && ", " | ", "; ", " || "}
	regexes := []string{"^git", "git status$", "^gotk", "gotk git", "ls", "^go test", `\bgo\b`, "status", "^(gotk )?git", "&& ls", "^echo", "test ./",
		"^FOO=", `2>&1$`, "> out", "'", `"`, `^\S+ status`, `\s{2}`, `^\w+=\S+ git`, "[|;&]", `^[^ ]*$`}
	types := []string{"allow", "ask-user", "deny", "webhook-policy"}
	rng := rand.New(rand.NewSource(1))
	spell := rand2.New(rand2.NewPCG(1, 2))
	simple := func() string {
		c := cmds[rng.Intn(len(cmds))]
		var b strings.Builder
		if rng.Intn(4) == 0 {
			b.WriteString([]string{"FOO=1 ", "FOO='a b' "}[rng.Intn(2)])
		}
		for i, w := range c {
			if i > 0 {
				b.WriteString([]string{" ", " ", "  "}[rng.Intn(3)])
			}
			b.WriteString(shelltest.Spell(spell, w))
		}
		if rng.Intn(4) == 0 {
			b.WriteString([]string{" 2>&1", " > out.txt", " >/dev/null"}[rng.Intn(3)])
		}
		return b.String()
	}
	rewrites, refused := 0, 0
	for i := 0; i < 600; i++ {
		var rules []string
		var model [][2]string
		for j := rng.Intn(3); j >= 0; j-- {
			re, typ := regexes[rng.Intn(len(regexes))], types[rng.Intn(len(types))]
			model = append(model, [2]string{re, typ})
			rules = append(rules, `{"toolName":"launch-process","shellInputRegex":`+strconvQuote(re)+`,"permission":{"type":"`+typ+`"}}`)
		}
		cmd := simple()
		for j := rng.Intn(3); j > 0; j-- {
			cmd += ops[rng.Intn(len(ops))] + simple()
		}
		d := decide(t, `{"toolPermissions":[`+strings.Join(rules, ",")+`]}`, cmd)
		if d.Verdict != decision.AllowRewrite && d.Verdict != decision.AskRewrite {
			if strings.Contains(d.Reason, "otherwise than the original") {
				refused++
			}
			continue
		}
		rewrites++
		for _, r := range model {
			if re := regexp.MustCompile(r[0]); re.MatchString(cmd) != re.MatchString(d.Command) {
				t.Errorf("%q → %q: %s matches one and not the other", cmd, d.Command, re)
			}
		}
		if a, b := auggieOutcome(model, cmd), auggieOutcome(model, d.Command); a != b {
			t.Errorf("rules %q: Auggie would %s %q and %s its rewrite %q", model, a, cmd, b, d.Command)
		}
	}
	if rewrites < 100 || refused < 20 {
		t.Errorf("%d rewrites, %d refused for a rule: the lines test little", rewrites, refused)
	}
}
