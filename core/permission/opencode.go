package permission

import (
	"path/filepath"
	"strings"
)

// OpenCode is the OpenCode plugin's host (`gotk rewrite --host opencode`).
//
// OpenCode matches its `permission` rules on the REWRITTEN command (the
// plugin cannot answer for it), and asks before `cat` reads outside the
// project by looking for cat as the program — behind gotk it would not see
// it. So: an OpenCode config whose bash permission is anything but
// "allow" makes gotk step aside (Unreadable: gotk does not model
// OpenCode's rule merging, and a rewrite could dodge a rule), and `cat` is
// an ask rule (no rewrite under the host's answer policy, host.AnswersOf).
const OpenCode Host = "opencode"

// openCodeBashAllowed: a `permission` value that leaves every shell command
// allowed — none, "allow", or an object whose "bash" (and "*") is "allow"
// or absent. Anything else (ask, deny, per-command patterns) is a rule
// OpenCode would check on the rewritten command.
func openCodeBashAllowed(v any) bool {
	switch p := v.(type) {
	case nil:
		return true
	case string:
		return p == "allow"
	case map[string]any:
		for _, k := range []string{"bash", "*"} {
			if x, ok := p[k]; ok {
				if s, ok := x.(string); !ok || s != "allow" {
					return false
				}
			}
		}
		return true
	}
	return false
}

func loadOpenCode(r *Rules, env Env) {
	global := env.Getenv("XDG_CONFIG_HOME")
	if global == "" {
		global = filepath.Join(env.Home, ".config")
	}
	var files []string
	for _, n := range []string{"opencode.jsonc", "opencode.json", "config.json"} {
		files = append(files, filepath.Join(global, "opencode", n))
	}
	if f := env.Getenv("OPENCODE_CONFIG"); f != "" {
		files = append(files, f)
	}
	if d := env.Getenv("OPENCODE_CONFIG_DIR"); d != "" {
		files = append(files, filepath.Join(d, "opencode.jsonc"), filepath.Join(d, "opencode.json"))
	}
	if env.Cwd != "" {
		for d := filepath.Clean(env.Cwd); ; d = filepath.Dir(d) {
			for _, sub := range []string{"", ".opencode"} {
				files = append(files, filepath.Join(d, sub, "opencode.jsonc"), filepath.Join(d, sub, "opencode.json"))
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, f := range files {
		var doc map[string]any
		if !r.readJSON(env, f, &doc) { // a missing file is silently skipped
			continue
		}
		if !openCodeBashAllowed(doc["permission"]) {
			r.unreadable("gotk: %s sets OpenCode bash permission rules, which OpenCode checks on the rewritten command; gotk steps aside", f)
		}
	}
	r.Ask = append(r.Ask, externalDirectoryCat("OpenCode"))
}

// externalDirectoryCat is the ask rule for OpenCode's external_directory
// check, which Kilo (its fork) shares: it looks for cat as the program of
// the command it is given, so any word naming cat keeps gotk out.
func externalDirectoryCat(agent string) Rule {
	return Rule{Pattern: "cat", Raw: "cat", Source: agent + "'s external_directory check (it looks for cat as the program)",
		test: func(cmd string) bool {
			for _, w := range strings.Fields(cmd) {
				if filepath.Base(strings.Trim(w, `"'`)) == "cat" {
					return true
				}
			}
			return false
		}}
}
