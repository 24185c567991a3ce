package filter

import (
	"fmt"
	"strings"
	"testing"
)

// TestFoldBlocks: a long periodic cycle folds to its first and last
// occurrence with a recall note; a short one, or one holding an error
// line, stays whole.
func TestFoldBlocks(t *testing.T) {
	in := Input{Recall: func() string { return testRecall }}
	cycle := func(n int, second string) []string {
		var ll []string
		for i := range n {
			ll = append(ll, fmt.Sprintf("10:00:%02d poll queue", i), fmt.Sprintf("10:00:%02d %s %d", i, second, i*7))
		}
		return ll
	}
	long := foldBlocks(cycle(9, "processed in"), in)
	if len(long) != 5 || !strings.Contains(long[2], "recur 7 more times") || !strings.Contains(long[2], testRecall) {
		t.Errorf("long cycle:\n%s", strings.Join(long, "\n"))
	}
	if short := foldBlocks(cycle(blockRepeats-1, "processed in"), in); len(short) != 2*(blockRepeats-1) {
		t.Errorf("short cycle folded:\n%s", strings.Join(short, "\n"))
	}
	if bad := foldBlocks(cycle(9, "error: retry"), in); len(bad) != 18 {
		t.Errorf("cycle with an error line folded:\n%s", strings.Join(bad, "\n"))
	}
}

// TestDropSummaryRepeats: only lines already printed above the summary go.
func TestDropSummaryRepeats(t *testing.T) {
	ll := []string{"a.cs(1,2): error X", "b.cs(3,4): warning Y", "", "Build FAILED.", "", "a.cs(1,2): error X", "c.cs(5,6): error Z", "1 Error(s)"}
	got := strings.Join(dropSummaryRepeats(ll, dotnetSummary), "\n")
	want := "a.cs(1,2): error X\nb.cs(3,4): warning Y\n\nBuild FAILED.\n(1 line repeated from above not shown again)\n\nc.cs(5,6): error Z\n1 Error(s)"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
