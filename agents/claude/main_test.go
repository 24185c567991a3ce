package claude

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

func TestMain(m *testing.M) { hookiotest.Main(m, "gotk-hook-claude", Main) }

// TestScripts runs testdata/*.txtar against the real binary.
func TestScripts(t *testing.T) { hookiotest.Scripts(t) }

// FuzzHandle: any stdin → no panic, and stdout empty or a valid answer.
func FuzzHandle(f *testing.F) { hookiotest.Fuzz(f, agent, seeds, checkAnswer) }

// BenchmarkHook times the built binary on a typical payload against the
// `{}` floor (make bench).
func BenchmarkHook(b *testing.B) {
	hookiotest.Bench(b, "./cmd/gotk-hook-claude", []byte(seeds[0]))
}

// BenchmarkHook200Filters times the hook on a command that one of 200
// user filters (a global filters.toml) matches: the filters' match part
// comes from the cache after the first call (the target: at most 1.3x the
// floor, like the plain hook).
func BenchmarkHook200Filters(b *testing.B) {
	var f strings.Builder
	f.WriteString("schema_version = 1\n")
	for i := range 200 {
		fmt.Fprintf(&f, "\n[filters.tool%03d]\ndescription = \"private tool %d\"\nmatch_command = \"^tool%03d( |$)\"\nstrip_lines_matching = [\"^debug\", \"^\\\\s*$\"]\nmax_lines = 50\n\n[[tests.tool%03d]]\nname = \"t\"\ninput = \"debug\\nx\"\nexpected = \"x\"\n", i, i, i, i)
	}
	payload := strings.Replace(seeds[0], `"command":"git status"`, `"command":"tool150 --all"`, 1)
	hookiotest.BenchFiles(b, "./cmd/gotk-hook-claude", []byte(payload), map[string]string{".config/gotk/filters.toml": f.String()})
}

// TestStories runs the stories every hook shares (hookiotest/stories) on
// this hook, and generated bash through it.
func TestStories(t *testing.T) { hookiotest.Stories(t, agent, seeds[0], checkAnswer) }
