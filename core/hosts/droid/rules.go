package droid

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/gotk-dev/gotk/core/permission"
)

// DefaultAllow is Droid's default commandAllowlist.
var DefaultAllow = []string{"ls", "pwd", "dir", "git status", "git diff", "git log", "git show", "git blame", "git ls-files"}

// droidDefaultDeny is Droid's default commandDenylist.
var droidDefaultDeny = []string{"rm -rf /", "rm -rf /*", "rm -rf .", "rm -rf ~", "rm -rf ~/*", "rm -rf $HOME",
	"rm -r /", "rm -r /*", "rm -r ~", "rm -r ~/*", "mkfs", "mkfs.ext4", "mkfs.ext3", "mkfs.vfat", "mkfs.ntfs",
	"dd if=/dev/zero of=/dev", "dd of=/dev", "shutdown", "reboot", "halt", "poweroff", "init 0", "init 6",
	":(){ :|: & };:", ":() { :|:& };:", "chmod -R 777 /", "chmod -R 000 /", "chown -R", "Format-Volume",
	"format.com", "powershell Remove-Item -Recurse -Force"}

type droidSettings struct {
	CommandAllowlist *[]string       `json:"commandAllowlist"`
	CommandDenylist  []string        `json:"commandDenylist"`
	CommandBlocklist []string        `json:"commandBlocklist"`
	PermissionRules  json.RawMessage `json:"permissionRules"`
	General          *droidSettings  `json:"general"`
}

type droidRule struct {
	ID       string `json:"id"`
	Decision string `json:"decision"`
	Match    struct {
		Prefix []json.RawMessage `json:"prefix"`
	} `json:"match"`
}

// Home is Droid's ~/.factory.
func Home(env permission.Env) string {
	home := env.Getenv("FACTORY_HOME_OVERRIDE")
	if home == "" {
		home = env.Home
	}
	return filepath.Join(home, ".factory")
}

// Load reads Factory Droid's rules.
//
// Droid decides an Execute call in this order (droid 0.225.2): a block rule
// refuses it; an ask rule (commandDenylist, permissionRules "ask", its
// built-in safeguards) asks; an allow rule (commandAllowlist — by default
// ls, pwd, dir and git's read commands — or permissionRules "allow") runs
// it; otherwise the model's riskLevel is compared with the session's
// autonomy level. A hook's "allow" skips every one of these checks but the
// blocklist, and only the blocklist is checked again on the rewritten
// command. So gotk answers only "allow", and only where Droid would have
// run the original without asking (host.Answers.AllowOnly): the risk is
// within the autonomy (the hook says so, decision.Request.AutoAllow) or
// Droid's built-in allow rules cover the line (KnownSafe).
//
// What this reader gives are the rules that must keep gotk out — every
// one errs towards matching more than Droid does, so that an allow is never
// given where Droid would have asked:
//   - Deny: commandBlocklist patterns and permissionRules "block", also when
//     they would match the rewritten command;
//   - Ask: commandDenylist patterns (Droid's defaults always included),
//     permissionRules "ask", the commands of Droid's built-in safeguards
//     (recursive rm, chmod/chown -R, mkfs, dd to a device, power), git
//     commit and push (Droid Shield scans them for secrets only when git is
//     the program, so `gotk git push` would skip the scan), and the default
//     allowlist entries the user's commandAllowlist leaves out (Droid no
//     longer allows those, but KnownSafe would).
//
// Files: ~/.factory (or $FACTORY_HOME_OVERRIDE) settings.json,
// settings.local.json and org-managed-settings.json, the .factory folders
// from the working directory up, $FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH,
// $FACTORY_RUNTIME_SETTINGS_PATH and --settings. A file that does not
// parse makes the rules unreadable: gotk steps aside.
func Load(r *permission.Rules, env permission.Env) {
	var files []string
	dir := Home(env)
	for _, f := range []string{"settings.json", "settings.local.json", "org-managed-settings.json"} {
		files = append(files, filepath.Join(dir, f))
	}
	if env.Cwd != "" {
		for d := filepath.Clean(env.Cwd); ; d = filepath.Dir(d) {
			if d != filepath.Dir(dir) { // ~/.factory is read above
				files = append(files, filepath.Join(d, ".factory", "settings.json"), filepath.Join(d, ".factory", "settings.local.json"))
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, k := range []string{"FACTORY_ORG_MANAGED_SETTINGS_LOCAL_PATH", "FACTORY_RUNTIME_SETTINGS_PATH"} {
		if p := env.Getenv(k); p != "" {
			files = append(files, p)
		}
	}
	files = append(files, env.Session.Settings...)

	deny := append([]string(nil), droidDefaultDeny...)
	var block []string
	allowSeen := false
	allowed := map[string]int{} // default entry → number of allowlists holding it
	lists := 0
	for _, f := range files {
		data, err := env.Read(f)
		if err != nil {
			if !os.IsNotExist(err) && !os.IsPermission(err) {
				r.MarkUnreadable("gotk: %s: %v; gotk steps aside", f, err)
			}
			continue
		}
		var s droidSettings
		if err := permission.ParseJSONC(data, &s); err != nil {
			r.MarkUnreadable("gotk: %s: %s; gotk steps aside", f, permission.OneLine(err.Error()))
			continue
		}
		r.Sources = append(r.Sources, f)
		for _, s := range []*droidSettings{&s, s.General} {
			if s == nil {
				continue
			}
			deny = append(deny, s.CommandDenylist...)
			block = append(block, s.CommandBlocklist...)
			if s.CommandAllowlist != nil {
				allowSeen = true
				lists++
				for _, e := range *s.CommandAllowlist {
					allowed[strings.Join(strings.Fields(e), " ")]++
				}
			}
			addRules(r, f, s.PermissionRules)
		}
	}
	for _, p := range block {
		if m := droidMatcher(p); m != nil {
			r.Deny = append(r.Deny, permission.Rule{Pattern: p, Raw: p, Source: "commandBlocklist", Test: withGotk(m)})
		}
	}
	for _, p := range deny {
		if m := droidMatcher(p); m != nil {
			r.Ask = append(r.Ask, permission.Rule{Pattern: p, Raw: p, Source: "commandDenylist", Test: m})
		}
	}
	r.LineForms = droidLineForms
	r.Ask = append(r.Ask,
		permission.Rule{Pattern: "safeguards", Raw: "rm -r, chmod/chown -R, mkfs, dd of=/dev, power", Source: "Droid's built-in safeguards", Test: droidSafeguard},
		permission.Rule{Pattern: "git commit|push", Raw: "git commit, git push", Source: "Droid Shield (it scans only when git is the program)", Test: droidShield})
	named := append(append([]string(nil), deny...), block...)
	for _, e := range DefaultAllow {
		words := strings.Fields(e)
		var why string
		switch {
		case allowSeen && allowed[e] < lists:
			why = "commandAllowlist leaves out a default entry"
		case slices.ContainsFunc(named, func(x string) bool { return droidPrefix(x, words) }):
			// Droid takes off its allow set the command each deny and
			// block entry names (its program, git's subcommand): a
			// denylist entry `git status && ls` leaves ls to the risk gate.
			why = "a commandDenylist or commandBlocklist entry names a default allow entry"
		default:
			continue
		}
		r.Ask = append(r.Ask, permission.Rule{Pattern: e, Raw: e, Source: why,
			Test: func(cmd string) bool { return droidPrefix(cmd, words) }})
	}
}

// addRules adds the "ask" and "block" rules of a permissionRules
// value ({"version":1,"rules":[…]}, or the rules alone). Their examples and
// enabled flags are not checked: a rule Droid skips still keeps gotk out.
func addRules(r *permission.Rules, file string, raw json.RawMessage) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var doc struct {
		Rules []droidRule `json:"rules"`
	}
	if json.Unmarshal(raw, &doc) != nil {
		if json.Unmarshal(raw, &doc.Rules) != nil {
			r.MarkUnreadable("gotk: %s: permissionRules is neither {rules:[…]} nor a list; gotk steps aside", file)
			return
		}
	}
	for _, d := range doc.Rules {
		alts := make([][]string, len(d.Match.Prefix))
		for i, p := range d.Match.Prefix {
			var one string
			if json.Unmarshal(p, &one) == nil {
				alts[i] = []string{one}
			} else if json.Unmarshal(p, &alts[i]) != nil {
				r.MarkUnreadable("gotk: %s: permissionRules %q: a prefix element is neither a word nor a list; gotk steps aside", file, d.ID)
				return
			}
		}
		rule := permission.Rule{Pattern: d.ID, Raw: d.ID, Source: file + " permissionRules"}
		switch d.Decision {
		case "block":
			if len(alts) == 0 {
				continue
			}
			rule.Test = withGotk(func(cmd string) bool { return droidRulePrefix(cmd, alts) })
			r.Deny = append(r.Deny, rule)
		case "ask":
			if len(alts) == 0 {
				continue
			}
			rule.Test = func(cmd string) bool { return droidRulePrefix(cmd, alts) }
			r.Ask = append(r.Ask, rule)
		}
	}
}

// droidMatcher tests a command against a list entry's droidPattern. Its
// expression (bounded gaps: a large program) is compiled only for a
// command that holds every word of the entry, compared as (?i) compares
// (simple case folding): Droid's default lists have dozens of entries and
// most share no word with a given command.
func droidMatcher(entry string) func(string) bool {
	first := entry
	if i := strings.IndexAny(entry, ";&|"); i >= 0 {
		first = entry[:i]
	}
	words := strings.Fields(first)
	if len(words) == 0 {
		return nil
	}
	keys := make([]string, len(words))
	for i, w := range words {
		keys[i] = foldKey(w)
	}
	re := sync.OnceValue(func() *regexp.Regexp { return droidPattern(entry) })
	return func(cmd string) bool {
		folded := foldKey(cmd)
		for _, k := range keys {
			if !strings.Contains(folded, k) {
				return false
			}
		}
		r := re()
		return r != nil && r.MatchString(cmd)
	}
}

// foldKey maps every rune of s to the smallest rune of its simple case
// folding orbit (K, k and the Kelvin sign alike): two strings equal under
// (?i) have equal keys, so a word (?i) finds in a text is in its key.
func foldKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		// An ASCII letter's orbit's smallest rune is its capital.
		return strings.ToUpper(s)
	}
	return strings.Map(func(r rune) rune {
		min := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < min {
				min = f
			}
		}
		return min
	}, s)
}

// droidPattern is Droid's regular expression for a list entry: its words
// in order, case-insensitive, up to 100 characters apart within one command
// (no ; & or |). It is matched at any word here, where Droid anchors it at
// the command's program: more matches, never fewer. An entry of several
// commands (Droid matches it on the whole line) keeps its first.
func droidPattern(entry string) *regexp.Regexp {
	first := entry
	if i := strings.IndexAny(entry, ";&|"); i >= 0 {
		first = entry[:i]
	}
	w := strings.Fields(first)
	if len(w) == 0 {
		return nil
	}
	end := func(tok string) string {
		if strings.Contains(tok, "/") {
			return "([\\s;&|)`/]+|$)"
		}
		return "([\\s;&|)`]+|$)"
	}
	var b strings.Builder
	b.WriteString("(?i)(^|[\\s;&|(`]+)")
	b.WriteString(regexp.QuoteMeta(w[0]))
	if droidWordEnd.MatchString(w[0]) {
		b.WriteString(`\b`)
	}
	if len(w) == 1 {
		b.WriteString(end(w[0]))
	}
	for i := 1; i < len(w); i++ {
		gap := "[^;&|]{0,100}"
		if next := ""; i+1 < len(w) {
			next = w[i+1]
			if next == "/" || strings.HasPrefix(next, "/") {
				gap = "[^;&|.]{0,100}"
			}
		} else if w[i] == "/" || strings.HasPrefix(w[i], "/") {
			gap = "[^;&|.]{0,100}"
		}
		b.WriteString(gap + regexp.QuoteMeta(w[i]))
		if i == len(w)-1 && w[i] != "/" && w[i] != "~" {
			b.WriteString(end(w[i]))
		}
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

// droidWords are cmd's words with quotes removed; the program also by its
// base name.
var unquote = strings.NewReplacer(`"`, "", `'`, "")

func droidWords(cmd string) [][]string {
	w := strings.Fields(cmd)
	for i := range w {
		w[i] = unquote.Replace(w[i])
	}
	out := [][]string{w}
	if len(w) > 0 && strings.Contains(w[0], "/") {
		b := append([]string{filepath.Base(w[0])}, w[1:]...)
		out = append(out, b)
	}
	return out
}

// droidRulePrefix: a permissionRules prefix matches cmd's words from some
// word on (Droid: from the program).
func droidRulePrefix(cmd string, alts [][]string) bool {
	for _, w := range droidWords(cmd) {
		for at := 0; at+len(alts) <= len(w); at++ {
			ok := true
			for i, a := range alts {
				if !slices.Contains(a, w[at+i]) {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// droidPrefix: cmd's program is words[0] and the words after it include
// each of words[1:] (a default allowlist entry such as "git status").
func droidPrefix(cmd string, words []string) bool {
	for _, w := range droidWords(cmd) {
		for at := range w {
			if strings.ToLower(filepath.Base(w[at])) != words[0] {
				continue
			}
			rest := w[at+1:]
			ok := true
			for _, want := range words[1:] {
				if !containsFold(rest, want) {
					ok = false
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// droidSafeguard: the programs of Droid's built-in safeguards, with any of
// the arguments that make them ask.
func droidSafeguard(cmd string) bool {
	for _, w := range droidWords(cmd) {
		for at, word := range w {
			prog, args := strings.ToLower(filepath.Base(word)), w[at+1:]
			switch {
			case prog == "rm" && hasArg(args, func(a string) bool {
				return a == "--recursive" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "rR")
			}),
				(prog == "chmod" || prog == "chown") && hasArg(args, func(a string) bool { return a == "-R" || a == "--recursive" }),
				strings.HasPrefix(prog, "mkfs"),
				prog == "dd" && hasArg(args, func(a string) bool { return strings.HasPrefix(a, "of=/dev") }),
				prog == "shutdown" || prog == "reboot" || prog == "halt" || prog == "poweroff",
				prog == "init" && hasArg(args, func(a string) bool { return a == "0" || a == "6" }):
				return true
			}
		}
	}
	return false
}

// droidShield: git commit or git push, which Droid Shield scans for secrets
// before they run — but only when the program is git.
func droidShield(cmd string) bool {
	return droidPrefix(cmd, []string{"git", "commit"}) || droidPrefix(cmd, []string{"git", "push"})
}

func hasArg(args []string, pred func(string) bool) bool {
	for _, a := range args {
		if pred(a) {
			return true
		}
	}
	return false
}

// withGotk extends a block rule to the rewritten command, which Droid
// checks against its blocklist again: gotk inserted before any word.
func withGotk(test func(string) bool) func(string) bool {
	return func(cmd string) bool {
		if test(cmd) {
			return true
		}
		w := strings.Fields(cmd)
		for i := range w {
			v := strings.Join(append(append(append([]string{}, w[:i]...), "gotk"), w[i:]...), " ")
			if test(v) {
				return true
			}
		}
		return false
	}
}

var droidWordEnd = regexp.MustCompile(`\w$`)

// droidLineForms are the whole line as typed, with its quotes and escapes
// removed, with every word that names a path by its base name, and with
// each such word alone by its base name (Droid takes the base name of the
// program word only: `/usr/bin/go test ./...` is `go test ./...`). Droid
// splits a line with its own scanner (on ; | & && || and newlines outside
// what it takes for quotes, which a quote in a comment or a heredoc body
// throws off) and matches each part, dequoted, its program by base name.
// A list entry's pattern never spans ; & or |, so whatever it matches in
// one of Droid's parts it also matches in these; it may match more (across
// a newline bash splits at), which costs only a rewrite: Droid then judges
// the original itself.
func droidLineForms(line string) []string {
	forms := []string{line}
	unq := droidDequote(line)
	if unq != line {
		forms = append(forms, unq)
	}
	fs := strings.FieldsFunc(unq, unicode.IsSpace)
	all := slices.Clone(fs)
	changed := false
	for i, f := range fs {
		if j := strings.LastIndexByte(f, '/'); j >= 0 && j < len(f)-1 {
			all[i], changed = f[j+1:], true
			one := slices.Clone(fs)
			one[i] = f[j+1:]
			forms = append(forms, strings.Join(one, " "))
		}
	}
	if changed {
		forms = append(forms, strings.Join(all, " "))
	}
	return forms
}

// droidDequote removes quotes and backslash escapes as Droid's word
// reader does (a backslash-newline joins lines), keeping every other
// character where it is.
func droidDequote(s string) string {
	var b strings.Builder
	single, double := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case single:
			if c == '\'' {
				single = false
			} else {
				b.WriteByte(c)
			}
		case c == '\\' && i+1 < len(s):
			n := s[i+1]
			if double && n != '$' && n != '`' && n != '"' && n != '\\' && n != '\n' {
				b.WriteByte(c)
				continue
			}
			if n != '\n' {
				b.WriteByte(n)
			}
			i++
		case c == '\'' && !double:
			single = true
		case c == '"':
			double = !double
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
