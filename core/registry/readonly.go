package registry

import "strings"

// readOnlyOther lists commands gotk does not rewrite but Claude Code runs
// without asking (measured in Claude Code 2.1.328 by
// e2e/claude_readonly_test.go). They matter for compound commands: in
// `git status && echo done` every part must be read-only for the rewrite to
// keep Claude's silent run. Each predicate is narrower than Claude where in
// doubt: asking too often is safe, allowing too much is not.
var readOnlyOther = []struct {
	program string
	sub     []string
	ok      func(args []string) bool
}{
	{"echo", nil, yes},
	{"printf", nil, noPrintfVar},
	{"pwd", nil, yes},
	{"true", nil, yes},
	{"false", nil, yes},
	{"cd", nil, yes},
	{"which", nil, claudeFlags(whichFlags, "which", true)},
	{"type", nil, yes},
	{"date", nil, dateReadOnly},
	{"whoami", nil, yes},
	{"id", nil, yes},
	{"uname", nil, yes},
	{"stat", nil, yes},
	{"file", nil, claudeFlags(fileFlags, "file", true)},
	{"du", nil, yes},
	{"df", nil, yes},
	{"basename", nil, yes},
	{"realpath", nil, yes},
	{"sort", nil, onlyFlags(set("-r"))},
	{"git", subs("rev-parse"), claudeFlags(revParseFlags, "git", true)},
	{"git", subs("remote"), func(args []string) bool { return len(args) == 1 && (args[0] == "-v" || args[0] == "--verbose") }},
	{"git", subs("tag"), func(args []string) bool {
		return len(args) == 0 || (len(args) <= 2 && (args[0] == "-l" || args[0] == "--list"))
	}},
}

// noPrintfVar: printf without -v, which assigns a shell variable (printf
// takes options only before its format).
func noPrintfVar(args []string) bool {
	for _, a := range args {
		if a == Unknown || strings.HasPrefix(a, "-v") {
			return false
		}
		if a == "--" || !strings.HasPrefix(a, "-") {
			return true
		}
	}
	return true
}

// otherReadOnly reports whether argv is one of readOnlyOther.
func otherReadOnly(argv []string) bool {
	args := argv[1:]
	for _, o := range readOnlyOther {
		if o.program != argv[0] {
			continue
		}
		if o.sub != nil {
			if !hasSub(args, o.sub) {
				continue
			}
			args = args[len(strings.Fields(o.sub[0])):]
		}
		return o.ok(args)
	}
	return false
}
