// Command gotk-report is gotk with what gotk leaves out to start fast:
// SQLite, the o200k tokenizer and Codex's Starlark rules (runner.Companion).
// gotk runs it for `gotk gain`, `gotk recall`, `gotk discover` and Codex's
// rules; install it beside gotk.
package main

import (
	"os"

	"github.com/gotk-dev/gotk/runner"
	"github.com/gotk-dev/gotk/runner/full"
)

func main() {
	full.Wire()
	os.Exit(runner.MainAs(runner.Companion))
}
