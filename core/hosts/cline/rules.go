package cline

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/permission"
)

// Load gives Cline CLI's built-in plan-mode guard. Cline approves per tool (run_commands as
// a whole), whatever the command, so it has no command rules to read. What
// it does check per command is built in: in plan mode a guard refuses every
// command that may change files (@cline/core 0.0.86, the
// core.plan-mode-command-guard hook) — and it runs AFTER the hook files, on
// the rewritten command, where `gotk git commit` is no longer `git commit`.
// The hook cannot tell plan from act mode (the payload does not say; the
// TUI switches modes at run time), so what the guard would refuse is never
// rewritten, in either mode: an ask rule here, and the host takes no
// rewrite of what an ask rule matches (host.Answers.NoAsk).
func Load(r *permission.Rules, env permission.Env) {
	r.Ask = append(r.Ask, permission.Rule{
		Pattern: "plan-mode guard",
		Raw:     "commands that may change files",
		Source:  "Cline's plan mode (built in)",
		Test:    clinePlanGuard,
	})
}

// clineWrappers are the words the guard looks through to find the program,
// each with its options and durations.
var clineWrappers = sync.OnceValue(func() map[string]bool {
	return set("sudo", "doas", "env", "command", "builtin", "nohup", "time", "nice", "stdbuf", "timeout", "xargs")
})

// clineWriters are the programs the guard refuses whatever their arguments.
var clineWriters = sync.OnceValue(func() map[string]bool {
	return set("rm", "rmdir", "unlink", "mv", "cp", "dd", "touch", "mkdir", "ln", "link", "chmod", "chown",
		"chgrp", "truncate", "shred", "install", "patch", "rsync", "mkfifo", "mknod", "del", "erase", "move", "ren",
		"rename", "md", "rd", "mklink", "copy", "xcopy", "robocopy", "new-item", "ni", "remove-item", "move-item",
		"copy-item", "rename-item", "set-content", "add-content", "clear-content", "out-file", "mi", "ri", "cpi", "rni",
		"ac", "clc", "tee")
})

// clineSubcommands are the programs the guard refuses with one of these
// subcommands (it looks at the first operand; any operand here).
var clineSubcommands = sync.OnceValue(func() map[string]map[string]bool {
	js := set("install", "i", "ci", "add", "remove", "rm", "uninstall", "unlink", "link", "update", "up", "upgrade", "dedupe", "prune", "publish")
	py := set("install", "uninstall", "add", "remove")
	sys := set("install", "reinstall", "remove", "purge", "uninstall", "upgrade", "autoremove", "add", "del")
	return map[string]map[string]bool{
		"git": set("add", "am", "apply", "checkout", "cherry-pick", "clean", "clone", "commit", "init", "merge", "mv", "pull",
			"push", "rebase", "reset", "restore", "revert", "rm", "stash", "submodule", "switch", "worktree"),
		"npm": js, "pnpm": js, "yarn": js, "bun": js,
		"pip": py, "pip3": py, "pipx": py, "uv": py,
		"cargo": set("add", "remove", "rm", "install", "uninstall", "update", "new", "init", "publish"),
		"apt":   sys, "apt-get": sys, "dnf": sys, "yum": sys, "apk": sys, "brew": sys, "snap": sys,
		"gem":      set("install", "uninstall", "update", "cleanup"),
		"composer": set("install", "require", "remove", "update"),
		"go":       set("install", "get"),
		"dotnet":   set("add", "remove"),
		"winget":   set("install", "uninstall", "upgrade"),
		"nuget":    set("install", "update", "delete", "push"),
	}
})

// The guard's tables and patterns are built on first use: most runs of
// gotk never ask about Cline, and each costs its start-up.
var (
	clineAssign = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_]*\+?=`)
	clinePython = lazyRegexp(`^python[\d.]*$`)
	clineInline = lazyRegexp(`^-[A-Za-z]*i(\..*)?$`)
)

func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// clinePlanGuard reports whether Cline's plan-mode guard may refuse the
// simple command cmd (words split on blanks, as the guard splits them). It
// errs towards yes: the guard's exceptions (`git stash list`, `git --help`,
// `wget --spider`, a `tee` into /tmp…) are not made.
func clinePlanGuard(cmd string) bool {
	w := strings.Fields(cmd)
	i := 0
	for i < len(w) && (clineAssign().MatchString(w[i]) || clineKeywords()[w[i]]) {
		i++
	}
	for i < len(w) && clineWrappers()[clineProgram(w[i])] {
		i++
		for i < len(w) && (strings.HasPrefix(w[i], "-") || w[i] == "{}" || clineAssign().MatchString(w[i]) || clineDuration().MatchString(w[i])) {
			i++
		}
	}
	if i >= len(w) {
		return false
	}
	prog, args := clineProgram(w[i]), w[i+1:]
	if clineWriters()[prog] {
		return true
	}
	lower := make([]string, len(args))
	for k, a := range args {
		lower[k] = strings.ToLower(strings.NewReplacer(`"`, "", `'`, "").Replace(a))
	}
	if subs, ok := clineSubcommands()[prog]; ok {
		if prog == "yarn" && len(args) == 0 {
			return true // yarn alone installs
		}
		for _, a := range lower {
			if subs[a] {
				return true
			}
		}
		return false
	}
	has := func(pred func(a string) bool) bool {
		for _, a := range lower {
			if pred(a) {
				return true
			}
		}
		return false
	}
	switch {
	case clinePython().MatchString(prog):
		return has(func(a string) bool { return a == "pip" || a == "pip3" })
	case prog == "sed" || prog == "gsed" || prog == "perl":
		return has(func(a string) bool { return clineInline().MatchString(a) || strings.HasPrefix(a, "--in-place") })
	case prog == "awk" || prog == "gawk" || prog == "nawk" || prog == "mawk":
		return has(func(a string) bool { return strings.Contains(a, "inplace") })
	case prog == "sort":
		return has(func(a string) bool { return strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "--output") })
	case prog == "curl":
		return has(func(a string) bool {
			return !strings.HasPrefix(a, "--") && strings.HasPrefix(a, "-") && strings.ContainsAny(a, "oO") ||
				strings.HasPrefix(a, "--output") || strings.HasPrefix(a, "--remote-name")
		})
	case prog == "wget":
		return true
	case prog == "find":
		return has(func(a string) bool {
			return a == "-delete" || a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir"
		})
	}
	return false
}

var clineKeywords = sync.OnceValue(func() map[string]bool {
	return set("if", "then", "else", "elif", "fi", "while", "until", "do", "done", "for", "case", "esac", "!", "{", "}")
})

var clineDuration = lazyRegexp(`^\d+[smhd]?$`)

// clineProgram is the guard's name for a program word: quotes removed, the
// last path element, lower case, without .exe.
func clineProgram(word string) string {
	word = strings.NewReplacer(`"`, "", `'`, "").Replace(word)
	word = path.Base(strings.ReplaceAll(word, `\`, "/"))
	return strings.TrimSuffix(strings.ToLower(word), ".exe")
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
