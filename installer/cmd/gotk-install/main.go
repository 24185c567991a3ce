// Command gotk-install puts gotk into coding agents' configuration and
// takes it out again: gotk-install --agent NAME [--global|--project]
// [--uninstall] [--dry-run] [--yes], gotk-install --all, gotk-install --list.
package main

import (
	"fmt"
	"os"

	"github.com/gotk-dev/gotk/core/version"
	"github.com/gotk-dev/gotk/installer/install"
)

func main() {
	install.Version = version.String() // the one version every gotk binary prints
	e, err := install.OSEnv()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gotk-install: %v\n", err)
		os.Exit(1)
	}
	os.Exit(install.Main(os.Args[1:], e))
}
