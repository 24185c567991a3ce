package auggie

import (
	"os"
	"path/filepath"
	"regexp"

	"github.com/gotk-dev/gotk/core/permission"
)

// tool is Auggie's shell tool.
const tool = "launch-process"

// rule is one entry of Auggie's toolPermissions.
type rule struct {
	ToolName        string `json:"toolName"`
	EventType       string `json:"eventType"`
	ShellInputRegex string `json:"shellInputRegex"`
	Permission      struct {
		Type string `json:"type"`
	} `json:"permission"`
}

// Files are the settings files whose toolPermissions Auggie 0.36.0 reads,
// in its order (_getSettingsFilePaths): /etc/augment/settings.json, the
// workspace's .augment/settings.local.json and .augment/settings.json, and
// ~/.augment/settings.json. The workspace is taken as every folder from
// env.Cwd (the hook passes Auggie's workspace root) up to the root: more
// rules than Auggie reads, never fewer, and every rule here can only keep
// gotk out.
func Files(env permission.Env) []string {
	files := []string{"/etc/augment/settings.json"}
	user := filepath.Join(env.Home, ".augment", "settings.json")
	if env.Cwd != "" {
		for d := filepath.Clean(env.Cwd); ; d = filepath.Dir(d) {
			for _, n := range []string{"settings.local.json", "settings.json"} {
				if f := filepath.Join(d, ".augment", n); f != user {
					files = append(files, f)
				}
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return append(files, user)
}

// Load reads Auggie's toolPermissions.
//
// Auggie (0.36.0, toolsModel.callTool → nwe) checks a launch-process call
// against its rules AFTER the PreToolUse hook has replaced the input: in
// each list (the tenant's, set on Augment's server, and the settings files'
// concatenated) the first rule whose toolName, eventType and
// shellInputRegex (a JavaScript RegExp tested on the whole command) match
// decides, the strictest list's verdict wins (deny > webhook-policy >
// script-policy > ask-user > allow), and no matching rule runs the call.
// A hook's "allow" skips none of this, so gotk never answers it, and a
// rewrite keeps Auggie's outcome only where every rule matches the
// rewritten command exactly as it matches the original: Rules.Same. A rule
// without shellInputRegex matches both alike; a webhook or script policy
// is a program gotk cannot see judging the rewritten input (or, for
// tool-response rules, gotk's compact output), so any one that applies
// keeps gotk out.
//
// A deny rule matching the original is a Deny (gotk steps aside); the
// others are listed as Ask and Allow for `gotk explain`, and change no
// answer: the hook answers the same rewrite, with no decision, for both.
// A settings file that does not parse, or a shellInputRegex Go cannot
// compile, makes the rules unreadable: gotk steps aside.
//
// Not seen: the tenant's rules (on Augment's server) and the policies of
// --permission flags.
func Load(r *permission.Rules, env permission.Env) {
	var regexes []*regexp.Regexp // every rule's, nil for none
	opaque := []*regexp.Regexp{} // policies: nil matches every command
	anyOpaque := false
	for _, f := range Files(env) {
		data, err := env.Read(f)
		if err != nil {
			if !os.IsNotExist(err) && !os.IsPermission(err) {
				r.MarkUnreadable("gotk: %s: %v; gotk steps aside", f, err)
			}
			continue
		}
		var s struct {
			ToolPermissions []rule `json:"toolPermissions"`
		}
		if err := permission.ParseJSONC(data, &s); err != nil {
			r.MarkUnreadable("gotk: %s: %s; gotk steps aside", f, permission.OneLine(err.Error()))
			continue
		}
		r.Sources = append(r.Sources, f)
		for _, k := range s.ToolPermissions {
			if k.ToolName != tool {
				continue
			}
			policy := k.Permission.Type == "webhook-policy" || k.Permission.Type == "script-policy"
			if k.EventType == "tool-response" {
				if policy {
					anyOpaque = true
					opaque = append(opaque, nil)
				}
				continue
			}
			if k.EventType != "" && k.EventType != "tool-call" {
				continue
			}
			var re *regexp.Regexp
			if k.ShellInputRegex != "" {
				if re, err = regexp.Compile(k.ShellInputRegex); err != nil {
					r.MarkUnreadable("gotk: %s: shellInputRegex %q: %s; gotk steps aside", f, k.ShellInputRegex, permission.OneLine(err.Error()))
					continue
				}
				regexes = append(regexes, re)
			}
			if policy {
				anyOpaque = true
				opaque = append(opaque, re)
			}
			raw := tool
			if re != nil {
				raw += " " + k.ShellInputRegex
			}
			pr := permission.Rule{Pattern: raw, Raw: raw + ": " + k.Permission.Type, Source: f, Test: matcher(re)}
			switch k.Permission.Type {
			case "deny":
				r.Deny = append(r.Deny, pr)
			case "allow":
				r.Allow = append(r.Allow, pr)
			default:
				r.Ask = append(r.Ask, pr)
			}
		}
	}
	r.LineForms = func(line string) []string { return []string{line} }
	if len(regexes) == 0 && !anyOpaque {
		return
	}
	r.Same = func(orig, rw string) bool {
		for _, re := range opaque {
			if re == nil || re.MatchString(orig) || re.MatchString(rw) {
				return false
			}
		}
		for _, re := range regexes {
			if re.MatchString(orig) != re.MatchString(rw) {
				return false
			}
		}
		return true
	}
}

// matcher tests a rule on a command: its regular expression, or every
// command for a rule without one.
func matcher(re *regexp.Regexp) func(string) bool {
	if re == nil {
		return func(string) bool { return true }
	}
	return re.MatchString
}
