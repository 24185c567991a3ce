// Package full wires what gotk leaves out to start fast — SQLite, the
// o200k tokenizer and Codex's Starlark rules — into the binary that links
// it: gotk-report (runner.Companion), and the tests.
package full

import (
	_ "github.com/gotk-dev/gotk/core/execpolicy/register" // reads Codex's execpolicy files
	"github.com/gotk-dev/gotk/runner/store"
	"github.com/gotk-dev/gotk/runner/store/driver"
	"github.com/gotk-dev/gotk/runner/tokens"
	"github.com/gotk-dev/gotk/runner/tokens/o200k"
)

// Wire sets the SQLite driver and the tokenizer.
func Wire() {
	store.UseDriver(driver.Code, driver.PersistWAL)
	tokens.Use(o200k.New)
}
