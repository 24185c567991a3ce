package shelltest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
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
			echo := &syntax.Word{Parts: []syntax.WordPart{lit("echo")}}
			syntax.NewPrinter().Print(&b, &syntax.File{Stmts: []*syntax.Stmt{{Cmd: &syntax.CallExpr{Args: []*syntax.Word{echo, w}}}}})
			f, err := p.Parse(strings.NewReader(b.String()), "")
			if err != nil {
				t.Fatalf("%q: %v", b.String(), err)
			}
			got := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1].Lit()
			if q := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]; got == "" {
				_ = q // quoted forms have no plain Lit; checked in decision's property tests
			} else if strings.ReplaceAll(got, `\`, "") != strings.ReplaceAll(s, `\`, "") {
				t.Errorf("%q: literal %q, want %q", b.String(), got, s)
			}
		}
	}
}

// TestGenCoversEveryNodeKind: parsed back, Gen's output holds every node
// kind of NodeKinds, and NodeKinds with NotBash are every node type
// mvdan.cc/sh declares (read from its source when the go tool can find
// it), so a new kind in a new version fails here until the generator, and
// the walker that must model it, know it.
func TestGenCoversEveryNodeKind(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	// comments are nodes only to a parser that keeps them
	p := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	seen := map[string]int{}
	for i := 0; i < 3000; i++ {
		f, err := p.Parse(strings.NewReader(Gen(r, 1+r.IntN(4))), "")
		if err != nil {
			t.Fatal(err)
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			if n != nil {
				seen[strings.TrimPrefix(fmt.Sprintf("%T", n), "*syntax.")]++
			}
			return true
		})
	}
	for _, k := range NodeKinds {
		if seen[k] == 0 {
			t.Errorf("Gen never produced a %s", k)
		}
	}
	for k := range seen {
		if !slices.Contains(NodeKinds, k) {
			t.Errorf("Gen produced a %s, which NodeKinds does not list", k)
		}
	}

	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "mvdan.cc/sh/v3").Output()
	if err != nil {
		t.Skipf("cannot find mvdan.cc/sh's source: %v", err)
	}
	declared := nodeTypes(t, filepath.Join(strings.TrimSpace(string(out)), "syntax", "nodes.go"))
	want := append(append([]string(nil), NodeKinds...), NotBash...)
	slices.Sort(want)
	if !slices.Equal(declared, want) {
		t.Errorf("mvdan.cc/sh declares the node types\n  %v\nNodeKinds and NotBash list\n  %v", declared, want)
	}
}

// nodeTypes lists the types of a Go file with a Pos method on a pointer
// receiver: the syntax package's nodes.
func nodeTypes(t *testing.T, path string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Skipf("cannot read %s: %v", path, err)
	}
	var out []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || fn.Name.Name != "Pos" || len(fn.Recv.List) != 1 {
			continue
		}
		if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
			if id, ok := star.X.(*ast.Ident); ok {
				out = append(out, id.Name)
			}
		}
	}
	slices.Sort(out)
	return out
}
