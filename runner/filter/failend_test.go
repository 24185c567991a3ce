package filter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/registry"
)

// TestFailureKeepsItsEnd: handed a long failing output of plain lines,
// every filter, built-in or declarative, shows its last line (where a
// failure says why it stopped); a cut names gotk recall.
func TestFailureKeepsItsEnd(t *testing.T) {
	var b strings.Builder
	for i := 1; i < 3000; i++ {
		fmt.Fprintf(&b, "step %d of the rollout went through node-%d\n", i, i%17)
	}
	b.WriteString("rollout stopped at step 3000: node-9 never became ready\n")
	last := "rollout stopped at step 3000: node-9 never became ready"
	seen := map[string]bool{}
	for _, r := range registry.Rules() {
		if seen[r.Handler] {
			continue
		}
		seen[r.Handler] = true
		t.Run(r.ID, func(t *testing.T) {
			argv := append([]string{r.Program}, strings.Fields(firstSub(r))...)
			f := For(r.Handler)
			in := Input{Argv: argv, RanArgv: f.Args(argv, 0), Stdout: []byte(b.String()), Exit: 3, Recall: func() string { return testRecall }}
			in.Combined = in.Stdout
			out, err := Render(f, in)
			if err != nil {
				return // the runner prints the raw output
			}
			got := string(out.Stdout) + string(out.Stderr)
			if !strings.Contains(got, last) {
				t.Errorf("%s: the failure's last line is gone:\n%s", r.Handler, tailOf(got, 5))
			}
		})
	}
}

func tailOf(s string, n int) string {
	ls := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], "\n")
}
