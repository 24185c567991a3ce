package main

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	in := `goos: linux
pkg: github.com/gotk-dev/gotk/agents/claude
BenchmarkHook-2   	     200	   6021861 ns/op	         1.340 floor-MiB	         2.905 floor-ms	         4.617 hook-MiB	         3.112 hook-ms	         1.071 x-floor
some table line
pkg: github.com/gotk-dev/gotk/runner
BenchmarkOverhead/git-status-2         	      20	         6.614 added-cpu-ms	         5.700 added-ms	         3.178 direct-ms	         8.878 gotk-ms	         2.794 x-direct
BenchmarkStream/cat-1000MB-2       	       1	         1.000 counts-exact	        15.93 peak-rss-MiB	        18.08 printed-KiB	      1000 raw-MB	         1.000 recall-exact	         1.15 x-raw
`
	var rest strings.Builder
	rs := parse(strings.NewReader(in), &rest)
	if len(rs) != 3 || rs[0].name != "BenchmarkHook" || rs[0].pkg != "github.com/gotk-dev/gotk/agents/claude" || rs[0].metrics["x-floor"] != 1.071 {
		t.Fatalf("results = %+v", rs)
	}
	if rs[1].name != "BenchmarkOverhead/git-status" || rs[1].metrics["added-ms"] != 5.7 {
		t.Fatalf("overhead = %+v", rs[1])
	}
	if rs[2].name != "BenchmarkStream/cat-1000MB" || rs[2].metrics["peak-rss-MiB"] != 15.93 || rs[2].metrics["recall-exact"] != 1 {
		t.Errorf("stream = %+v", rs[2])
	}
	if rest.String() != "some table line\n" {
		t.Errorf("passthrough = %q", rest.String())
	}
}

// TestSessionLinesSection: the session lines benchmark's metrics become
// the report's section, each against its target.
func TestSessionLinesSection(t *testing.T) {
	in := "pkg: github.com/gotk-dev/gotk/runner/filter\nBenchmarkSessionLines-2   \t       1\t  5060079082 ns/op\t  96.0 carried-%\t  40.5 received-%\t  100 facts-kept-%\n"
	out := report(strings.NewReader(in))
	for _, want := range []string{"== session lines", "carry 96.0% of the raw tokens (target ≥ 95%: met)", "receives 40.5% of raw (target ≤ 35%: missed)", "kept: 100.0% (target 100%: met)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}
