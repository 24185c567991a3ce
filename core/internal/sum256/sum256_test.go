package sum256

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestVectors: FIPS 180-4's examples, and every length around the block
// and padding boundaries against crypto/sha256.
func TestVectors(t *testing.T) {
	for in, want := range map[string]string{
		"":    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	} {
		if got := Sum([]byte(in)); hex.EncodeToString(got[:]) != want {
			t.Errorf("Sum(%q) = %x, want %s", in, got, want)
		}
	}
	for n := 0; n < 300; n++ {
		data := bytes.Repeat([]byte{byte(n)}, n)
		if got, want := Sum(data), sha256.Sum256(data); got != want {
			t.Fatalf("length %d: %x, crypto/sha256 %x", n, got, want)
		}
	}
}

func FuzzSum(f *testing.F) {
	f.Add([]byte("schema_version = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Sum(data), sha256.Sum256(data); got != want {
			t.Fatalf("%x, crypto/sha256 %x", got, want)
		}
	})
}
