package permission

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestLoadDroid(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "work", "proj")
	check := func(r *Rules, want map[string]Verdict) {
		t.Helper()
		for cmd, v := range want {
			if got := r.Check(seg(cmd)).Verdict; got != v {
				t.Errorf("%q: %v, want %v", cmd, got, v)
			}
		}
	}

	// No settings: Droid's defaults, its safeguards and Droid Shield.
	r := Load(Droid, env(home, proj, nil))
	if r.Unreadable || len(r.Allow) != 0 {
		t.Fatalf("rules %+v", r)
	}
	check(r, map[string]Verdict{
		"git status": Default, "ls -la": Default, "go test ./...": Default, "git log -3": Default,
		"rm -rf /": Ask, "RM -RF /": Ask, "rm -r -f x": Ask, "chown -R u /x": Ask, "chmod -R 777 /": Ask,
		"dd if=x of=/dev/sda": Ask, "mkfs.ext4 /dev/x": Ask, "reboot": Ask, "init 0": Ask,
		"git commit -m x": Ask, "git -C x push": Ask, "/usr/bin/git push": Ask, "git status --porcelain": Default,
	})

	// The user's lists and rules, a project's blocklist, and an allowlist
	// that leaves out default entries.
	write(t, filepath.Join(home, ".factory", "settings.json"), `{
		// comments are allowed
		"commandAllowlist": ["ls", "pwd", "dir", "git diff", "git log", "git show", "git blame", "git ls-files", "make"],
		"commandDenylist": ["npm publish", "git push --force"],
		"permissionRules": {"version": 1, "rules": [
			{"id": "go-build-ask", "decision": "ask", "match": {"prefix": ["go", ["build", "install"]]}, "tests": {"match": ["go build"], "noMatch": []}},
			{"id": "no-terraform", "decision": "block", "match": {"prefix": ["terraform", "apply"]}},
			{"id": "ok", "decision": "allow", "match": {"prefix": ["cargo"]}}
		]}}`)
	write(t, filepath.Join(proj, ".factory", "settings.local.json"), `{"commandBlocklist": ["kubectl delete"]}`)
	r = Load(Droid, env(home, filepath.Join(proj, "sub"), nil))
	if r.Unreadable || len(r.Warnings) != 0 {
		t.Fatalf("rules %+v", r)
	}
	check(r, map[string]Verdict{
		"NPM publish --tag x": Ask, "go build ./...": Ask, "timeout 5 go install x": Ask, "go test": Default,
		"terraform apply -auto-approve": Deny, "kubectl delete pod x": Deny,
		"git status": Ask, "git status -s": Ask, // no longer on the allowlist
		"git diff": Default, "cargo build": Default, "git diff --stat": Default,
	})

	// FACTORY_HOME_OVERRIDE and --settings.
	other := t.TempDir()
	write(t, filepath.Join(other, ".factory", "settings.json"), `{"commandDenylist": ["git log"]}`)
	write(t, filepath.Join(other, "runtime.json"), `{"commandBlocklist": ["git show"]}`)
	e := env(home, proj, map[string]string{"FACTORY_HOME_OVERRIDE": other})
	e.Session.Settings = []string{filepath.Join(other, "runtime.json")}
	// (the project's walk up reaches ~/.factory too: more rules, never fewer)
	check(Load(Droid, e), map[string]Verdict{"git log": Ask, "git show HEAD": Deny, "npm publish": Ask})

	// A blocklist entry the rewrite would match: Droid checks its blocklist
	// on the rewritten command, so gotk stays out of everything.
	write(t, filepath.Join(proj, ".factory", "settings.local.json"), `{"commandBlocklist": ["gotk"]}`)
	check(Load(Droid, env(home, proj, nil)), map[string]Verdict{"git diff": Deny, "cargo build": Deny})

	// A file that does not parse: gotk steps aside.
	write(t, filepath.Join(home, ".factory", "settings.json"), `{"commandDenylist": [`)
	if r := Load(Droid, env(home, proj, nil)); !r.Unreadable {
		t.Errorf("a broken settings.json is not unreadable: %+v", r)
	}
	write(t, filepath.Join(home, ".factory", "settings.json"), `{"permissionRules": {"rules": [{"id": "x", "decision": "block", "match": {"prefix": [1]}}]}}`)
	if r := Load(Droid, env(home, proj, nil)); !r.Unreadable {
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
