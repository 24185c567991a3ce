package gemini

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

func TestGeminiPolicies(t *testing.T) {
	home := t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".gemini", "policies", "a.toml"), `
# user policies
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push"
decision = "deny"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = ["npm publish", "docker"]
decision = "ask_user"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandRegex = "curl .*\\|\\s*sh"
decision = "deny"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git"
decision = "allow"
priority = 50

[[rule]]
toolName = "run_shell_command"
commandPrefix = "docker ps"
decision = "allow"
priority = 200

[[rule]]
toolName = "read_file"
decision = "deny"
priority = 999

[[rule]]
mcpName = "srv"
toolName = "*"
decision = "deny"
priority = 999
`)
	r := Host.LoadRules(permissiontest.Env(home, "", nil))
	if len(r.Warnings) != 0 || r.Unreadable {
		t.Fatalf("warnings: %v", r.Warnings)
	}
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{
		"git push origin": permission.Deny,    // deny 100 beats allow 50
		"git pushx":       permission.Allow,   // not a word prefix of git push; allow git
		"git log":         permission.Allow,   // allow git
		"npm publish":     permission.Ask,     //
		"docker run x":    permission.Ask,     //
		"docker ps -a":    permission.Allow,   // allow 200 beats ask 100
		"curl x | sh":     permission.Deny,    // commandRegex on the JSON arguments
		"ls":              permission.Default, // read_file and MCP rules are not shell rules
	})
}

func TestGeminiPolicyTiersAndSettings(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	// settings exclude (4.4) vs a user allow at 500 (4.5): the allow wins.
	permissiontest.Write(t, filepath.Join(home, ".gemini", "settings.json"), `{"tools":{"exclude":["run_shell_command(make)","run_shell_command(rm)"]}}`)
	permissiontest.Write(t, filepath.Join(home, ".gemini", "policies", "u.toml"), `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "make"
decision = "allow"
priority = 500

[[rule]]
toolName = "run_shell_command"
commandPrefix = "rm"
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "yolo"
decision = "allow"
priority = 900
modes = ["yolo"]

[[rule]]
toolName = "*"
decision = "allow"
priority = 999
`)
	// admin deny beats any user allow; admin allow rules never count.
	permissiontest.Write(t, filepath.Join(home, "managed", "policies", "admin.toml"), `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "make install"
decision = "deny"
priority = 1

[[rule]]
toolName = "run_shell_command"
commandPrefix = "yolo"
decision = "deny"
priority = 1

[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 999
`)
	// the workspace tier: deny and ask only, when trusted
	permissiontest.Write(t, filepath.Join(proj, ".gemini", "policies", "w.toml"), `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "terraform"
decision = "ask_user"
priority = 999

[[rule]]
toolName = "run_shell_command"
commandPrefix = "ls"
decision = "allow"
priority = 999
`)
	r := Host.LoadRules(permissiontest.Env(home, proj, nil))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{
		"make":         permission.Allow,   // user allow 4.5 > settings exclude 4.4
		"make install": permission.Deny,    // admin 5.001
		"rm -rf x":     permission.Deny,    // settings exclude 4.4 > user allow 4.1
		"yolo x":       permission.Deny,    // a mode-bound allow never counts
		"terraform":    permission.Ask,     // trusted workspace (folder trust off)
		"ls":           permission.Default, // workspace allow rules do not count
		"echo hi":      permission.Default, // toolName "*" allow rules do not count
	})
	// GEMINI_CLI_HOME relocates the user policies
	alt := filepath.Join(home, "alt")
	permissiontest.Write(t, filepath.Join(alt, ".gemini", "policies", "x.toml"), "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"scp\"\ndecision = \"deny\"\npriority = 1\n")
	r = Host.LoadRules(permissiontest.Env(home, "", map[string]string{"GEMINI_CLI_HOME": alt}))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"scp a b": permission.Deny, "make": permission.Default})
}

func TestGeminiPolicyBroken(t *testing.T) {
	home := t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".gemini", "policies", "bad.toml"), "[[rule]\ntoolName = \"run_shell_command\"\n")
	r := Host.LoadRules(permissiontest.Env(home, "", nil))
	if !r.Unreadable || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "bad.toml") {
		t.Fatalf("want Unreadable and one warning naming bad.toml: %v %q", r.Unreadable, r.Warnings)
	}

	// A schema error: Gemini drops the file; its allow rules never count,
	// its deny rules still do.
	home = t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".gemini", "policies", "s.toml"), `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git"
decision = "allow"
priority = 900

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push"
decision = "deny"
priority = 1

[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 5000
`)
	r = Host.LoadRules(permissiontest.Env(home, "", nil))
	if r.Unreadable || len(r.Warnings) != 1 {
		t.Fatalf("schema error: %v %q", r.Unreadable, r.Warnings)
	}
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"git log": permission.Default, "git push": permission.Deny})

	// A regular expression Go cannot compile: deny matches everything,
	// allow is dropped.
	home = t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".gemini", "policies", "re.toml"), `
[[rule]]
toolName = "run_shell_command"
commandRegex = "git (?!status)"
decision = "deny"
priority = 1

[[rule]]
toolName = "run_shell_command"
argsPattern = "(?<=x)ls"
decision = "allow"
priority = 2
`)
	r = Host.LoadRules(permissiontest.Env(home, "", nil))
	if len(r.Warnings) != 2 {
		t.Fatalf("want two warnings: %q", r.Warnings)
	}
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"ls": permission.Deny, "git status": permission.Deny})
}

func TestGeminiPrefixRegexp(t *testing.T) {
	cases := []struct {
		prefix, cmd string
		want        bool
	}{
		{"git push", "git push", true},
		{"git push", "git push -f", true},
		{"git push", "git pushx", false},
		{"git push", `git push"x"`, true},
		{"git push", "git  push", false},
		{"a.b", "axb", false},
		{`echo "hi"`, `echo "hi" there`, true},
	}
	for _, c := range cases {
		re := geminiPrefixRegexp(c.prefix)
		rule := permission.Rule{Test: func(cmd string) bool { return mustMatch(re, geminiArgs(cmd)) }}
		if got := rule.Test(c.cmd); got != c.want {
			t.Errorf("prefix %q on %q: %v, want %v", c.prefix, c.cmd, got, c.want)
		}
	}
	if geminiArgs("a<b&c") != `{"command":"a<b&c"}` {
		t.Errorf("no HTML escapes: %s", geminiArgs("a<b&c"))
	}
}

func mustMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }

// TestGeminiHeuristics: the commands Gemini asks about by their first
// word (dangerous ones; git in an untrusted folder) are never rewritten
// for it, whatever its policies allow; extension policies count; an
// argsPattern is tested against Gemini's serialisation of all arguments.
func TestGeminiHeuristics(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	vars := map[string]string{"GEMINI_CLI_TRUST_WORKSPACE": "true"}
	permissiontest.Write(t, filepath.Join(home, ".gemini", "policies", "a.toml"), "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"allow\"\npriority = 999\n")
	r := Host.LoadRules(permissiontest.Env(home, proj, vars))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{
		"git -c core.pager=x log":   permission.Deny,
		"git --config-env=a=b show": permission.Deny,
		"git log --output=/tmp/x":   permission.Deny,
		"git branch -D main":        permission.Deny,
		"rg --pre ./x foo":          permission.Deny,
		"rg -z foo":                 permission.Deny,
		"/usr/bin/rg --pre=x foo":   permission.Deny,
		"find . -fprint /tmp/x":     permission.Deny,
		"find . -name x":            permission.Allow,
		"sudo rm -rf x":             permission.Deny,
		"git status":                permission.Allow,
		"git branch -a":             permission.Allow,
		"rg foo":                    permission.Allow,
	})
	// Not trusted for sure: no git command.
	r = Host.LoadRules(permissiontest.Env(home, proj, nil))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"git status": permission.Allow, "ls": permission.Allow})
	permissiontest.Write(t, filepath.Join(home, ".gemini", "settings.json"), `{"security": {"folderTrust": {"enabled": true}}}`)
	r = Host.LoadRules(permissiontest.Env(home, proj, nil))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"git status": permission.Deny, "/usr/bin/git log": permission.Deny, "ls": permission.Allow})

	// An extension's policy.
	permissiontest.Write(t, filepath.Join(home, ".gemini", "extensions", "ext", "policies", "p.toml"),
		"[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"make\"\ndecision = \"deny\"\npriority = 5\n")
	permissiontest.Write(t, filepath.Join(home, ".gemini", "settings.json"), `{}`)
	r = Host.LoadRules(permissiontest.Env(home, proj, vars))
	// The user's allow (tier 4) beats the extension's deny (tier 2).
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"make all": permission.Allow})
	permissiontest.Write(t, filepath.Join(home, ".gemini", "policies", "a.toml"), "")
	r = Host.LoadRules(permissiontest.Env(home, proj, vars))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"make all": permission.Deny, "ls": permission.Default})

	// argsPattern over all the call's arguments: a pattern on a field the
	// hook does not see may match; one anchored on the command's end too.
	permissiontest.Write(t, filepath.Join(home, ".gemini", "policies", "a.toml"), `[[rule]]
toolName = "run_shell_command"
argsPattern = '"command":"npm test"\x00,\x00"description"'
decision = "deny"
priority = 1
`)
	r = Host.LoadRules(permissiontest.Env(home, proj, vars))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"npm test": permission.Deny, "npm run": permission.Default})
}

// TestGeminiSessionFlags: --allowed-tools adds allow rules; --policy and
// --admin-policy load their files in place of the settings' policyPaths
// and adminPolicyPaths (~ and relative paths resolved as Gemini does).
func TestGeminiSessionFlags(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	rule := func(prefix, decision string) string {
		return "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"" + prefix + "\"\ndecision = \"" + decision + "\"\npriority = 10\n"
	}
	permissiontest.Write(t, filepath.Join(home, ".gemini", "settings.json"), `{"policyPaths":["`+filepath.Join(home, "set.toml")+`"]}`)
	permissiontest.Write(t, filepath.Join(home, "set.toml"), rule("terraform", "ask_user"))
	permissiontest.Write(t, filepath.Join(proj, "team.toml"), rule("git push", "deny"))
	permissiontest.Write(t, filepath.Join(home, "pol", "x.toml"), rule("kubectl", "deny"))
	permissiontest.Write(t, filepath.Join(home, "adm.toml"), rule("make", "deny"))
	env := permissiontest.Env(home, proj, nil)
	permissiontest.CheckAll(t, Host.LoadRules(env), map[string]permission.Verdict{
		"terraform plan": permission.Ask, "git push": permission.Default, "go vet ./...": permission.Default,
	})
	env.Session = permission.Session{
		Allow:         []string{"run_shell_command(go vet)", "ShellTool(ls)"},
		Policies:      []string{"team.toml", "~/pol"},
		AdminPolicies: []string{filepath.Join(home, "adm.toml")},
	}
	permissiontest.CheckAll(t, Host.LoadRules(env), map[string]permission.Verdict{
		"go vet ./...":   permission.Allow,
		"ls -la":         permission.Allow,
		"git push":       permission.Deny,    // --policy team.toml, relative to the workspace
		"kubectl delete": permission.Deny,    // --policy ~/pol
		"make":           permission.Deny,    // --admin-policy
		"terraform plan": permission.Default, // the settings' policyPaths are not loaded
	})
	// an empty --policy loads none of the settings' either
	env.Session = permission.Session{Policies: []string{}}
	permissiontest.CheckAll(t, Host.LoadRules(env), map[string]permission.Verdict{"terraform plan": permission.Default})
}

// TestGeminiToolsCore: tools.core allows what it lists and denies every
// other tool just below: `git status` runs under run_shell_command(git),
// and `gotk git status` would not, so gotk must see the allow (and leave
// the command alone) and the deny (and step aside).
func TestGeminiToolsCore(t *testing.T) {
	home := t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".gemini", "settings.json"), `{"tools":{"core":["run_shell_command(git)","read_file"],"exclude":["run_shell_command(git push)"]}}`)
	permissiontest.Write(t, filepath.Join(home, ".gemini", "policies", "u.toml"), "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"make\"\ndecision = \"allow\"\npriority = 500\n")
	permissiontest.CheckAll(t, Host.LoadRules(permissiontest.Env(home, "", nil)), map[string]permission.Verdict{
		"git status":    permission.Allow,
		"git push":      permission.Deny,  // tools.exclude 4.4 beats the core allow
		"ls -la":        permission.Deny,  // not listed: denied at 4.24
		"make":          permission.Allow, // a user policy allow at 4.5 beats it
		"go test ./...": permission.Deny,
	})
}
