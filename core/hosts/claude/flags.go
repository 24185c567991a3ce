package claude

import (
	"strings"

	"github.com/gotk-dev/gotk/core/host"
)

// claudeFlags maps each Claude Code flag gotk reads (and its aliases) to a
// canonical name; "!" marks flags without a value.
var claudeFlags = map[string]string{
	"--allowedTools": "allow", "--allowed-tools": "allow",
	"--disallowedTools": "deny", "--disallowed-tools": "deny",
	"--settings":        "settings",
	"--setting-sources": "sources",
	"--add-dir":         "add-dir",
	"--permission-mode": "mode",
}

var claudeVariadic = map[string]bool{"allow": true, "deny": true, "add-dir": true}

// parseFlags reads Claude Code's permission flags (code.claude.com/docs
// cli-reference): --allowedTools/--disallowedTools take rule lists
// ("Bash(git log:*) Edit", comma or space separated), --settings a file or
// inline JSON, --setting-sources which of user/project/local load,
// --add-dir working directories, --permission-mode and
// --dangerously-skip-permissions the mode.
func parseFlags(argv []string) host.Session {
	var s host.Session
	v := host.FlagValues(argv, claudeFlags, claudeVariadic)
	for _, x := range v["allow"] {
		s.Rules.Allow = append(s.Rules.Allow, SplitTools(x)...)
	}
	for _, x := range v["deny"] {
		s.Rules.Deny = append(s.Rules.Deny, SplitTools(x)...)
	}
	s.Rules.Settings = v["settings"]
	if src, ok := v["sources"]; ok && len(src) > 0 {
		s.Rules.Sources = []string{}
		for _, x := range src {
			for _, f := range strings.Split(x, ",") {
				if f = strings.TrimSpace(f); f != "" {
					s.Rules.Sources = append(s.Rules.Sources, f)
				}
			}
		}
	}
	s.Rules.Dirs = v["add-dir"]
	if m := v["mode"]; len(m) > 0 {
		s.Mode = m[len(m)-1]
	}
	for _, a := range argv[1:] {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(a, "=")
		switch name {
		case "--dangerously-skip-permissions":
			s.Mode = "bypassPermissions"
		case "--initialize-fields", "--managed-settings-in-initialize", "--await-claim",
			"--managed-settings", "--project-config-root":
			// The Agent SDK hands settings, disallowed tools or managed
			// settings over stdin (its *Delivery: "initialize" options, a
			// prewarmed process claimed later), passes managed settings
			// inline, or moves the project's settings to another checkout:
			// rules gotk does not see or place decide.
			s.Unreadable = true
		}
	}
	return s
}

// SplitTools splits a tool list on commas and spaces outside parentheses:
// "Bash(git log:*) Edit,Read" → [Bash(git log:*) Edit Read].
func SplitTools(s string) []string {
	var out []string
	depth, start := 0, -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, s[start:end])
			start = -1
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(':
			depth++
		case c == ')':
			if depth > 0 {
				depth--
			}
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n'):
			flush(i)
			continue
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(s))
	return out
}
