package filter

import (
	"os"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

func TestTokCount(t *testing.T) {
	enc, _ := tokenizer.Get(tokenizer.O200kBase)
	for _, f := range []string{"/tmp/tok/a", "/tmp/tok/b", "/tmp/tok/c", "/tmp/tok/d"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		ids, _, _ := enc.Encode(string(b))
		t.Logf("%s %d bytes %d tokens", f, len(b), len(ids))
	}
}
