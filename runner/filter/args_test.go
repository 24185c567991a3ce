package filter

import (
	"slices"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/registry"
)

// argsCases are, for every program gotk adds flags to, where the flags go:
// right after the real subcommand, past global options and their values
// (even a value spelled like the subcommand), and nowhere when the command
// writes its report to a file (the file must get the tool's own format).
var argsCases = []struct {
	argv []string
	want []string // nil: run unchanged
}{
	// git status
	{[]string{"git", "status"}, []string{"git", "status", "--porcelain=v2", "-b"}},
	{[]string{"git", "-C", "status", "status"}, []string{"git", "-C", "status", "status", "--porcelain=v2", "-b"}},
	{[]string{"git", "-C=status", "status"}, []string{"git", "-C=status", "status", "--porcelain=v2", "-b"}},
	{[]string{"git", "-c", "status.short=false", "--git-dir", "status", "--work-tree", "status", "status", "--", "status"},
		[]string{"git", "-c", "status.short=false", "--git-dir", "status", "--work-tree", "status", "status", "--porcelain=v2", "-b", "--", "status"}},
	{[]string{"git", "--namespace", "status", "--no-pager", "status"}, []string{"git", "--namespace", "status", "--no-pager", "status", "--porcelain=v2", "-b"}},
	{[]string{"git", "--exec-path=/usr/lib/git-core", "status"}, nil}, // not a global the registry skips: not rewritten either
	{[]string{"/usr/bin/git", "-C", "repo", "status", "-s"}, nil},
	// git log
	{[]string{"git", "-C", "log", "log", "-n", "3"}, []string{"git", "-C", "log", "log", "FORMAT", "--date=short", "-n", "3"}},
	{[]string{"git", "-p", "log"}, []string{"git", "-p", "log", "FORMAT", "--date=short"}}, // -p before log is --paginate, not --patch
	{[]string{"git", "log", "--output=log.txt"}, nil},
	{[]string{"git", "log", "-p", "--output", "log.txt"}, nil},
	{[]string{"git", "log", "--format=%H"}, nil},
	// go test
	{[]string{"go", "test", "./..."}, []string{"go", "test", "-json", "./..."}},
	{[]string{"go", "-C", "test", "test", "./..."}, []string{"go", "-C", "test", "test", "-json", "./..."}},
	{[]string{"go", "-C=test", "test"}, []string{"go", "-C=test", "test", "-json"}},
	{[]string{"go", "test", "-c", "-o", "x.test"}, nil},
	{[]string{"go", "test", "-json"}, nil},
	// ruff check
	{[]string{"ruff", "check", "."}, []string{"ruff", "check", "--output-format=concise", "."}},
	{[]string{"ruff", "check", "--output-file", "report.txt", "."}, nil},
	{[]string{"ruff", "check", "-o", "report.txt", "."}, nil},
	{[]string{"ruff", "check", "--output-file=report.txt"}, nil},
	// launchers: the tool's own subcommand, not the launcher's
	{[]string{"uvx", "ruff", "check"}, nil}, // uvx is not a launcher the registry knows
}

func TestArgsPlacement(t *testing.T) {
	for _, c := range argsCases {
		t.Run(strings.Join(c.argv, " "), func(t *testing.T) {
			m, ok := registry.Classify(c.argv)
			if !ok {
				if c.want != nil {
					t.Fatalf("registry does not classify %q", c.argv)
				}
				return
			}
			got := For(m.Rule.Handler).Args(c.argv, m.Tool)
			want := c.want
			if want == nil {
				want = c.argv
			}
			for i, w := range got {
				if strings.HasPrefix(w, "--format="+logSep) {
					got[i] = "FORMAT"
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("Args(%q)\n got %q\nwant %q", c.argv, got, want)
			}
		})
	}
}

// TestArgvModelAgreesWithRegistry: wherever the registry classifies a
// command as one of the subcommands gotk adds flags to, subIndex finds
// that subcommand, and never a global option's value.
func TestArgvModelAgreesWithRegistry(t *testing.T) {
	globals := [][]string{nil, {"-C", "X"}, {"-C=X"}, {"-c", "a=b"}, {"--git-dir", "X"}, {"--work-tree=X"}, {"--namespace", "X"},
		{"--no-pager"}, {"-P"}, {"-p"}, {"--bare"}, {"--literal-pathspecs"}, {"--config-env", "a=B"}, {"-C", "X", "-c", "a=b"}}
	for _, sub := range []struct{ prog, sub string }{{"git", "status"}, {"git", "log"}, {"go", "test"}, {"ruff", "check"}} {
		for _, g := range globals {
			for _, x := range []string{"X", sub.sub} { // a value named like the subcommand
				gl := make([]string, len(g))
				for i, w := range g {
					gl[i] = strings.ReplaceAll(w, "X", x)
				}
				argv := append(append([]string{sub.prog}, gl...), sub.sub, "arg")
				m, ok := registry.Classify(argv)
				at := subIndex(argv, 0, sub.sub)
				if ok != (at >= 0) {
					t.Errorf("%q: registry matched %v, subIndex %d", argv, ok, at)
					continue
				}
				if ok && (m.Rule.Program != sub.prog || at != len(argv)-2) {
					t.Errorf("%q: rule %s, subcommand at %d, want %d", argv, m.Rule.ID, at, len(argv)-2)
				}
			}
		}
	}
}
