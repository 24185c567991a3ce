// Package runner is the gotk command (its main is cmd/gotk): gotk runs a
// command and prints a compact, faithful form of its output: `gotk git
// status` runs git status, asks the registry (core) which filter renders it,
// and prints what the filter makes of it, keeping the program's exit code. It also hosts the decision commands the hooks and
// plugins call (`gotk rewrite`, `gotk explain`) and the reports over what
// it recorded (`gotk gain`, `gotk recall`).
//
// This file is the edge: it wires the process's stdio and environment into
// the app; cmd/gotk exits with its code.
package runner

import (
	"os"
	"time"

	"github.com/gotk-dev/gotk/runner/filter"
)

// Main runs gotk with the process's arguments and environment and returns
// the exit code.
func Main() int { return MainAs("gotk") }

// MainAs is Main for the binary named name (its --version line): the
// companion runs MainAs(Companion).
func MainAs(name string) int {
	a := newApp()
	a.name = name
	return a.end(a.main(os.Args[1:]))
}

func newApp() *app {
	return &app{
		name:    "gotk",
		stdout:  os.Stdout,
		stderr:  os.Stderr,
		getenv:  os.Getenv,
		environ: os.Environ,
		getwd:   os.Getwd,
		now:     time.Now,
		filter:  filter.For,
	}
}
