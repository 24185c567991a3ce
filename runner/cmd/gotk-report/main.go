// Command gotk-report is gotk with what gotk leaves out to start fast:
// SQLite, the o200k tokenizer and Codex's Starlark rules (runner.Companion).
// gotk runs it for `gotk gain`, `gotk recall`, `gotk discover` and Codex's
// rules; install it beside gotk.
package main

import (
	"os"

	_ "github.com/gotk-dev/gotk/core/execpolicy/register" // reads Codex's execpolicy files
	"github.com/gotk-dev/gotk/runner"
	"github.com/gotk-dev/gotk/runner/store"
	"github.com/gotk-dev/gotk/runner/store/driver"
	"github.com/gotk-dev/gotk/runner/tokens"
	"github.com/gotk-dev/gotk/runner/tokens/o200k"
)

func main() {
	store.UseDriver(driver.Code, driver.PersistWAL)
	tokens.Use(o200k.New)
	os.Exit(runner.MainAs(runner.Companion))
}
