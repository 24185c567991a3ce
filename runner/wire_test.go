package runner

import (
	_ "github.com/gotk-dev/gotk/core/execpolicy/register"
	"github.com/gotk-dev/gotk/runner/store"
	"github.com/gotk-dev/gotk/runner/store/driver"
	"github.com/gotk-dev/gotk/runner/tokens"
	"github.com/gotk-dev/gotk/runner/tokens/o200k"
)

// The tests (and the scenarios, whose gotk is the test binary) run with
// what gotk-report links; companion_test.go checks gotk without it.
func init() {
	store.UseDriver(driver.Code, driver.PersistWAL)
	tokens.Use(o200k.New)
}
