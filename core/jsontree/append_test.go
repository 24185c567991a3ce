package jsontree

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzAppendString: AppendString writes exactly what encoding/json writes
// with HTML escaping off.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "git status", `a"b\c`, "tab\there\nnl\r\b\f\x00\x1f\x7f", "<&>", "é漢字🙂", "\u2028\u2029", "bad\xffutf8\xc3", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		if got := AppendString([]byte("x"), s); !bytes.Equal(got[1:], bytes.TrimSuffix(want.Bytes(), []byte("\n"))) || got[0] != 'x' {
			t.Fatalf("%q: %s, encoding/json %s", s, got[1:], want.Bytes())
		}
	})
}
