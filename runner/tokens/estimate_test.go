package tokens

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestEstimatePricesPieces(t *testing.T) {
	for _, c := range []struct {
		text string
		want int // o200k_base's count
	}{
		{"────────────────", 1},
		{"1234567890", 4},
		{"a,b,c,d", 4},
		{"TypeString(int, false) mismatch:", 8},
		{"        x", 2},
	} {
		if got := Estimate([]byte(c.text)); got != c.want {
			t.Errorf("Estimate(%q) = %d, o200k says %d", c.text, got, c.want)
		}
	}
}

// TestFewerByTokensNotBytes: a rule of box-drawing characters is many
// bytes and few tokens; a compact form with fewer bytes but more words is
// not fewer.
func TestFewerByTokensNotBytes(t *testing.T) {
	raw := []byte("  3) [webkit] › tests/cart.spec.ts:15:5 › cart " + strings.Repeat("─", 120) + "\n")
	shown := []byte("  3) [webkit] tests/cart.spec.ts:15:5 cart applies a coupon (5.4s) retry 1 of 2\n")
	if len(shown) >= len(raw) {
		t.Fatalf("the example needs fewer bytes: %d, raw %d", len(shown), len(raw))
	}
	if Fewer([][]byte{shown}, [][]byte{raw}) {
		t.Errorf("Fewer: %d estimated tokens printed for %d raw", Estimate(shown), Estimate(raw))
	}
	if !Fewer([][]byte{[]byte("ok 12 packages\n")}, [][]byte{raw}) {
		t.Error("a short summary is fewer")
	}
	if Fewer([][]byte{nil}, [][]byte{nil}) {
		t.Error("nothing is not fewer than nothing")
	}
}

// TestFewerReadsAsFarAsItNeeds: stopping early gives the answer the whole
// count gives, however the parts are split.
func TestFewerReadsAsFarAsItNeeds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"word ", "  ", "12345", "\n", "────", "::", "path/to/file.go:12:3 ", "\t", "Éé ", "x"}
	gen := func(n int) []byte {
		var b bytes.Buffer
		for range n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.Bytes()
	}
	for range 2000 {
		shown, raw := gen(r.IntN(40)), gen(r.IntN(60))
		cut := r.IntN(len(raw) + 1)
		for cut > 0 && cut < len(raw) && raw[cut] != '\n' { // a boundary a piece cannot cross
			cut--
		}
		// the parts counted whole, each (a piece never spans two parts)
		s, r := Estimate(shown), Estimate(raw[:cut])+Estimate(raw[cut:])
		want := len(shown) < len(raw) && 20*s <= 19*r && s+minSaved <= r
		if got := Fewer([][]byte{shown}, [][]byte{raw[:cut], raw[cut:]}); got != want {
			t.Fatalf("Fewer(%q, %q split at %d) = %v, the whole count says %v", shown, raw, cut, got, want)
		}
	}
}

func BenchmarkEstimate(b *testing.B) {
	text := bytes.Repeat([]byte("    src/app/cart.ts:21:51 error  Expected '===' and instead saw '=='  eqeqeq\n"), 1<<14)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Estimate(text)
	}
}

// A few tokens are within the estimate's error: a window of two lines
// replaced by a one-line note is not fewer, though 5% is.
func TestFewerByAFewTokens(t *testing.T) {
	raw := []byte("yamllint.................................................................Passed\nno trailing whitespace...................................................Passed\n")
	shown := []byte("… 29 more lines to fit tail -2 (gotk recall TEST01)\n\n")
	if s, r := Estimate(shown), Estimate(raw); 20*s > 19*r || s+minSaved <= r {
		t.Fatalf("the case moved: estimates %d and %d", s, r)
	}
	if Fewer([][]byte{shown}, [][]byte{raw}) {
		t.Error("fewer by less than the estimate's error")
	}
}
