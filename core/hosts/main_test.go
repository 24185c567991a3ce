package hosts

import (
	"os"
	"testing"

	"github.com/gotk-dev/gotk/core/execpolicy"
	"github.com/gotk-dev/gotk/core/hosts/codex"
)

// TestMain links Codex's execpolicy evaluator, as gotk-hook-codex and the
// gotk binary do (core/execpolicy/register).
func TestMain(m *testing.M) {
	codex.EvalExecPolicy = execpolicy.Eval
	os.Exit(m.Run())
}
