package registry

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestTablePrograms: tablePrograms is exactly the table's programs,
// sorted; when it is not, the failure prints the list to paste.
func TestTablePrograms(t *testing.T) {
	var want []string
	for _, r := range table() {
		want = append(want, r.Program)
	}
	slices.Sort(want)
	want = slices.Compact(want)
	if !slices.Equal(tablePrograms[:], want) {
		var b strings.Builder
		for i, p := range want {
			if i%8 == 0 {
				b.WriteString("\n\t")
			} else {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%q,", p)
		}
		t.Fatalf("tablePrograms is out of date; in programs.go:\nvar tablePrograms = [...]string{%s\n}", b.String())
	}
}
