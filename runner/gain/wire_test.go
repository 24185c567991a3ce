package gain

import "github.com/gotk-dev/gotk/runner/full"

// The tests run with what gotk-report links.
func init() { full.Wire() }
