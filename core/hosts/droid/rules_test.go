package droid

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

func TestLoadDroid(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "work", "proj")
	check := func(r *permission.Rules, want map[string]permission.Verdict) {
		t.Helper()
		for cmd, v := range want {
			if got := r.Check(permissiontest.Seg(cmd)).Verdict; got != v {
				t.Errorf("%q: %v, want %v", cmd, got, v)
			}
		}
	}

	// No settings: Droid's defaults, its safeguards and Droid Shield.
	r := Host.LoadRules(permissiontest.Env(home, proj, nil))
	if r.Unreadable || len(r.Allow) != 0 {
		t.Fatalf("rules %+v", r)
	}
	check(r, map[string]permission.Verdict{
		"git status": permission.Default, "ls -la": permission.Default, "go test ./...": permission.Default, "git log -3": permission.Default,
		"rm -rf /": permission.Ask, "RM -RF /": permission.Ask, "rm -r -f x": permission.Ask, "chown -R u /x": permission.Ask, "chmod -R 777 /": permission.Ask,
		"dd if=x of=/dev/sda": permission.Ask, "mkfs.ext4 /dev/x": permission.Ask, "reboot": permission.Ask, "init 0": permission.Ask,
		"git commit -m x": permission.Ask, "git -C x push": permission.Ask, "/usr/bin/git push": permission.Ask, "git status --porcelain": permission.Default,
	})

	// The user's lists and rules, a project's blocklist, and an allowlist
	// that leaves out default entries.
	permissiontest.Write(t, filepath.Join(home, ".factory", "settings.json"), `{
		// comments are allowed
		"commandAllowlist": ["ls", "pwd", "dir", "git diff", "git log", "git show", "git blame", "git ls-files", "make"],
		"commandDenylist": ["npm publish", "git push --force"],
		"permissionRules": {"version": 1, "rules": [
			{"id": "go-build-ask", "decision": "ask", "match": {"prefix": ["go", ["build", "install"]]}, "tests": {"match": ["go build"], "noMatch": []}},
			{"id": "no-terraform", "decision": "block", "match": {"prefix": ["terraform", "apply"]}},
			{"id": "ok", "decision": "allow", "match": {"prefix": ["cargo"]}}
		]}}`)
	permissiontest.Write(t, filepath.Join(proj, ".factory", "settings.local.json"), `{"commandBlocklist": ["kubectl delete"]}`)
	r = Host.LoadRules(permissiontest.Env(home, filepath.Join(proj, "sub"), nil))
	if r.Unreadable || len(r.Warnings) != 0 {
		t.Fatalf("rules %+v", r)
	}
	check(r, map[string]permission.Verdict{
		"NPM publish --tag x": permission.Ask, "go build ./...": permission.Ask, "timeout 5 go install x": permission.Ask, "go test": permission.Default,
		"terraform apply -auto-approve": permission.Deny, "kubectl delete pod x": permission.Deny,
		"git status": permission.Ask, "git status -s": permission.Ask, // no longer on the allowlist
		"git diff": permission.Default, "cargo build": permission.Default, "git diff --stat": permission.Default,
	})

	// A deny or block entry that names a default allow entry takes it off
	// Droid's allow set.
	named := t.TempDir()
	permissiontest.Write(t, filepath.Join(named, ".factory", "settings.json"), `{"commandDenylist": ["git status && ls"], "commandBlocklist": ["/bin/pwd -x"]}`)
	check(Host.LoadRules(permissiontest.Env(named, named, nil)), map[string]permission.Verdict{
		"ls -la": permission.Ask, "git status": permission.Ask, "pwd": permission.Ask, "git diff": permission.Default, "git log": permission.Default,
	})

	// FACTORY_HOME_OVERRIDE and --settings.
	other := t.TempDir()
	permissiontest.Write(t, filepath.Join(other, ".factory", "settings.json"), `{"commandDenylist": ["git log"]}`)
	permissiontest.Write(t, filepath.Join(other, "runtime.json"), `{"commandBlocklist": ["git show"]}`)
	e := permissiontest.Env(home, proj, map[string]string{"FACTORY_HOME_OVERRIDE": other})
	e.Session.Settings = []string{filepath.Join(other, "runtime.json")}
	// (the project's walk up reaches ~/.factory too: more rules, never fewer)
	check(Host.LoadRules(e), map[string]permission.Verdict{"git log": permission.Ask, "git show HEAD": permission.Deny, "npm publish": permission.Ask})

	// A blocklist entry the rewrite would match: Droid checks its blocklist
	// on the rewritten command, so gotk stays out of everything.
	permissiontest.Write(t, filepath.Join(proj, ".factory", "settings.local.json"), `{"commandBlocklist": ["gotk"]}`)
	check(Host.LoadRules(permissiontest.Env(home, proj, nil)), map[string]permission.Verdict{"git diff": permission.Deny, "cargo build": permission.Deny})

	// A file that does not parse: gotk steps aside.
	permissiontest.Write(t, filepath.Join(home, ".factory", "settings.json"), `{"commandDenylist": [`)
	if r := Host.LoadRules(permissiontest.Env(home, proj, nil)); !r.Unreadable {
		t.Errorf("a broken settings.json is not unreadable: %+v", r)
	}
	permissiontest.Write(t, filepath.Join(home, ".factory", "settings.json"), `{"permissionRules": {"rules": [{"id": "x", "decision": "block", "match": {"prefix": [1]}}]}}`)
	if r := Host.LoadRules(permissiontest.Env(home, proj, nil)); !r.Unreadable {
		t.Errorf("an unreadable permission rule is not unreadable: %+v", r)
	}
}

func TestDroidPattern(t *testing.T) {
	for _, c := range []struct {
		entry, cmd string
		want       bool
	}{
		{"git push", "git push origin main", true},
		{"git push", "git pushx", false},
		{"git push", "git -C x push", true}, // words in order, gaps allowed
		{"git push", "GIT PUSH", true},
		{"chown -R", "chown x -R y", true},
		{"rm -rf /", "rm -rf /tmp/x", true}, // as Droid's own (which then exempts /tmp)
		{"rm -rf /", "rm -rf / ", true},
		{"rm -rf ~", "rm -rf ~/x", true},
		{"dd of=/dev", "dd if=x of=/dev/sda", true},
		{"make", "cmake", false},
		{"npm publish && git push", "npm publish", true},
	} {
		re := droidPattern(c.entry)
		if got := re != nil && re.MatchString(c.cmd); got != c.want {
			t.Errorf("%q on %q: %v, want %v (%v)", c.entry, c.cmd, got, c.want, re)
		}
	}
}

// foldKey agrees with (?i): whatever a case-insensitive expression of a
// word matches holds the word's key; and droidMatcher answers as the
// compiled pattern does, on commands that share words and that do not.
func TestDroidMatcherAgreesWithPattern(t *testing.T) {
	for _, c := range []struct{ word, text string }{
		{"rm", "RM -rf /"}, {"kill", "\u212aill 1"}, {"ssh", "\u017f\u017fh host"}, {"Straße", "STRASSE"},
	} {
		re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(c.word))
		if re.MatchString(c.text) && !strings.Contains(foldKey(c.text), foldKey(c.word)) {
			t.Errorf("(?i)%s matches %q but its key is not in the text's", c.word, c.text)
		}
	}
	entries := append(append([]string{}, droidDefaultDeny...), "git push", "npm publish", "kubectl delete", "curl | sh")
	cmds := []string{"git status", "git push origin main", "NPM publish --tag x", "kubectl delete pod x", "rm -rf /", "RM -RF ~",
		"curl http://x | sh", "echo rm", "ls -la", "\u212aubectl delete pod", "sudo rm -rf /*"}
	for _, e := range entries {
		m, re := droidMatcher(e), droidPattern(e)
		if (m == nil) != (re == nil) {
			t.Fatalf("%q: matcher %v, pattern %v", e, m != nil, re != nil)
		}
		if m == nil {
			continue
		}
		for _, c := range cmds {
			if got, want := m(c), re.MatchString(c); got != want {
				t.Errorf("entry %q on %q: matcher %v, pattern %v", e, c, got, want)
			}
		}
	}
}
