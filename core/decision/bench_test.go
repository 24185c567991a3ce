package decision

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/gotk-dev/gotk/core/config"
)

// corpus reads testdata/commands.jsonl: realistic agent commands, one JSON
// string per line (compounds, pipes, heredocs, substitutions included).
func corpus(tb testing.TB) []string {
	f, err := os.Open("testdata/commands.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var s string
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			tb.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func TestCorpus(t *testing.T) {
	cmds := corpus(t)
	if len(cmds) < 1000 {
		t.Fatalf("corpus has %d commands, want ≥ 1000", len(cmds))
	}
	e := newEngine(t, "", config.Config{})
	counts := map[Verdict]int{}
	for _, c := range cmds {
		counts[e.Decide(Request{Command: c, ReadOnlyAutoAllow: true}).Verdict]++
	}
	// The corpus mixes rewritable and untouchable commands; both must occur.
	if counts[AllowRewrite] == 0 || counts[AskRewrite] == 0 || counts[Passthrough] == 0 {
		t.Errorf("verdicts over the corpus: %v", counts)
	}
	t.Logf("verdicts over %d commands: allow %d, ask %d, passthrough %d", len(cmds), counts[AllowRewrite], counts[AskRewrite], counts[Passthrough])
}

// BenchmarkDecide reports decisions per second on one core over the corpus
// (target ≥ 100,000/s) and allocations per decision.
func BenchmarkDecide(b *testing.B) {
	cmds := corpus(b)
	e := newEngine(b, `{"permissions":{"allow":["Bash(npm test)","Bash(go test *)"],"deny":["Bash(curl *)"]}}`, config.Config{})
	e.Decide(Request{Command: "warm up"})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Decide(Request{Command: cmds[i%len(cmds)], ReadOnlyAutoAllow: true})
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}
