package runner

import (
	"os"

	"github.com/gotk-dev/gotk/runner/proc"
)

// endLike settles how gotk ends after running a program: by the signal
// that ended the program, or by SIGPIPE when the program, printing
// rawStdout bytes itself, would have met a closed output pipe (proc.
// ClosedOutput). Main then dies of it (proc.Die) once everything is
// printed and recorded, so the shell sees the program's status, not an
// exit code that only reads like it.
func (a *app) endLike(res proc.Result, rawStdout int64) {
	if res.Died != nil {
		a.dieOf = res.Died
		return
	}
	if f, ok := a.stdout.(*os.File); ok {
		a.dieOf = proc.ClosedOutput(f, rawStdout)
	}
}

// end returns code, or does not return: gotk dies of the signal endLike
// settled on.
func (a *app) end(code int) int {
	if a.dieOf != nil {
		proc.Die(a.dieOf)
	}
	return code
}
