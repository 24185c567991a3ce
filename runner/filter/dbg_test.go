package filter
import ("testing";"fmt";"bytes";"sort";"github.com/gotk-dev/gotk/runner/window")
func TestDbgWin(t *testing.T) {
	type row struct{ n int; line, why string }
	var rows []row
	for _, s := range sessionLines(t) {
		if !s.rewritten || !bytes.Equal(s.got, s.rawWin) { continue }
		_, _, shown := render(s.c)
		why := "?"
		switch {
		case window.Lines(shown) > s.w.N: why = fmt.Sprintf("cut %d>%d", window.Lines(shown), s.w.N)
		case len(shown) > len(s.rawWin): why = fmt.Sprintf("bytes %d>%d", len(shown), len(s.rawWin))
		case !window.Holds(shown, s.rawWin): why = "facts"
		default: why = "represented"
		}
		rows = append(rows, row{len(s.rawWin), s.line, why})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].n > rows[j].n })
	for _, r := range rows[:40] { fmt.Println(r.n, r.why, r.line) }
}
