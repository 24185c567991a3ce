package e2e

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	MaybeRunTestHook() // the test binary doubles as the phase-1 hook
	os.Exit(m.Run())
}
