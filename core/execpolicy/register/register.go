// Package register links Codex's execpolicy evaluator into a binary: a
// blank import of it is what lets core/hosts/codex read Codex's rules
// (gotk-hook-codex and the gotk binary import it; the other hooks do not
// carry a Starlark interpreter).
package register

import (
	"github.com/gotk-dev/gotk/core/execpolicy"
	"github.com/gotk-dev/gotk/core/hosts/codex"
)

func init() { codex.EvalExecPolicy = execpolicy.Eval }
