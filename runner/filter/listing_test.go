package filter

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/shell"
)

// blameRow is what a line of git blame says: the commit, who and when
// (the date: the rendering leaves out the time of day), the line, the code.
type blameRow struct{ hash, who, num, code string }

// TestGitBlameKeepsEveryLine: over random blames, reading the rendering
// back (a header names the commit, and its author and date the first
// time) gives every line's commit, author, date, number and code.
func TestGitBlameKeepsEveryLine(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	authors := []string{"Ann Lee", "Bob", "Chloé Martin-Dubois", "dependabot[bot]"}
	codes := []string{"", "func main() {", "\treturn x // (see 12) below", "}", "  x := a[1:2] ) (", "// 2024-01-02 12:00:00 +0100"}
	for iter := 0; iter < 300; iter++ {
		type commit struct{ hash, who, when string }
		var commits []commit
		for i := 0; i < 1+rng.Intn(6); i++ {
			h := fmt.Sprintf("%08x", rng.Uint32())
			if i == 0 && rng.Intn(2) == 0 {
				h = "^" + h[:7]
			}
			commits = append(commits, commit{h, authors[rng.Intn(len(authors))], fmt.Sprintf("2026-%02d-%02d", 1+rng.Intn(12), 1+rng.Intn(28))})
		}
		var raw strings.Builder
		var want []blameRow
		n := 1 + rng.Intn(80)
		c := commits[0]
		for i := 1; i <= n; i++ {
			if rng.Intn(4) == 0 {
				c = commits[rng.Intn(len(commits))]
			}
			code := codes[rng.Intn(len(codes))]
			fmt.Fprintf(&raw, "%-8s (%-20s %s %02d:%02d:%02d +0100 %3d) %s\n", c.hash, c.who, c.when, rng.Intn(24), rng.Intn(60), rng.Intn(60), i, code)
			want = append(want, blameRow{c.hash, c.who + " " + c.when, fmt.Sprint(i), code})
		}
		out, err := gitBlame{}.Render(Input{Stdout: []byte(raw.String()), Recall: func() string { return testRecall }})
		if err != nil {
			t.Fatal(err)
		}
		var got []blameRow
		who := map[string]string{}
		hash := ""
		for _, l := range lines(out.Stdout) {
			if num, code, ok := strings.Cut(l, ") "); ok && shell.IsDigits(num) {
				got = append(got, blameRow{hash, who[hash], num, code})
				continue
			}
			head := strings.TrimSuffix(l, ":")
			h, meta, _ := strings.Cut(head, " ")
			if meta != "" {
				who[h] = meta
			}
			hash = h
		}
		if !slices.Equal(got, want) {
			t.Fatalf("read back:\n%v\nwant:\n%v\nrendering:\n%s", got, want, out.Stdout)
		}
		if len(out.Stdout) >= raw.Len() {
			t.Fatalf("rendered %d bytes of %d", len(out.Stdout), raw.Len())
		}
	}
}

// TestGitBlameUnknownShapeRaw: a line that is not blame's default format
// (a porcelain header, -s) leaves the whole output as git printed it.
func TestGitBlameUnknownShapeRaw(t *testing.T) {
	raw := "a1b2c3d4 (Ann 2026-01-02 10:00:00 +0100 1) x\na1b2c3d4 2) y\n"
	out, _ := gitBlame{}.Render(Input{Stdout: []byte(raw), Recall: func() string { return testRecall }})
	if string(out.Stdout) != raw {
		t.Errorf("got %q, want the raw output", out.Stdout)
	}
}

// TestGitBlameShowNumber: with -n (and -f) the original line number and
// file stay on each line; the commit still heads the run once.
func TestGitBlameShowNumber(t *testing.T) {
	raw := "a1b2c3d4 src/a.go  7 (Ann Lee 2026-01-02 10:00:00 +0100 1) x\na1b2c3d4 src/a.go  8 (Ann Lee 2026-01-02 10:00:00 +0100 2) y\n"
	out, _ := gitBlame{}.Render(Input{Stdout: []byte(raw), Recall: func() string { return testRecall }})
	want := "a1b2c3d4 Ann Lee 2026-01-02:\nsrc/a.go  7 1) x\nsrc/a.go  8 2) y\n"
	if string(out.Stdout) != want {
		t.Errorf("got %q, want %q", out.Stdout, want)
	}
}

// TestModGraphKeepsEveryEdge: reading `from: to, to` back gives every
// edge of go mod graph, in order per module.
func TestModGraphKeepsEveryEdge(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	mods := []string{"example.com/app", "golang.org/x/text@v0.3.0", "golang.org/x/tools@v0.1.0", "github.com/a/b/v2@v2.0.1", "go@1.22"}
	for iter := 0; iter < 200; iter++ {
		var raw strings.Builder
		want := map[string][]string{}
		for i := 0; i < rng.Intn(60); i++ {
			from, to := mods[rng.Intn(len(mods))], mods[rng.Intn(len(mods))]
			fmt.Fprintf(&raw, "%s %s\n", from, to)
			want[from] = append(want[from], to)
		}
		in := Input{Argv: []string{"go", "mod", "graph"}, Stdout: []byte(raw.String()), Recall: func() string { return testRecall }}
		out, _ := goList{}.Render(in)
		got := map[string][]string{}
		for _, l := range lines(out.Stdout) {
			from, tos, _ := strings.Cut(l, ": ")
			got[from] = append(got[from], strings.Split(tos, ", ")...)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("edges read back %v, want %v", got, want)
		}
	}
}

// TestGoListKeepsEveryPath: expanding `dir/: a, b` gives back every import
// path, and every module of `go list -m` as path@version.
func TestGoListKeepsEveryPath(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	parts := []string{"example.com", "m", "internal", "cmd", "x", "v2"}
	for iter := 0; iter < 200; iter++ {
		var paths, mods []string
		for i := 0; i < 1+rng.Intn(40); i++ {
			p := parts[0]
			for j := 0; j < 1+rng.Intn(4); j++ {
				p += "/" + parts[1+rng.Intn(len(parts)-1)]
			}
			if !slices.Contains(paths, p) {
				paths = append(paths, p)
				mods = append(mods, p+" v1."+fmt.Sprint(rng.Intn(9))+".0")
			}
		}
		for _, c := range []struct {
			argv []string
			raw  []string
		}{{[]string{"go", "list", "./..."}, paths}, {[]string{"go", "list", "-m", "all"}, mods}} {
			out, _ := goList{}.Render(Input{Argv: c.argv, Stdout: join(c.raw), Recall: func() string { return testRecall }})
			var got []string
			for _, l := range lines(out.Stdout) {
				if dir, names, ok := strings.Cut(l, ": "); ok {
					for _, n := range strings.Split(names, ", ") {
						got = append(got, dir+n)
					}
					continue
				}
				got = append(got, l)
			}
			want := slices.Clone(c.raw)
			for i, w := range want {
				want[i] = strings.Replace(w, " ", "@", 1)
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%v: read back %v, want %v", c.argv, got, want)
			}
		}
	}
}
