package permission

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func checkAll(t *testing.T, r *Rules, want map[string]Verdict) {
	t.Helper()
	for cmd, v := range want {
		if got := r.Check(seg(cmd)).Verdict; got != v {
			t.Errorf("%s %q: %v, want %v", r.Host, cmd, got, v)
		}
	}
}

func TestGeminiPolicies(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".gemini", "policies", "a.toml"), `
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
	r := Load(Gemini, env(home, "", nil))
	if len(r.Warnings) != 0 || r.Unreadable {
		t.Fatalf("warnings: %v", r.Warnings)
	}
	checkAll(t, r, map[string]Verdict{
		"git push origin": Deny,    // deny 100 beats allow 50
		"git pushx":       Allow,   // not a word prefix of git push; allow git
		"git log":         Allow,   // allow git
		"npm publish":     Ask,     //
		"docker run x":    Ask,     //
		"docker ps -a":    Allow,   // allow 200 beats ask 100
		"curl x | sh":     Deny,    // commandRegex on the JSON arguments
		"ls":              Default, // read_file and MCP rules are not shell rules
	})
}

func TestGeminiPolicyTiersAndSettings(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	// settings exclude (4.4) vs a user allow at 500 (4.5): the allow wins.
	write(t, filepath.Join(home, ".gemini", "settings.json"), `{"tools":{"exclude":["run_shell_command(make)","run_shell_command(rm)"]}}`)
	write(t, filepath.Join(home, ".gemini", "policies", "u.toml"), `
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
	write(t, filepath.Join(home, "managed", "policies", "admin.toml"), `
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
	write(t, filepath.Join(proj, ".gemini", "policies", "w.toml"), `
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
	r := Load(Gemini, env(home, proj, nil))
	checkAll(t, r, map[string]Verdict{
		"make":         Allow,   // user allow 4.5 > settings exclude 4.4
		"make install": Deny,    // admin 5.001
		"rm -rf x":     Deny,    // settings exclude 4.4 > user allow 4.1
		"yolo x":       Deny,    // a mode-bound allow never counts
		"terraform":    Ask,     // trusted workspace (folder trust off)
		"ls":           Default, // workspace allow rules do not count
		"echo hi":      Default, // toolName "*" allow rules do not count
	})
	// GEMINI_CLI_HOME relocates the user policies
	alt := filepath.Join(home, "alt")
	write(t, filepath.Join(alt, ".gemini", "policies", "x.toml"), "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"scp\"\ndecision = \"deny\"\npriority = 1\n")
	r = Load(Gemini, env(home, "", map[string]string{"GEMINI_CLI_HOME": alt}))
	checkAll(t, r, map[string]Verdict{"scp a b": Deny, "make": Default})
}

func TestGeminiPolicyBroken(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".gemini", "policies", "bad.toml"), "[[rule]\ntoolName = \"run_shell_command\"\n")
	r := Load(Gemini, env(home, "", nil))
	if !r.Unreadable || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "bad.toml") {
		t.Fatalf("want Unreadable and one warning naming bad.toml: %v %q", r.Unreadable, r.Warnings)
	}

	// A schema error: Gemini drops the file; its allow rules never count,
	// its deny rules still do.
	home = t.TempDir()
	write(t, filepath.Join(home, ".gemini", "policies", "s.toml"), `
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
	r = Load(Gemini, env(home, "", nil))
	if r.Unreadable || len(r.Warnings) != 1 {
		t.Fatalf("schema error: %v %q", r.Unreadable, r.Warnings)
	}
	checkAll(t, r, map[string]Verdict{"git log": Default, "git push": Deny})

	// A regular expression Go cannot compile: deny matches everything,
	// allow is dropped.
	home = t.TempDir()
	write(t, filepath.Join(home, ".gemini", "policies", "re.toml"), `
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
	r = Load(Gemini, env(home, "", nil))
	if len(r.Warnings) != 2 {
		t.Fatalf("want two warnings: %q", r.Warnings)
	}
	checkAll(t, r, map[string]Verdict{"ls": Deny, "git status": Deny})
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
		rule := Rule{test: func(cmd string) bool { return mustMatch(re, geminiArgs(cmd)) }}
		if got := rule.test(c.cmd); got != c.want {
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
	write(t, filepath.Join(home, ".gemini", "policies", "a.toml"), "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"allow\"\npriority = 999\n")
	r := Load(Gemini, env(home, proj, vars))
	checkAll(t, r, map[string]Verdict{
		"git -c core.pager=x log":   Deny,
		"git --config-env=a=b show": Deny,
		"git log --output=/tmp/x":   Deny,
		"git branch -D main":        Deny,
		"rg --pre ./x foo":          Deny,
		"rg -z foo":                 Deny,
		"/usr/bin/rg --pre=x foo":   Deny,
		"find . -fprint /tmp/x":     Deny,
		"find . -name x":            Allow,
		"sudo rm -rf x":             Deny,
		"git status":                Allow,
		"git branch -a":             Allow,
		"rg foo":                    Allow,
	})
	// Not trusted for sure: no git command.
	r = Load(Gemini, env(home, proj, nil))
	checkAll(t, r, map[string]Verdict{"git status": Allow, "ls": Allow})
	write(t, filepath.Join(home, ".gemini", "settings.json"), `{"security": {"folderTrust": {"enabled": true}}}`)
	r = Load(Gemini, env(home, proj, nil))
	checkAll(t, r, map[string]Verdict{"git status": Deny, "/usr/bin/git log": Deny, "ls": Allow})

	// An extension's policy.
	write(t, filepath.Join(home, ".gemini", "extensions", "ext", "policies", "p.toml"),
		"[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"make\"\ndecision = \"deny\"\npriority = 5\n")
	write(t, filepath.Join(home, ".gemini", "settings.json"), `{}`)
	r = Load(Gemini, env(home, proj, vars))
	// The user's allow (tier 4) beats the extension's deny (tier 2).
	checkAll(t, r, map[string]Verdict{"make all": Allow})
	write(t, filepath.Join(home, ".gemini", "policies", "a.toml"), "")
	r = Load(Gemini, env(home, proj, vars))
	checkAll(t, r, map[string]Verdict{"make all": Deny, "ls": Default})

	// argsPattern over all the call's arguments: a pattern on a field the
	// hook does not see may match; one anchored on the command's end too.
	write(t, filepath.Join(home, ".gemini", "policies", "a.toml"), `[[rule]]
toolName = "run_shell_command"
argsPattern = '"command":"npm test"\x00,\x00"description"'
decision = "deny"
priority = 1
`)
	r = Load(Gemini, env(home, proj, vars))
	checkAll(t, r, map[string]Verdict{"npm test": Deny, "npm run": Default})
}
