package host

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/permission"
)

// Session is what the agent's own command line adds to its configuration.
type Session struct {
	// Found: the agent's process was found above the hook.
	Found bool
	// Missing: no process of the host was found above the hook, whose
	// flags may deny (Unreadable is set too).
	Missing bool
	// Unreadable: flags that deny may be in force unseen — the process
	// table could not be read, the agent's process was not found above the
	// hook (a launcher gotk does not know), or its flags hand rules over
	// another channel; gotk then never answers allow.
	Unreadable bool
	// Rules are the permission rules and settings the flags add.
	Rules permission.Session
	// Mode is a permission mode set by a flag ("bypassPermissions" for
	// --dangerously-skip-permissions), or "".
	Mode string
	// AllowAll: Copilot CLI's --allow-all-tools (or --allow-all, --yolo),
	// Droid's --skip-permissions-unsafe.
	AllowAll bool
}

// ReadSession finds the agent process of host above pid and reads its
// flags. Hosts without flags that matter get an empty Session.
func ReadSession(h permission.Host, p Procs, pid int) Session {
	var is func([]string) bool
	var parse func([]string) Session
	// unseenDenies: flags of this host that deny may be in force when its
	// process is not found (a launcher gotk does not know, a renamed
	// binary), so not finding it is "unsure", never "no flags". Copilot
	// CLI is not among them: gotk allows there only on a flag it has seen
	// (--allow-all-tools), and VS Code's Copilot runs hooks with no CLI
	// above them at all.
	unseenDenies := true
	switch h {
	case permission.Claude:
		// The Agent SDK runs its bundled native binary (…/claude-agent-sdk-
		// linux-x64/claude) or, before 0.2, `node …/claude-agent-sdk/cli.js`.
		is, parse = isProgram([]string{"claude", "claude.exe"}, "@anthropic-ai/claude-code", "@anthropic-ai/claude-agent-sdk"), parseClaude
	case Copilot:
		is, parse, unseenDenies = isProgram([]string{"copilot"}, "@github/copilot"), parseCopilot, false
	case permission.Droid:
		is, parse = isProgram([]string{"droid"}, "@factory/cli"), parseDroid
	default:
		return Session{}
	}
	argv, found, err := FindAncestor(p, pid, is)
	if err != nil {
		return Session{Unreadable: true}
	}
	if !found {
		return Session{Unreadable: unseenDenies, Missing: unseenDenies}
	}
	s := parse(argv)
	s.Found = true
	return s
}

// Answers says which rewrites a host can take without losing a permission.
type Answers struct {
	// AllowOnly: the host accepts a rewrite only as an allow (Codex), so
	// an ask rewrite is no rewrite.
	AllowOnly bool
	// NoAsk: the host checks its rules on the REWRITTEN command, where an
	// ask rule of the original would no longer match (Vibe), so an
	// original an ask rule matches is not rewritten.
	NoAsk bool
	// KeepAllowed: the host matches its allow rules on the rewritten
	// command (Gemini), so an original one of them allows is not rewritten
	// — the rewrite would take the user's allow away.
	KeepAllowed bool
}

// AnswersOf returns host h's answer policy.
func AnswersOf(h permission.Host) Answers {
	switch h {
	case permission.Codex:
		return Answers{AllowOnly: true}
	case permission.Vibe:
		return Answers{NoAsk: true}
	case permission.Cline:
		// Cline's plan-mode guard checks the REWRITTEN command (an ask rule
		// of permission.Cline), where `gotk git commit` is no longer refused.
		return Answers{NoAsk: true}
	case permission.Kilo, permission.OpenCode:
		// Kilo (and OpenCode, its origin) matches its rules on the REWRITTEN command, and a plugin
		// cannot answer for it: no rewrite where any rule but a catch-all
		// matches (permission.Kilo).
		return Answers{NoAsk: true, KeepAllowed: true}
	case permission.Droid:
		// Droid checks its allow rules and its risk gate on the REWRITTEN
		// command, unless a hook allows it: a rewrite is an allow or nothing.
		return Answers{AllowOnly: true}
	case permission.Gemini:
		return Answers{KeepAllowed: true}
	}
	return Answers{}
}

// KnownSafe returns the host's own set of commands it runs without asking
// whatever its approval policy — Codex's is_known_safe_command — or nil.
// It applies where no rule of the host matched. alone is false where the
// host runs cmd without asking on a check that did not see all of it
// (Crush's text check of a line bash runs as two commands): gotk then
// steps aside and the host decides on the original.
func KnownSafe(h permission.Host) func(cmd string) (safe, alone bool) {
	sure := func(f func(string) bool) func(string) (bool, bool) {
		return func(cmd string) (bool, bool) { return f(cmd), true }
	}
	switch h {
	case permission.Codex:
		return sure(CodexKnownSafe)
	case permission.Droid:
		return sure(DroidKnownSafe)
	case permission.Crush:
		return CrushSafeAlone
	}
	return nil
}

// Copilot is Copilot CLI's host name (it has no rule files gotk reads).
const Copilot permission.Host = "copilot"

// isProgram: the program, or the script an interpreter runs (node [its
// options] cli.js), is one of names or lives in one of pkgs (a package
// name, or a prefix of one: "@anthropic-ai/claude-agent-sdk" also holds
// "@anthropic-ai/claude-agent-sdk-linux-x64/claude").
func isProgram(names []string, pkgs ...string) func([]string) bool {
	return func(argv []string) bool {
		for i, a := range argv {
			if i > 0 && strings.HasPrefix(a, "-") {
				// an interpreter's own option (node --max-old-space-size=…);
				// one taking a separate value hides the script, and an
				// agent not found is unsure, not unflagged
				continue
			}
			if slices.Contains(names, filepath.Base(a)) {
				return true
			}
			for _, pkg := range pkgs {
				if strings.Contains(a, pkg+"/") || strings.Contains(a, pkg+`\`) {
					return true
				}
			}
			if i > 0 || !isInterpreter(filepath.Base(a)) {
				break
			}
		}
		return false
	}
}

// isInterpreter: a program that runs its first argument as a script.
func isInterpreter(base string) bool {
	switch base {
	case "node", "nodejs", "bun", "deno", "sh", "bash", "dash", "zsh":
		return true
	}
	return strings.HasPrefix(base, "node")
}

// flagValues reads commander.js-style options from argv: `--name value`,
// `--name=value`, and for variadic options every following argument up to
// the next one that starts with '-'. Names are compared after mapping each
// alias to its canonical name.
func flagValues(argv []string, canonical map[string]string, variadic map[string]bool) map[string][]string {
	out := map[string][]string{}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		c, ok := canonical[name]
		if !ok {
			continue
		}
		if hasVal {
			out[c] = append(out[c], val)
			continue
		}
		if variadic[c] {
			for i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "-") {
				i++
				out[c] = append(out[c], argv[i])
			}
			if _, seen := out[c]; !seen {
				out[c] = []string{}
			}
			continue
		}
		if i+1 < len(argv) {
			i++
			out[c] = append(out[c], argv[i])
		}
	}
	return out
}

// claudeFlags maps each Claude Code flag gotk reads (and its aliases) to a
// canonical name; "!" marks flags without a value.
var claudeFlags = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"--allowedTools": "allow", "--allowed-tools": "allow",
		"--disallowedTools": "deny", "--disallowed-tools": "deny",
		"--settings":        "settings",
		"--setting-sources": "sources",
		"--add-dir":         "add-dir",
		"--permission-mode": "mode",
	}
})

var claudeVariadic = sync.OnceValue(func() map[string]bool { return map[string]bool{"allow": true, "deny": true, "add-dir": true} })

// parseClaude reads Claude Code's permission flags (code.claude.com/docs
// cli-reference): --allowedTools/--disallowedTools take rule lists
// ("Bash(git log:*) Edit", comma or space separated), --settings a file or
// inline JSON, --setting-sources which of user/project/local load,
// --add-dir working directories, --permission-mode and
// --dangerously-skip-permissions the mode.
func parseClaude(argv []string) Session {
	var s Session
	v := flagValues(argv, claudeFlags(), claudeVariadic())
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

// parseCopilot reads Copilot CLI's --allow-all-tools (--allow-all,
// --yolo) and counts --deny-tool / --deny-url as deny rules gotk cannot
// apply itself.
func parseCopilot(argv []string) Session {
	var s Session
	for _, a := range argv[1:] {
		name, val, _ := strings.Cut(a, "=")
		switch name {
		case "--allow-all-tools", "--allow-all", "--yolo":
			s.AllowAll = true
		case "--deny-tool", "--deny-url":
			s.Rules.Deny = append(s.Rules.Deny, val)
		}
	}
	return s
}

// parseDroid reads Factory Droid's --skip-permissions-unsafe (every
// command runs without asking; its blocklist still applies) and --settings
// (a runtime settings file whose rules permission.Droid reads).
func parseDroid(argv []string) Session {
	var s Session
	v := flagValues(argv, map[string]string{"--settings": "settings"}, nil)
	s.Rules.Settings = v["settings"]
	for _, a := range argv[1:] {
		if a == "--" {
			break
		}
		if a == "--skip-permissions-unsafe" {
			s.AllowAll = true
		}
	}
	return s
}
