package hookio

import (
	"runtime/debug"
	"strings"
)

// Version is the hook binaries' version, set at link time
// (-X github.com/gotk-dev/gotk/core/hookio.Version=…); when it is not, the
// build's own (a module version, or "dev" and the commit).
var Version = ""

// version returns Version or what the build knows.
func version() string {
	if Version != "" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && len(s.Value) >= 12:
			rev = s.Value[:12]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "-dirty"
		}
	}
	if rev == "" {
		return "dev"
	}
	return "dev (" + rev + dirty + ")"
}

// Info is a hook binary's answer to --version or --help (-h): one line of
// version, or a short usage. It never reads stdin: an agent passes no
// arguments, so these are a person (or `gotk doctor`) asking. ok is false
// for any other argument list, which the hook ignores.
func Info(a Agent, args []string) (text string, ok bool) {
	if len(args) != 1 {
		return "", false
	}
	name := "gotk-hook-" + a.Name
	switch args[0] {
	case "--version", "-version":
		return name + " " + version() + "\n", true
	case "--help", "-help", "-h":
		return strings.Join([]string{
			"Usage: " + name + " [--version | --help]",
			"",
			name + " is gotk's pre-tool hook for " + a.Name + ": the agent runs it before a shell",
			"command; it reads the agent's hook JSON on stdin (at most 1 MiB) and prints a",
			"token-saving rewrite of the command (`gotk <command>`) in the agent's dialect, or",
			"nothing. It always exits 0, and never blocks a command.",
			"",
			"Install it: gotk-install --agent " + a.Name + ". Check it: gotk verify, gotk doctor.",
			"Ask what it would do: gotk explain --host " + a.Name + " 'git status'.",
			"Environment: GOTK_DISABLED=1 (no rewrites), GOTK_HOOK_AUDIT=1 (log each decision",
			"to $XDG_DATA_HOME/gotk/hook-audit.log), GOTK_CONFIG (the config file).",
			"",
		}, "\n"), true
	}
	return "", false
}
