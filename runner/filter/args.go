package filter

import (
	"slices"

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

// subIndex is the index in argv of the first of names after the tool, or
// -1. It skips nothing else: global options come before the subcommand and
// are not among names.
func subIndex(argv []string, tool int, names ...string) int {
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

// insertAt returns a copy of argv with flags inserted before index at.
func insertAt(argv []string, at int, flags ...string) []string {
	out := make([]string, 0, len(argv)+len(flags))
	out = append(out, argv[:at]...)
	out = append(out, flags...)
	return append(out, argv[at:]...)
}

// operandsAfter returns the non-option words after index at (before and
// after a `--`).
func operandsAfter(argv []string, at int) []string {
	var out []string
	dash := false
	for _, a := range argv[at+1:] {
		if !dash && a == "--" {
			dash = true
			continue
		}
		if dash || len(a) == 0 || a[0] != '-' || a == "-" {
			out = append(out, a)
		}
	}
	return out
}

// same is the Args of filters that never add flags.
type same struct{}

// Args returns argv unchanged.
func (same) Args(argv []string, tool int) []string { return argv }
