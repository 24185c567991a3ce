package claude

// acceptEditsRuns are the programs Claude Code's acceptEdits mode runs
// without asking, the first word of each command (its Bash tool's mode
// check; code.claude.com/docs permission-modes: "mkdir, touch, rm, rmdir,
// mv, cp, and sed"), within path limits gotk does not model.
var acceptEditsRuns = []string{"mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"}

// ModeMayRun returns the programs the permission mode may run without
// asking beyond Claude's read-only set (decision.Request.ModeMayRun).
func ModeMayRun(mode string) []string {
	if mode == "acceptEdits" {
		return acceptEditsRuns
	}
	return nil
}
