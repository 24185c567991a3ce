package window

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestKeeperIsTheWindow: whatever the pieces, the keeper's window is the
// window of the whole output, or says it is not known (only when the
// window's lines take more than its bytes).
func TestKeeperIsTheWindow(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 3000; i++ {
		var out bytes.Buffer
		for n := r.IntN(300); n > 0; n-- {
			fmt.Fprintf(&out, "%s", bytes.Repeat([]byte{'a' + byte(r.IntN(26))}, r.IntN(40)))
			if r.IntN(5) > 0 {
				out.WriteByte('\n')
			}
		}
		w := Window{Tail: r.IntN(2) == 0, N: 1 + r.IntN(40)}
		max := 1 + r.IntN(2000)
		k := NewKeeper(w, max)
		b := out.Bytes()
		for len(b) > 0 {
			n := min(len(b), 1+r.IntN(200))
			if got, err := k.Write(b[:n]); got != n || err != nil {
				t.Fatalf("Write = %d, %v", got, err)
			}
			b = b[n:]
		}
		want := w.Apply(out.Bytes())
		got, exact := k.Window()
		if exact && !bytes.Equal(got, want) {
			t.Fatalf("window %+v, max %d: kept %q, want %q", w, max, got, want)
		}
		if !exact && len(want) < max {
			t.Fatalf("window %+v of %d bytes not kept within %d", w, len(want), max)
		}
	}
}
