package plugins

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestEmbedded: every file is embedded byte for byte as it is in this
// folder (the embed is the file, not a copy of it).
func TestEmbedded(t *testing.T) {
	for _, name := range []string{OpenCode, Pi, OpenClaw, OpenClawManifest, HermesManifest, HermesPlugin, Rules} {
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(File(name), want) {
			t.Errorf("%s: embedded bytes differ from the file", name)
		}
	}
}

// TestSharedBlock: OpenCode's and OpenClaw's plugins and Pi's extension each
// install as one self-contained file, so the code that asks gotk is written
// in each; it is one block, byte for byte the same, between the >>> and <<<
// lines.
func TestSharedBlock(t *testing.T) {
	block := func(name string) string {
		s := string(File(name))
		const begin, end = "// >>> shared by opencode/gotk.ts, pi/gotk.ts and openclaw/gotk.ts", "// <<< shared\n"
		i, j := strings.Index(s, begin), strings.Index(s, end)
		if i < 0 || j < i || strings.Count(s, begin) != 1 || strings.Count(s, end) != 1 {
			t.Fatalf("%s: no single shared block (%q … %q)", name, begin, end)
		}
		return s[i : j+len(end)]
	}
	a := block(OpenCode)
	for _, other := range []string{Pi, OpenClaw} {
		sameBlock(t, OpenCode, a, other, block(other))
	}
	if n := strings.Count(a, "\n"); n < 80 {
		t.Errorf("the shared block is only %d lines; did a marker move?", n)
	}
}

// sameBlock fails t where file b's block differs from file a's.
func sameBlock(t *testing.T, nameA, a, nameB, b string) {
	t.Helper()
	if a != b {
		al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
		for i := range min(len(al), len(bl)) {
			if al[i] != bl[i] {
				t.Fatalf("the shared block differs at its line %d:\n%s: %s\n%s: %s", i+1, nameA, al[i], nameB, bl[i])
			}
		}
		t.Fatalf("%s and %s: the shared block differs in length: %d and %d lines", nameA, nameB, len(al), len(bl))
	}
}
