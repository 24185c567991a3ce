package registry

// yarnWorkspace accepts `yarn workspace NAME CMD…` where CMD is one of the
// forms a plain yarn row takes (run, test, install, exec) and not a
// long-running one: the workspace only changes the directory the command
// runs in.
func yarnWorkspace(args []string) bool {
	ops := skipGlobals("yarn", args)
	if len(ops) < 3 || ops[0] != "workspace" || ops[1] == Unknown || ops[1] == "" || ops[1][0] == '-' {
		return false
	}
	switch ops[2] {
	case "run", "test", "install", "exec":
		return notLongRunning(ops[2:])
	}
	return false
}

// cargoFmtCheck accepts `cargo fmt --check` (also `cargo fmt -- --check`,
// rustfmt's own flag): the form that prints what it would change and
// changes nothing. A machine-readable emit mode is left alone.
func cargoFmtCheck(args []string) bool {
	check := false
	for _, a := range args {
		switch a {
		case Unknown:
			return false
		case "--check":
			check = true
		case "--message-format", "--emit":
			return false
		}
		if len(a) > 7 && (a[:7] == "--emit=" || (len(a) > 17 && a[:17] == "--message-format=")) {
			return false
		}
	}
	return check
}

// gitBlameAccept takes blame's default, human format; the machine formats
// (porcelain, incremental, annotate's -c) and -s, which drops the author
// and date the rendering groups by, are left alone.
func gitBlameAccept(args []string) bool {
	return noFlag("-p", "--porcelain", "--line-porcelain", "--incremental", "-c", "-s", "--score-debug")(args)
}

// gitGrepAccept takes git grep's match lines (file:line:text, as grep
// prints them); NUL-separated output, the pager and the function headers
// of -p/-W (file=line=text) are left alone.
func gitGrepAccept(args []string) bool {
	return noFlag("-z", "--null", "-O", "--open-files-in-pager", "-p", "--show-function", "-W", "--function-context", "--break")(args)
}

// gitGrepFlags: the `git grep` options Claude Code runs without asking
// (measured in 2.1.328, e2e/claude_readonly_test.go).
func gitGrepFlags() map[string]bool {
	return set("-n", "--line-number", "-i", "--ignore-case", "-l", "--files-with-matches", "-c", "--count", "-w",
		"--word-regexp", "-e", "-e VALUE", "-E", "--extended-regexp", "-F", "--fixed-strings", "--cached", "-h", "-v",
		"--no-index", "-A", "-A VALUE")
}

// gitLsFilesAccept takes the forms of git ls-files that print one path a
// line (not -s/--stage, -t tags, --format, -z, --eol…).
func gitLsFilesAccept(args []string) bool {
	ops := skipGlobals("git", args)
	if len(ops) == 0 {
		return false
	}
	i := len(args) - len(ops) + 1
	return onlyFlags(set("-c", "--cached", "-o", "--others", "-m", "--modified", "-d", "--deleted", "-i", "--ignored",
		"-k", "--killed", "--exclude-standard", "--directory", "--no-empty-directory", "--full-name", "--recurse-submodules",
		"--error-unmatch", "--deduplicate", "-x", "-x VALUE", "-X", "-X VALUE", "--exclude=", "--exclude-from=", "--exclude-per-directory="))(args[i:])
}

// goListAccept takes `go list` printing import paths or `path version`
// module lines, and `go mod graph`; a template (-f), JSON, or the build
// and test variants whose lines carry more than a path are left alone.
func goListAccept(args []string) bool {
	return noFlag("-f", "-json", "-export", "-compiled", "-test", "-find", "-x", "-toolexec")(args)
}
