//go:build unix

package hookiotest

import (
	"os"
	"strings"
	"syscall"
)

// underAgent re-executes a benchmark run of the test binary with argv[0]
// set to the agent's name, so the hooks it times run as they do for real:
// as children of a process that is the agent (a hook reads its agent's
// flags from the first such ancestor; without it the walk goes up to
// init, which no real call does). Tests run as they are.
func underAgent(agent string) {
	if agent == "" || os.Getenv("GOTK_BENCH_UNDER_AGENT") != "" || !benchRun(os.Args[1:]) {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	env := append(os.Environ(), "GOTK_BENCH_UNDER_AGENT="+agent)
	_ = syscall.Exec(exe, append([]string{agent}, os.Args[1:]...), env) // returns only on failure: then run as is
}

// benchRun: the test binary was asked to run benchmarks.
func benchRun(args []string) bool {
	for i, a := range args {
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name != "test.bench" {
			continue
		}
		if !hasVal && i+1 < len(args) {
			val = args[i+1]
		}
		return val != ""
	}
	return false
}
