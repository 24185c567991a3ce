package host

import (
	"path/filepath"
	"slices"
	"strings"

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

// Flags is how gotk finds a host's process above its hook and reads the
// flags it was started with.
type Flags struct {
	// Is tells the host's process by its argv.
	Is func(argv []string) bool
	// Parse reads the flags that matter.
	Parse func(argv []string) Session
	// UnseenDenies: flags of this host that deny may be in force when its
	// process is not found (a launcher gotk does not know, a renamed
	// binary), so not finding it is "unsure", never "no flags".
	UnseenDenies bool
}

// ReadSession finds the agent process of d above pid and reads its flags.
// Hosts without flags that matter get an empty Session.
func ReadSession(d *Def, p Procs, pid int) Session {
	if d == nil || d.Flags == nil {
		return Session{}
	}
	argv, found, err := FindAncestor(p, pid, d.Flags.Is)
	if err != nil {
		return Session{Unreadable: true}
	}
	if !found {
		u := d.Flags.UnseenDenies
		return Session{Unreadable: u, Missing: u}
	}
	s := d.Flags.Parse(argv)
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
	// original an ask rule matches is not rewritten — nor one whose
	// rewrite an ask rule matches (`*--head*` meets `gotk --head 10 …`):
	// that prompt would be the rewrite's own.
	NoAsk bool
	// KeepAllowed: the host matches its allow rules on the rewritten
	// command (Gemini), so an original one of them allows is not rewritten
	// — the rewrite would take the user's allow away — nor one whose
	// rewrite only an allow rule matches (`run_shell_command(gotk)`): the
	// rewrite would run what the host would have asked about.
	KeepAllowed bool
	// KeepRuleAllowed: the host runs a command one of its allow rules
	// matches otherwise than the same command unmatched (Codex runs it
	// outside its sandbox), so an original a user allow rule matches is
	// not rewritten: `gotk X` would run sandboxed, where `git push` fails.
	KeepRuleAllowed bool
}

// IsProgram: the program, or the script an interpreter runs (node [its
// options] cli.js), is one of names or lives in one of pkgs (a package
// name, or a prefix of one: "@anthropic-ai/claude-agent-sdk" also holds
// "@anthropic-ai/claude-agent-sdk-linux-x64/claude").
func IsProgram(names []string, pkgs ...string) func([]string) bool {
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

// FlagValues reads commander.js-style options from argv: `--name value`,
// `--name=value`, and for variadic options every following argument up to
// the next one that starts with '-'. Names are compared after mapping each
// alias to its canonical name.
func FlagValues(argv []string, canonical map[string]string, variadic map[string]bool) map[string][]string {
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
