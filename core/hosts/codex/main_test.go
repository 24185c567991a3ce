package codex

import (
	"os"
	"testing"

	"github.com/gotk-dev/gotk/core/execpolicy"
)

// TestMain links Codex's execpolicy evaluator, as gotk-hook-codex and the
// gotk binary do (core/execpolicy/register).
func TestMain(m *testing.M) {
	EvalExecPolicy = execpolicy.Eval
	os.Exit(m.Run())
}
