package host

import (
	"sort"

	"github.com/gotk-dev/gotk/core/permission"
)

// Profile is what gotk knows about one host (agent) that decides how it
// answers: whose rule files apply and whether the host runs its own
// read-only commands without asking. Session flags (ReadSession), known-safe
// commands (KnownSafe) and the answer policy (AnswersOf) are keyed by the
// same Rules host. Hooks and `gotk rewrite/explain --host` read this one
// table.
type Profile struct {
	Name  string
	Rules permission.Host
	// ReadOnly: the host runs its read-only commands without asking,
	// inside its working directories (Claude Code).
	ReadOnly bool
}

// Profiles are the hosts gotk serves, by name.
var Profiles = map[string]Profile{
	"claude":   {"claude", permission.Claude, true},
	"cursor":   {"cursor", permission.Cursor, false},
	"gemini":   {"gemini", permission.Gemini, false},
	"copilot":  {"copilot", Copilot, false},
	"codex":    {"codex", permission.Codex, false},
	"vibe":     {"vibe", permission.Vibe, false},
	"opencode": {"opencode", permission.OpenCode, false},
	"pi":       {"pi", "pi", false},
	"hermes":   {"hermes", "hermes", false},
	// Cline CLI approves per tool (its run_commands tool as a whole),
	// whatever the command; its plan mode refuses commands that may change
	// files (permission.Cline).
	"cline": {"cline", permission.Cline, false},
	// Factory Droid: rules in settings.json, the model's risk level
	// against the session's autonomy (the hook's payload says both).
	"droid": {"droid", permission.Droid, false},
	// Kilo Code CLI (the OpenCode plugin, `gotk rewrite --host kilo`).
	"kilo": {"kilo", permission.Kilo, false},
	// Crush (charmbracelet): its read-only list and its shell's block list.
	"crush": {"crush", permission.Crush, false},
}

// Names lists the profiles' names, sorted.
func Names() []string {
	out := make([]string, 0, len(Profiles))
	for n := range Profiles {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
