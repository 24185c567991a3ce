package runner

import (
	"errors"
	"os"
	"os/exec"

	"github.com/gotk-dev/gotk/core/check"
	"github.com/gotk-dev/gotk/core/hosts/codex"
	"github.com/gotk-dev/gotk/runner/store"
	"github.com/gotk-dev/gotk/runner/tokens"
)

// Companion is the binary installed beside gotk that links what gotk
// leaves out to start fast: SQLite (the database the reports read), the
// o200k tokenizer and Codex's Starlark rules. Measured on this project's
// machine, their package initialisers cost more than half a bare Go
// process at every start — on every `gotk <program>`, which needs none of
// them. It is gotk in every other way (runner.Main with them wired); gotk
// hands it the commands that need them, with the same arguments, stdio and
// environment, and exits with its exit code.
const Companion = check.CompanionName

// needsCompanion reports whether this binary cannot run args itself.
func needsCompanion(args []string) bool {
	switch args[0] {
	case "recall", "gain", "discover", foldPending:
		return !store.Linked() || !tokens.Linked()
	case "rewrite", "explain":
		return codex.EvalExecPolicy == nil && codexHost(args[1:])
	}
	return false
}

// codexHost: rewrite's or explain's flags name Codex, whose rules are
// Starlark.
func codexHost(args []string) bool {
	for i, a := range args {
		if a == "--host=codex" || a == "--host" && i+1 < len(args) && args[i+1] == "codex" {
			return true
		}
	}
	return false
}

// companion runs args in the companion binary.
func (a *app) companion(args []string) int {
	path, err := findCompanion(os.Executable, exec.LookPath)
	if err != nil {
		return a.fail("`gotk %s` runs in %s, installed with gotk (make install, or go install …/runner/cmd/%s@VERSION): %v", args[0], Companion, Companion, err)
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, a.stdout, a.stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	}
	return a.fail("%s: %v", path, err)
}

// findCompanion finds gotk-report beside this executable (its real path),
// else on PATH.
func findCompanion(executable func() (string, error), lookPath func(string) (string, error)) (string, error) {
	exe, _ := executable()
	return check.Companion(exe, lookPath)
}
