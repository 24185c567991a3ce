package runner

import "github.com/gotk-dev/gotk/runner/full"

// The tests (and the scenarios, whose gotk is the test binary) run with
// what gotk-report links; companion_test.go checks gotk without it.
func init() { full.Wire() }
