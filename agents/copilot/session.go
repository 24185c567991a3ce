package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Copilot CLI checks its tool permissions (--allow-tool, --deny-tool, its
// read-only auto-allow) against the MODIFIED arguments, and tells the hook
// nothing about them (measured in Copilot CLI 1.0.102: a `--deny-tool
// 'shell(git diff)'` did not stop `gotk git diff`). So the CLI dialect
// rewrites only when the session provably runs every shell command without
// asking and denies none: the copilot process was started with
// --allow-all-tools (or --allow-all / --yolo) and no --deny-tool. Anything
// else, or a session gotk cannot see, gets no answer.

// cliSession describes the Copilot CLI process that runs the hook.
type cliSession struct {
	found    bool // a copilot process was found among the hook's ancestors
	allowAll bool
	denies   int
}

// runsEverything: every shell command runs without asking, none is denied.
func (s cliSession) runsEverything() bool { return s.found && s.allowAll && s.denies == 0 }

// session finds the Copilot CLI session; tests replace it.
var session = func() cliSession { return procSession("/proc", os.Getppid()) }

// procSession walks up to eight ancestors from pid through a /proc file
// system, and reads the flags of the first that is Copilot CLI.
func procSession(proc string, pid int) cliSession {
	for i := 0; i < 8 && pid > 1; i++ {
		dir := filepath.Join(proc, strconv.Itoa(pid))
		raw, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil {
			return cliSession{}
		}
		argv := strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
		if isCopilot(argv) {
			return parseFlags(argv)
		}
		pid = parentOf(dir)
	}
	return cliSession{}
}

// isCopilot: the program, or the script node runs, is copilot.
func isCopilot(argv []string) bool {
	for i, a := range argv {
		if i > 1 {
			break
		}
		b := filepath.Base(a)
		if b == "copilot" || strings.Contains(a, "@github/copilot") {
			return true
		}
	}
	return false
}

func parseFlags(argv []string) cliSession {
	s := cliSession{found: true}
	for _, a := range argv {
		name, _, _ := strings.Cut(a, "=")
		switch name {
		case "--allow-all-tools", "--allow-all", "--yolo":
			s.allowAll = true
		case "--deny-tool", "--deny-url":
			s.denies++
		}
	}
	return s
}

// parentOf reads the parent pid from /proc/PID/stat (the field after the
// parenthesised command name, which may itself hold spaces).
func parentOf(dir string) int {
	raw, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return 0
	}
	s := string(raw)
	k := strings.LastIndexByte(s, ')')
	if k < 0 {
		return 0
	}
	f := strings.Fields(s[k+1:])
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}
