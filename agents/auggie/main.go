// Package auggie is gotk-hook-auggie (its main is cmd/gotk-hook-auggie),
// the PreToolUse hook of Augment's Auggie CLI (matcher ^launch-process$, in
// ~/.augment/settings.json): it answers with a token-saving rewrite of the
// shell command, or with nothing. See Handle.
package auggie

import (
	auggiehost "github.com/gotk-dev/gotk/core/hosts/auggie"

	"github.com/gotk-dev/gotk/core/hookio"
)

// Auggie runs launch-process in its own shell, whose PATH may not be the
// hook's: the rewrite names gotk by absolute path.
var agent = hookio.Agent{Name: "auggie", Host: auggiehost.Host, AbsoluteGotk: true, Handle: Handle}

// Main runs the hook on the process's stdin and stdout, and exits 0.
func Main() { hookio.Main(agent) }
