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
