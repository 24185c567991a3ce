package auggie

import (
	"testing"

	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

func TestMain(m *testing.M) { hookiotest.Main(m, "gotk-hook-auggie", Main) }

// TestScripts runs testdata/*.txtar against the real binary.
func TestScripts(t *testing.T) { hookiotest.Scripts(t) }

// FuzzHandle: any stdin → no panic, and stdout empty or a valid answer.
func FuzzHandle(f *testing.F) { hookiotest.Fuzz(f, agent, seeds, checkAnswer) }

// BenchmarkHook times the built binary on a typical payload against the
// `{}` floor (make bench).
func BenchmarkHook(b *testing.B) {
	hookiotest.Bench(b, "./cmd/gotk-hook-auggie", []byte(seeds[0]))
}

// TestStories runs the stories every hook shares (hookiotest/stories) on
// this hook, and generated bash through it.
func TestStories(t *testing.T) { hookiotest.Stories(t, agent, seeds[0], checkAnswer) }
