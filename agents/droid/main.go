// Package droid is gotk-hook-droid (its main is cmd/gotk-hook-droid), Factory Droid's PreToolUse hook (matcher
// Execute, in ~/.factory/hooks.json): it answers with a token-saving
// rewrite of the shell command, or with nothing. See Handle.
//
// `gotk-hook-droid --command-regex` prints the regular expression for the
// hook entry's commandRegex, so that Droid calls the hook only for
// commands that name a program gotk may rewrite.
package droid

import (
	"fmt"
	droidhost "github.com/gotk-dev/gotk/core/hosts/droid"
	"os"

	"github.com/gotk-dev/gotk/core/hookio"
)

var agent = hookio.Agent{Name: "droid", Host: droidhost.Host, Handle: Handle}

// Main runs the hook on the process's stdin and stdout, and exits 0.
func Main() {
	if len(os.Args) == 2 && os.Args[1] == "--command-regex" {
		fmt.Println(CommandRegex())
		return
	}
	hookio.Main(agent)
}
