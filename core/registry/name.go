package registry

import "path"

// CommandName is how a report names a command line (`gotk gain`'s rows):
// the program as a person calls it, after any launcher, and the subcommand
// words its rule matched — "git status", "go test", "docker compose ps",
// "tsc" for `npx tsc --noEmit` — or the program alone when no rule has it.
// argv[0] is the program as typed; "" for an empty argv.
func CommandName(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	m, ok := Classify(argv)
	if !ok {
		return path.Base(argv[0])
	}
	prog, ok := ProgramName(argv[m.Tool])
	if !ok {
		prog = path.Base(argv[m.Tool])
	}
	operands := skipGlobals(prog, argv[m.Tool+1:])
	for _, s := range m.Rule.Sub {
		if hasSub(operands, []string{s}) {
			return prog + " " + s
		}
	}
	return prog
}
