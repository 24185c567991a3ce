package gain

import (
	"github.com/gotk-dev/gotk/runner/store"
	"github.com/gotk-dev/gotk/runner/store/driver"
	"github.com/gotk-dev/gotk/runner/tokens"
	"github.com/gotk-dev/gotk/runner/tokens/o200k"
)

// The tests run with what gotk-report links.
func init() {
	store.UseDriver(driver.Code, driver.PersistWAL)
	tokens.Use(o200k.New)
}
