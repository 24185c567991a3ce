//go:build unix

package hookiotest

import (
	"os"
	"path/filepath"
	"syscall"
)

// underAgent re-executes the test binary with argv[0] set to the agent's
// name, so the hooks it runs (as testscript commands, or timed by a
// benchmark) run as they do for real: as children of a process that is the
// agent, started without flags. A hook reads its agent's flags from the
// first such ancestor; with none, flags that deny may be in force unseen
// and it never allows. The hook commands themselves run as they are.
func underAgent(agent, binary string) {
	if agent == "" || os.Getenv("GOTK_TEST_UNDER_AGENT") != "" || filepath.Base(os.Args[0]) == binary {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	env := append(os.Environ(), "GOTK_TEST_UNDER_AGENT="+agent)
	_ = syscall.Exec(exe, append([]string{agent}, os.Args[1:]...), env) // returns only on failure: then run as is
}
