package filter

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

var moreLines = regexp.MustCompile(`… (\d+) more lines`)

// passFilter renders its input unchanged, so Render's ceiling is all that
// acts on it.
type passFilter struct{ same }

func (passFilter) Render(in Input) (Output, error) { return raw(in), nil }

func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s line %d of some output\n", prefix, i)
	}
	return b.String()
}

func TestCeiling(t *testing.T) {
	in := func(stdout, stderr string) Input {
		return Input{Stdout: []byte(stdout), Stderr: []byte(stderr), Recall: func() string { return testRecall }}
	}
	for _, tc := range []struct {
		name           string
		stdout, stderr string
		// which streams must come back whole
		wholeOut, wholeErr bool
	}{
		{"fits", numbered("out", 100), numbered("err", 100), true, true},
		{"big stdout, small stderr", numbered("out", 5000), numbered("err", 20), false, true},
		{"small stdout, big stderr", numbered("out", 20), numbered("err", 5000), true, false},
		{"both big", numbered("out", 5000), numbered("err", 5000), false, false},
		{"one huge line", strings.Repeat("x", 100000) + "\nlast\n", "", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Render(passFilter{}, in(tc.stdout, tc.stderr))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(out.Stdout) + len(out.Stderr); n > Ceiling {
				t.Errorf("printed %d bytes, more than Ceiling (%d)", n, Ceiling)
			}
			for _, s := range []struct {
				name      string
				got, raw  string
				wantWhole bool
			}{{"stdout", string(out.Stdout), tc.stdout, tc.wholeOut}, {"stderr", string(out.Stderr), tc.stderr, tc.wholeErr}} {
				if s.wantWhole {
					if s.got != s.raw {
						t.Errorf("%s was cut though it fits", s.name)
					}
					continue
				}
				if !strings.Contains(s.got, testRecall) {
					t.Errorf("%s cut without a recall hint", s.name)
				}
				rawLines := strings.Split(strings.TrimSuffix(s.raw, "\n"), "\n")
				gotLines := strings.Split(strings.TrimSuffix(s.got, "\n"), "\n")
				if first, last := rawLines[0], rawLines[len(rawLines)-1]; !strings.HasPrefix(gotLines[0], first[:min(len(first), 1000)]) || gotLines[len(gotLines)-1] != last {
					t.Errorf("%s lost its first or last line: %.60q … %.60q", s.name, gotLines[0], gotLines[len(gotLines)-1])
				}
				if m := moreLines.FindStringSubmatch(s.got); m != nil {
					var n int
					fmt.Sscan(m[1], &n)
					if kept := len(gotLines) - 1; kept+n != len(rawLines) {
						t.Errorf("%s: %d lines kept + %d announced ≠ %d raw lines", s.name, kept, n, len(rawLines))
					}
				}
			}
		})
	}
}

// A cat past the ceiling names the raw line range it left out, so the
// model can page through it with gotk recall --lines.
func TestReadNamesRange(t *testing.T) {
	src := numbered("src", 3000)
	in := Input{Argv: []string{"cat", "f"}, Stdout: []byte(src), Recall: func() string { return testRecall },
		RecallLines: func(a, b int) string { return fmt.Sprintf("%s --lines %d-%d", testRecall, a, b) }}
	out, err := Render(read{}, in)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out.Stdout), "\n"), "\n")
	raw := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	var gap int
	for i, l := range got {
		if strings.HasPrefix(l, "… ") {
			gap = i
		}
	}
	var n, a, b int
	if _, err := fmt.Sscanf(got[gap], "… %d more lines (%d-%d):", &n, &a, &b); err != nil {
		t.Fatalf("no range note: %q", got[gap])
	}
	want := fmt.Sprintf("… %d more lines (%d-%d): %s --lines %d-%d", n, a, b, testRecall, a, b)
	if got[gap] != want || a != gap+1 || b-a+1 != n || got[gap-1] != raw[a-2] || got[gap+1] != raw[b] {
		t.Errorf("note %q does not name the lines left out (want %q, around %q / %q)", got[gap], want, got[gap-1], got[gap+1])
	}
	// With stderr, the stored output interleaves both streams: no range.
	in.Stderr = []byte("cat: warning\n")
	out, _ = Render(read{}, in)
	if strings.Contains(string(out.Stdout), "--lines") || !strings.Contains(string(out.Stdout), testRecall) {
		t.Errorf("with stderr the note must be the plain recall hint")
	}
}

// Playwright repeats a failure per browser: a body seen before is named,
// a different one (even by one line) is kept whole.
func TestSameFailures(t *testing.T) {
	in := []string{
		"  1) [chromium] › a.spec.ts:3:5 › t", "", "    Error: boom", "    at a.spec.ts:4:1", "",
		"  2) [firefox] › a.spec.ts:3:5 › t", "", "    Error: boom", "    at a.spec.ts:4:1", "",
		"  3) [webkit] › a.spec.ts:3:5 › t", "", "    Error: boom", "    at a.spec.ts:4:2", "",
		"  3 failed",
	}
	got := strings.Join(sameFailures(in), "\n")
	want := strings.Join([]string{
		"  1) [chromium] › a.spec.ts:3:5 › t", "", "    Error: boom", "    at a.spec.ts:4:1", "",
		"  2) [firefox] › a.spec.ts:3:5 › t", "    (the same failure as 1) above)", "",
		"  3) [webkit] › a.spec.ts:3:5 › t", "", "    Error: boom", "    at a.spec.ts:4:2", "",
		"  3 failed",
	}, "\n")
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Sibling leaves share a line; a node with children keeps its own, and a
// name with the separator in it is quoted.
func TestTreeLeavesShareLine(t *testing.T) {
	tree := ".\n├── a.go\n├── b, c.go\n├── sub\n│   ├── x.go\n│   └── y.go\n└── z.go\n\n2 directories, 5 files\n"
	out, err := Render(treeList{}, Input{Argv: []string{"tree"}, Stdout: []byte(tree), Recall: func() string { return testRecall }})
	if err != nil {
		t.Fatal(err)
	}
	want := ".\n  a.go, \"b, c.go\"\n  sub\n    x.go, y.go\n  z.go\n\n2 directories, 5 files\n"
	if string(out.Stdout) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.Stdout, want)
	}
}

// npm's usage text goes only when npm's own pointer to it follows; the
// line above "Usage:" goes only when it is a paragraph of its own (npm's
// command description), never an error line that happens to precede it.
func TestDropNpmUsage(t *testing.T) {
	withHelp := []string{"npm error code EUSAGE", "npm error", "npm error Unknown flag --x", "npm error", "npm error Install a package", "npm error", "npm error Usage:", "npm error npm install", "npm error   --save", "npm error Run \"npm help install\" for more info"}
	got := dropNpmUsage(append([]string{}, withHelp...))
	want := []string{"npm error code EUSAGE", "npm error", "npm error Unknown flag --x", "npm error", "npm error Run \"npm help install\" for more info"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", got, want)
	}
	noHelp := withHelp[:len(withHelp)-1]
	if got := dropNpmUsage(append([]string{}, noHelp...)); len(got) != len(noHelp) {
		t.Errorf("dropped usage without npm's pointer to it: %q", got)
	}
	// No blank line between the error and "Usage:": the error stays.
	tight := []string{"npm ERR! Missing: x from lock file", "npm ERR! Usage:", "npm ERR! npm ci", "npm ERR! Run \"npm help ci\" for more info"}
	got = dropNpmUsage(append([]string{}, tight...))
	if len(got) != 2 || got[0] != tight[0] {
		t.Errorf("tight layout: got %q", got)
	}
}

// klog lines equal but for date, time and pid fold; another severity or
// message does not.
func TestKlogFold(t *testing.T) {
	in := Input{Recall: func() string { return testRecall }, Stderr: []byte(
		"E1130 03:44:34.078497    5860 memcache.go:265] refused\n" +
			"E1130 03:44:34.081189    5861 memcache.go:265] refused\n" +
			"E1130 03:44:34.082458    5860 memcache.go:265] refused\n" +
			"W1130 03:44:34.083721    5860 memcache.go:265] refused\n" +
			"E1130 03:44:35.000000    5860 memcache.go:265] refused again\n")}
	want := "E1130 03:44:34.078497    5860 memcache.go:265] refused\n" +
		"  … the same 2 more times, last: 03:44:34.082458\n" +
		"W1130 03:44:34.083721    5860 memcache.go:265] refused\n" +
		"E1130 03:44:35.000000    5860 memcache.go:265] refused again\n"
	if got := string(foldedStderr(in)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// The ceiling keeps the lines it keeps byte for byte (colour, CRLF).
func TestCeilingKeepsBytes(t *testing.T) {
	line := "\x1b[31mred\x1b[0m text\r"
	big := strings.Repeat(line+"\n", 5000)
	out, err := Render(passFilter{}, Input{Stdout: []byte(big), Recall: func() string { return testRecall }})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out.Stdout), line+"\n"+line+"\n") || !strings.HasSuffix(string(out.Stdout), line+"\n") {
		t.Errorf("kept lines changed: %q", string(out.Stdout[:60]))
	}
}

// Hunk headers stay true when a side is empty: a new file is "-0,0", a
// deleted one "+0,0", an insertion names the line it follows.
func TestTrimHunkEmptyRanges(t *testing.T) {
	for _, tc := range []struct {
		header string
		body   []string
		want   string
	}{
		{"@@ -0,0 +1,3 @@", []string{"+a", "+b", "+c"}, "@@ -0,0 +1,3 @@"},
		{"@@ -1,2 +0,0 @@", []string{"-a", "-b"}, "@@ -1,2 +0,0 @@"},
		{"@@ -5,6 +5,7 @@ func f", []string{" 5", " 6", " 7", "+x", " 8", " 9", " 10"}, "@@ -7,2 +7,3 @@ func f"},
		{"@@ -5,6 +5,7 @@", []string{" 5", " 6", " 7", " 8", " 9", " 10", "+x"}, "@@ -10 +10,2 @@"},
	} {
		got := trimHunk(tc.header, tc.body)
		if got[0] != tc.want {
			t.Errorf("%s %q: header %q, want %q", tc.header, tc.body, got[0], tc.want)
		}
	}
}

// diff(1) of two differently named files names both; the same file in two
// trees (diff -r) and git diffs name the new path only.
func TestPlainDiffNames(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"--- x\t2026-01-01\n+++ y\t2026-01-01\n@@ -1 +1 @@\n-a\n+b\n", "## x → y\n"},
		{"diff -u x y\n--- x\t2026-01-01\n+++ y\t2026-01-01\n@@ -1 +1 @@\n-a\n+b\n", "## x → y\n"},
		{"diff -ru old/f.go new/f.go\n--- old/f.go\n+++ new/f.go\n@@ -1 +1 @@\n-a\n+b\n", "## new/f.go\n"},
		{"diff --git a/f.go b/g.go\nsimilarity index 90%\nrename from f.go\nrename to g.go\n--- a/f.go\n+++ b/g.go\n@@ -1 +1 @@\n-a\n+b\n", "## g.go (90% similar, renamed from f.go)\n"},
	} {
		got := string(compactDiff([]byte(tc.in), Input{Recall: func() string { return testRecall }}))
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q:\ngot  %q\nwant prefix %q", tc.in, got, tc.want)
		}
	}
}
