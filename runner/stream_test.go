package runner

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gotk-dev/gotk/runner/filter"
)

// The capture hands the tap what it held in several buffers a stream
// (its chunks), stdout's then stderr's: the stream compactor still sees
// every byte in arrival order, the same as from one buffer a stream, and
// not as when stderr came first.
func TestStreamTapChunks(t *testing.T) {
	var out1, out2, out3 bytes.Buffer
	for i := range 6000 {
		fmt.Fprintf(&out1, "first %05d of the output\n", i)
		fmt.Fprintf(&out2, "second %05d of the output\n", i)
		fmt.Fprintf(&out3, "third %05d of the output\n", i)
	}
	errLine := []byte("warning: in the middle\n")
	in := filter.Input{Argv: []string{"make"}, Recall: func() string { return "gotk recall abc123" },
		RecallLines: func(a, b int) string { return fmt.Sprintf("gotk recall abc123 --lines %d-%d", a, b) }}
	f := filter.For("read")
	render := func(stdout [][]byte, stderr [][]byte, errFirst bool) string {
		tap := newStreamTap(f, in, nil)
		if errFirst {
			tap.spoolWrite(1, errLine)
		}
		tap.spoolWrite(0, out1.Bytes())
		if !errFirst {
			tap.spoolWrite(1, errLine)
		}
		tap.spoolWrite(0, out2.Bytes())
		tap.spoolWrite(0, out3.Bytes()) // past the limit: not held
		for _, b := range stdout {
			tap.writer(0).Write(b)
		}
		for _, b := range stderr {
			tap.writer(1).Write(b)
		}
		tap.writer(0).Write(out3.Bytes())
		shown := tap.st.Render(in, "")
		return string(shown.Stdout) + "\x00" + string(shown.Stderr)
	}
	held := append(append([]byte{}, out1.Bytes()...), out2.Bytes()...)
	whole := render([][]byte{held}, [][]byte{errLine}, false)
	// Buffers that do not end where the writes did.
	for _, cut := range []int{1000, out1.Len(), out1.Len() + 7, len(held) - 1} {
		if got := render([][]byte{held[:cut], held[cut:]}, [][]byte{errLine}, false); got != whole {
			t.Fatalf("held stdout cut at %d: rendered\n%s\nwant\n%s", cut, got, whole)
		}
	}
	third := len(held) / 3
	if got := render([][]byte{held[:third], held[third : 2*third], held[2*third:]}, [][]byte{errLine[:5], errLine[5:]}, false); got != whole {
		t.Fatalf("three buffers: rendered\n%s\nwant\n%s", got, whole)
	}
	if errFirst := render([][]byte{held}, [][]byte{errLine}, true); errFirst == whole {
		t.Fatal("the order of arrival makes no difference to the rendering: the test shows nothing")
	}
}
