package codex

import (
	"strings"

	"github.com/gotk-dev/gotk/core/host"
)

// KnownSafe mirrors Codex's is_known_safe_command
// (openai/codex codex-rs/shell-command/src/command_safety/is_safe_command.rs,
// read at 226bd15): a script of plain commands — literal or quoted words
// only, joined by &&, ||, ; or | — each of which is on Codex's safe list.
// gotk allows (and so rewrites) only these, plus what an allow rule or
// a mode that runs everything covers. The list is narrower than what
// Codex runs unasked: under the on-request policy it runs most commands
// in its sandbox without asking (git status too), and upstream retired
// this function with the untrusted policy (#39630), so an unmatched
// command there either runs sandboxed or prompts. The payload carries no
// sandbox or policy, so gotk keeps to the list: a command missing from it
// only goes unrewritten, and the port leaves out (narrower still) base64,
// sed -n Np, numfmt, tac and path-qualified programs such as /bin/ls.
func KnownSafe(cmd string) bool {
	cmds, ok := host.PlainCommands(cmd, host.PlainWord)
	if !ok {
		return false
	}
	for _, argv := range cmds {
		if !safeArgv(argv) {
			return false
		}
	}
	return true
}

// alwaysSafe are the programs Codex runs without asking whatever their
// arguments (numfmt and tac only on Linux, so not here).
var alwaysSafe = map[string]bool{
	"cat": true, "cd": true, "cut": true, "echo": true, "expr": true, "false": true, "grep": true,
	"head": true, "id": true, "ls": true, "nl": true, "paste": true, "pwd": true, "rev": true,
	"seq": true, "stat": true, "tail": true, "tr": true, "true": true, "uname": true, "uniq": true,
	"wc": true, "which": true, "whoami": true,
}

// unsafeFlags are the arguments that make find and rg need approval.
var unsafeFlags = map[string][]string{
	"find": {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"},
	"rg":   {"--pre", "--hostname-bin", "--search-zip", "-z"},
}

func safeArgv(argv []string) bool {
	prog := argv[0]
	if alwaysSafe[prog] {
		return true
	}
	bad, ok := unsafeFlags[prog]
	if !ok {
		return false // git, sed, base64… are not rewritten by gotk or need approval
	}
	for _, a := range argv[1:] {
		for _, f := range bad {
			if a == f || strings.HasPrefix(a, f+"=") {
				return false
			}
		}
	}
	return true
}
