package filter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/runner/window"
)

// An agent's tail window of `pip list` has rows and no header: rendered
// over that window (Refit) the rows are name==version words as in the
// whole list, with no count of gotk's own; the whole list without its
// header is not a table pip printed, and stays as it came.
func TestPipListWindowRows(t *testing.T) {
	rows := "requests                  2.34.2\nresponses                 0.26.0\nrsa                       4.7.2\n"
	in := Input{Argv: []string{"pip", "list"}, Stdout: []byte(rows), Window: 3}
	out := pipList(in)
	if got, want := string(out.Stdout), "requests==2.34.2 responses==0.26.0 rsa==4.7.2\n"; got != want {
		t.Errorf("window rows: %q, want %q", got, want)
	}
	in.Window = 0
	if got := string(pipList(in).Stdout); got != rows {
		t.Errorf("rows without a header, no window: %q, want them as they came", got)
	}
	whole := "Package   Version\n--------- -------\n" + rows
	in.Stdout = []byte(whole)
	if got := string(pipList(in).Stdout); !strings.HasPrefix(got, "3 packages:\n") {
		t.Errorf("whole list: %q", got)
	}
	// and through Refit, as the runner does for a tail window
	var b strings.Builder
	b.WriteString("Package   Version\n--------- -------\n")
	for i := range 40 {
		fmt.Fprintf(&b, "package-%02d                %d.%d.0\n", i, i, i%7)
	}
	raw := []byte(b.String())
	w := window.Window{N: 16, Tail: true}
	got, ok := Refit(pip{}, Input{Argv: []string{"pip", "list"}, Stdout: raw, Recall: func() string { return "gotk recall abc123" }}, w, w.Apply(raw), nil, window.Lines(raw))
	if !ok || !strings.HasPrefix(string(got.Stdout), "package-24==24.3.0 package-25==25.4.0 ") || strings.Contains(string(got.Stdout), "packages:") {
		t.Errorf("refit of the tail window: %v %q", ok, got.Stdout)
	}
}
