package gemini

import (
	"path/filepath"
	"strings"

	"github.com/gotk-dev/gotk/core/permission"
)

// Gemini CLI (0.61.0, packages/core/src/policy/policy-engine.ts
// applyShellHeuristics) overrides its rules' answer for a shell command
// with an ask in two cases it decides on the command's first word, so
// `gotk …` would slip past both:
//   - a git command in a folder it does not trust (containsGitCommand),
//     even under --yolo;
//   - a command it calls dangerous (sandbox commandSafety.ts
//     isDangerousCommand: ln -s, rm -f/-rf/-fr, find -exec/-delete/-fprint…,
//     rg --pre/--hostname-bin/-z/--search-zip, git -c/--config-env or a
//     read-only git subcommand with --output/--ext-diff/--textconv/--exec/
//     --paginate or a branch that is not a listing, base64 -o; behind sudo).
// gotk does not model the folder trust list, nor the approval mode: for
// Gemini it rewrites no git command unless the folder is trusted for sure,
// and no dangerous command at all. Both are deny rules above every tier,
// so gotk steps aside and Gemini decides.

// geminiStepAside is the priority of those rules: above any policy tier.
const geminiStepAside = 10

func geminiHeuristicRules(trusted bool) []permission.Rule {
	out := []permission.Rule{{Pattern: "dangerous", Raw: "a command Gemini calls dangerous",
		Source: "Gemini CLI's shell heuristics (it asks; behind gotk it would not see the command)", Priority: geminiStepAside,
		Test: func(cmd string) bool { return geminiDangerous(geminiWords(cmd)) }}}
	if !trusted {
		out = append(out, permission.Rule{Pattern: "git", Raw: "git in a folder Gemini may not trust",
			Source: "Gemini CLI's folder trust (it asks before git in an untrusted folder)", Priority: geminiStepAside,
			Test: func(cmd string) bool {
				for _, w := range geminiWords(cmd) {
					if b := strings.ToLower(filepath.Base(w)); b == "git" || b == "git.exe" {
						return true
					}
				}
				return false
			}})
	}
	return out
}

func geminiWords(cmd string) []string {
	w := strings.Fields(cmd)
	for i := range w {
		w[i] = strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(w[i])
	}
	return w
}

// geminiDangerous is isDangerousCommand, transcribed.
func geminiDangerous(args []string) bool {
	if len(args) == 0 {
		return false
	}
	some := func(from int, f func(string) bool) bool {
		for _, a := range args[from:] {
			if f(a) {
				return true
			}
		}
		return false
	}
	switch cmd := args[0]; {
	case cmd == "ln":
		return some(0, func(a string) bool {
			return a == "-s" || a == "--symbolic" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "s")
		})
	case cmd == "rm":
		return len(args) > 1 && (args[1] == "-f" || args[1] == "-rf" || args[1] == "-fr")
	case cmd == "sudo":
		return geminiDangerous(args[1:])
	case cmd == "find":
		return some(0, func(a string) bool {
			switch a {
			case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf":
				return true
			}
			return false
		})
	case filepath.Base(cmd) == "rg" || filepath.Base(cmd) == "rg.exe":
		return some(0, func(a string) bool {
			return a == "--search-zip" || a == "-z" || a == "--pre" || strings.HasPrefix(a, "--pre=") ||
				a == "--hostname-bin" || strings.HasPrefix(a, "--hostname-bin=")
		})
	case cmd == "git":
		if some(0, func(a string) bool {
			return a == "-c" || a == "--config-env" || strings.HasPrefix(a, "-c") && len(a) > 2 || strings.HasPrefix(a, "--config-env=")
		}) {
			return true
		}
		// findGitSubcommand: the first of these words; a conservative
		// reading of where it stands (any position).
		for i, a := range args[1:] {
			switch a {
			case "status", "log", "diff", "show", "branch":
				rest := args[i+2:]
				if !geminiGitReadOnly(rest) {
					return true
				}
				return a == "branch" && !geminiBranchReadOnly(rest)
			}
		}
		return false
	case cmd == "base64":
		return some(1, func(a string) bool {
			return a == "-o" || a == "--output" || strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "-o") && a != "-o"
		})
	}
	return false
}

func geminiGitReadOnly(args []string) bool {
	for _, a := range args {
		switch a {
		case "--output", "--ext-diff", "--textconv", "--exec", "--paginate":
			return false
		}
		if strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "--exec=") {
			return false
		}
	}
	return true
}

func geminiBranchReadOnly(args []string) bool {
	if len(args) == 0 {
		return true
	}
	saw := false
	for _, a := range args {
		switch a {
		case "--list", "-l", "--show-current", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose":
			saw = true
		default:
			if !strings.HasPrefix(a, "--format=") {
				return false
			}
			saw = true
		}
	}
	return saw
}
