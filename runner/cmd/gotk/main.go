// Command gotk runs a command and prints a compact, faithful form of its
// output, keeping the program's exit code; it also hosts gotk's own
// commands (rewrite, explain, recall, gain, verify, doctor…). The program
// is package runner; this is its edge.
package main

import (
	"os"

	"github.com/gotk-dev/gotk/runner"
)

func main() { os.Exit(runner.Main()) }
