package filter

import (
	"slices"
	"strings"

	"github.com/gotk-dev/gotk/core/registry"
)

// This file holds the argv helpers Args implementations share. A filter
// adds a flag only when the user set none of the flags it would conflict
// with, and always right after the subcommand, so `--`, `-args` and
// pathspecs keep their meaning.

// toolArgs returns the arguments after the tool.
func toolArgs(argv []string, tool int) []string {
	if tool+1 > len(argv) {
		return nil
	}
	return argv[tool+1:]
}

// userHas reports whether the user's arguments carry one of flags (exactly,
// as --flag=value, or inside a short bundle), before any `--`.
func userHas(argv []string, tool int, flags ...string) bool {
	return registry.HasFlag(toolArgs(argv, tool), flags...)
}

// globalOpts are, per program gotk adds flags to, the global options that
// come before its subcommand: those that take a value as the next word
// (`git -C dir`, `go -C dir`) and those that stand alone. It is the
// registry's model of the same words (core/registry: skipGlobals), which
// TestArgvModelAgreesWithRegistry keeps in step: a form the registry
// classifies is one whose subcommand this finds.
var globalOpts = map[string]struct{ valued, flags []string }{
	"git": {
		valued: []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"},
		flags: []string{"--no-pager", "-P", "--paginate", "-p", "--no-optional-locks", "--literal-pathspecs",
			"--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-replace-objects", "--bare"},
	},
	"go": {valued: []string{"-C"}},
}

// subIndex is the index in argv of the program's subcommand when it is
// one of names, else -1. The program's global options before it are
// skipped with their values, so in `git -C status status` the subcommand
// is the second "status", never the directory named like it. An option
// the model does not know stops the search (-1): gotk then adds nothing.
func subIndex(argv []string, tool int, names ...string) int {
	if tool >= len(argv) {
		return -1
	}
	prog, _ := registry.ProgramName(argv[tool])
	g := globalOpts[prog]
	for i := tool + 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			return -1
		}
		if len(a) < 2 || a[0] != '-' {
			if slices.Contains(names, a) {
				return i
			}
			return -1
		}
		name, _, hasValue := strings.Cut(a, "=")
		switch {
		case slices.Contains(g.valued, name):
			if !hasValue {
				i++ // its value is the next word
			}
		case slices.Contains(g.flags, a):
		default:
			return -1
		}
	}
	return -1
}

// wordIndex is the index in argv of the first of names after the tool
// (before any `--`), or -1: for tools whose subcommand is several words
// (`uv pip list`).
func wordIndex(argv []string, tool int, names ...string) int {
	for i := tool + 1; i < len(argv); i++ {
		if argv[i] == "--" {
			return -1
		}
		if slices.Contains(names, argv[i]) {
			return i
		}
	}
	return -1
}

// subHas reports whether the arguments after the subcommand at index at
// carry one of flags (registry.HasFlag's rules): global options before
// the subcommand (`git -p log` is --paginate) are not the subcommand's.
func subHas(argv []string, at int, flags ...string) bool {
	return registry.HasFlag(argv[at+1:], flags...)
}

// insertAt returns a copy of argv with flags inserted before index at.
func insertAt(argv []string, at int, flags ...string) []string {
	out := make([]string, 0, len(argv)+len(flags))
	out = append(out, argv[:at]...)
	out = append(out, flags...)
	return append(out, argv[at:]...)
}

// same is the Args of filters that never add flags.
type same struct{}

// Args returns argv unchanged.
func (same) Args(argv []string, tool int) []string { return argv }

// writesFile are the options by which a command writes its report to a
// file instead of stdout (git's diff options --output=F, ruff and
// friends' -o/--output-file). A flag gotk adds would change what lands
// in that file, so such a command runs exactly as typed.
var writesFile = []string{"--output", "-o", "--output-file"}
