package filter

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"testing"
)

// The compact forms: every cap counts what it left out and
// names the raw lines to recall; every fact stays.

func lineInput(argv []string, stdout string) Input {
	return Input{
		Argv: argv, RanArgv: argv, Stdout: []byte(stdout),
		Recall:      func() string { return testRecall },
		RecallLines: func(from, to int) string { return fmt.Sprintf("%s --lines %d-%d", testRecall, from, to) },
	}
}

// The raw range a page note names holds exactly the lines it left out.
func TestPageRangesAreExact(t *testing.T) {
	var paths []string
	for d := range 40 {
		for f := range 30 {
			paths = append(paths, fmt.Sprintf("src/module%02d/file_with_a_long_name_%02d.go", d, f))
		}
	}
	raw := strings.Join(paths, "\n") + "\n"
	// find's paths, and grep -l's files (one note, in the files' raw
	// lines: not a cap on lines of the grouped form, which name no raw
	// line and let a directory of hundreds of files run the page over)
	for _, c := range []struct {
		f    Filter
		argv []string
		unit string
	}{
		{find{}, []string{"find", "src"}, "paths"},
		{grep{}, []string{"grep", "-rl", "call", "src"}, "files"},
	} {
		out, err := c.f.Render(lineInput(c.argv, raw))
		if err != nil {
			t.Fatal(err)
		}
		ls := lines(out.Stdout)
		last := ls[len(ls)-1]
		var n, from, to int
		if _, err := fmt.Sscanf(last, "… %d more "+c.unit+" (lines %d-%d:", &n, &from, &to); err != nil {
			t.Fatalf("%v: no page note: %q (%v)", c.argv, last, err)
		}
		if to != len(paths) || to-from+1 != n {
			t.Errorf("%v: note %q: want the last %d raw lines ending at %d", c.argv, last, n, len(paths))
		}
		// every path before the range is on the page
		shown := strings.Join(ls, "\n")
		for _, p := range paths[:from-1] {
			name := p[strings.LastIndexByte(p, '/')+1:]
			if !strings.Contains(shown, name) {
				t.Fatalf("%v: %s is before the recalled range but not shown", c.argv, p)
			}
		}
		if strings.Count(shown, "…") != 1 {
			t.Errorf("%v: more than one note:\n%s", c.argv, shown)
		}
		if len(out.Stdout) > pageBudget+noteRoom {
			t.Errorf("%v: page is %d bytes, budget %d", c.argv, len(out.Stdout), pageBudget)
		}
	}
}

// A line number counted in stdout is not one of the stored output when
// stderr is interleaved in it: the note then names the whole recall.
func TestRecallRangeWithStderr(t *testing.T) {
	in := lineInput(nil, "")
	if got := recallRange(in, 3, 9); got != "lines 3-9: gotk recall TEST01 --lines 3-9" {
		t.Errorf("got %q", got)
	}
	in.Stderr = []byte("grep: x: Permission denied\n")
	if got := recallRange(in, 3, 9); got != testRecall {
		t.Errorf("with stderr: got %q", got)
	}
}

// grep past its first page still names every file, with its count; a
// file with many matches shows the first ones and counts the rest.
func TestGrepNamesEveryFile(t *testing.T) {
	var b strings.Builder
	for f := range 60 {
		for m := range 1 + f%4 {
			fmt.Fprintf(&b, "pkg/dir%d/f%02d.go:%d:\tcall(someArgument, anotherArgument) // match %d\n", f%3, f, 10+m, m)
		}
	}
	for m := range 100 {
		fmt.Fprintf(&b, "big.go:%d:\tmatch %d\n", m+1, m)
	}
	out, err := grep{}.Render(lineInput([]string{"grep", "-rn", "call", "."}, b.String()))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out.Stdout)
	for f := range 60 {
		if !strings.Contains(got, fmt.Sprintf("f%02d.go", f)) {
			t.Errorf("f%02d.go not named:\n%s", f, got)
		}
	}
	if !strings.Contains(got, "big.go (100)") && !strings.Contains(got, "more in this file") {
		t.Errorf("big.go's matches neither counted nor capped:\n%s", got)
	}
}

// One folder with hundreds of files: its line shows the first names and
// the raw lines of the others.
func TestTreeLongLineCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(".\n└── certs\n")
	for i := range 300 {
		c := "├── "
		if i == 299 {
			c = "└── "
		}
		fmt.Fprintf(&b, "    %scert%03d.pem\n", c, i)
	}
	b.WriteString("\n1 directory, 300 files\n")
	out, err := treeList{}.Render(lineInput([]string{"tree"}, b.String()))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("… %d more names (lines %d-%d: %s --lines %d-%d)", 300-treeNames, 3+treeNames, 302, testRecall, 3+treeNames, 302)
	if !strings.Contains(string(out.Stdout), want) || !strings.Contains(string(out.Stdout), "1 directory, 300 files") {
		t.Errorf("want %q and the totals in:\n%s", want, out.Stdout)
	}
}

func TestGitLogBounded(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want bool
	}{
		{[]string{"git", "log"}, false},
		{[]string{"git", "log", "--stat", "main"}, false},
		{[]string{"git", "log", "-n", "5"}, true},
		{[]string{"git", "log", "-n5"}, true},
		{[]string{"git", "log", "-5"}, true},
		{[]string{"git", "log", "--max-count=5"}, true},
		{[]string{"git", "log", "--", "-5"}, false},
	} {
		if got := gitLogBounded(tc.argv, 0); got != tc.want {
			t.Errorf("gitLogBounded(%q) = %v, want %v", tc.argv, got, tc.want)
		}
	}
}

func TestCompactCommitHeaders(t *testing.T) {
	in := strings.Join([]string{
		"commit 0123456789abcdef0123456789abcdef01234567 (HEAD -> main, tag: v1)",
		"Merge: 0123456 89abcde",
		"Author: Dana Dev <dev@example.com>",
		"Date:   Mon Aug 10 10:00:00 2026 +0000",
		"",
		"    Merge branch 'fix'",
		"    ",
		"    Body line.",
		"",
		"diff --git a/x b/x",
	}, "\n")
	want := strings.Join([]string{
		"0123456789 2026-08-10 Dana Dev (HEAD -> main, tag: v1) [merge 0123456+89abcde]: Merge branch 'fix'",
		"  Body line.",
		"",
		"diff --git a/x b/x",
	}, "\n")
	if got := strings.Join(compactCommitHeaders(strings.Split(in, "\n")), "\n"); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// another format (--pretty=fuller) stays as git printed it
	fuller := []string{"commit 0123456789abcdef0123456789abcdef01234567", "Author:     Dana <d@x>", "AuthorDate: Mon Aug 10 10:00:00 2026 +0000", "", "    s"}
	if got := compactCommitHeaders(append([]string{}, fuller...)); strings.Join(got, "\n") != strings.Join(fuller, "\n") {
		t.Errorf("fuller header changed: %q", got)
	}
}

// The diff note appears only when context was really cut.
func TestDiffSaysContextWasCut(t *testing.T) {
	three := "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n"
	zero := "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -4 +4 @@\n-d\n+D\n"
	in := Input{Recall: func() string { return testRecall }}
	if got := string(compactDiff([]byte(three), in)); !strings.Contains(got, "(context cut to 1 line; full diff: "+testRecall+")") {
		t.Errorf("no note:\n%s", got)
	}
	if got := string(compactDiff([]byte(zero), in)); strings.Contains(got, "context cut") {
		t.Errorf("note without a cut:\n%s", got)
	}
}

func TestFoldTestify(t *testing.T) {
	block := []string{
		"    a_test.go:12: ",
		"        \tError Trace:\t/proj/pkg/a_test.go:12",
		"        \tError:      \tNot equal: ",
		"        \t            \texpected: 1",
		"        \t            \tactual  : 2",
		"        \t            \t",
		"        \t            \tDiff:",
		"        \t            \t--- Expected",
		"        \t            \t+++ Actual",
		"        \t            \t@@ -1 +1 @@",
		"        \t            \t-1",
		"        \t            \t+2",
		"        \tTest:       \tTestA",
		"        \tMessages:   \tsum of a",
		"    a_test.go:20: ",
		"        \tError Trace:\t/proj/pkg/helper_test.go:5",
		"        \t            \t\t\t\t/proj/pkg/a_test.go:20",
		"        \tError:      \tShould be true",
		"        \tTest:       \tTestA",
	}
	got := foldTestify(block, "TestA", Input{Dir: "/proj"})
	want := []string{
		"    a_test.go:12: Not equal:",
		"        expected: 1",
		"        actual  : 2",
		"        Messages: sum of a",
		"    a_test.go:20: Should be true",
		"        Error Trace: pkg/helper_test.go:5, pkg/a_test.go:20",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTidyDiagnostics(t *testing.T) {
	got := tidyDiagnostics([]string{
		"# example.com/m",
		"a.go:1:2: undefined: x",
		"b.go:3:4: undefined: y",
		"b.go:5:6: undefined: y",
		"b.go:7:8: too many return values",
		"\thave (int, bool)",
		"c.ts(1,2): error TS1: one",
		"p.c:3:5: warning: unused variable 'x'",
		"    3 |     int x;",
		"      |         ^",
		"p.c:3:5: note: declared here",
		"    3 |     int x;",
		"      |         ^",
		"make: *** [Makefile:9: p.o] Error 1",
		"    3 |     int x;",
	})
	want := []string{
		"# example.com/m",
		"a.go:1:2: undefined: x",
		"b.go:3:4: undefined: y",
		"b.go:5:6: undefined: y",
		"b.go:7:8: too many return values",
		"\thave (int, bool)",
		"c.ts(1,2): error TS1: one",
		"p.c:3:5: warning: unused variable 'x'",
		"    3 |     int x;",
		"p.c:3:5: note: declared here",
		"make: *** [Makefile:9: p.o] Error 1",
		"    3 |     int x;",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRelPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/proj/a.go:1: x", "a.go:1: x"},
		{"see /proj/sub/b.go", "see sub/b.go"},
		{"/other/proj/a.go", "/other/proj/a.go"},
		{"/projects/a.go", "/projects/a.go"},
	} {
		if got := relPath(tc.in, "/proj"); got != tc.want {
			t.Errorf("relPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := relPath("/a.go", "/"); got != "/a.go" {
		t.Errorf("root dir: %q", got)
	}
}

func TestFoldPackages(t *testing.T) {
	if got := foldPackages([]string{"ex.com/m/store", "ex.com/m/api", "ex.com/m/store/sql"}); got != "ex.com/m/{api, store, store/sql}" {
		t.Errorf("got %q", got)
	}
	if got := foldPackages([]string{"ex.com/m"}); got != "ex.com/m" {
		t.Errorf("got %q", got)
	}
}

// ls -l: a column every entry shares is said once; sizes and names stay.
func TestLsFoldsColumns(t *testing.T) {
	ll := []string{
		"total 12",
		"drwxr-xr-x 2 root root 4096 Nov 30 04:39 .",
		"-rw-r--r-- 1 root root 10 Nov 30 04:39 a.go",
		"-rw-r--r-- 1 root root 20 Nov 30 04:39 b.go",
		"-rwxr-xr-x 1 root root 30 Nov 30 04:39 run.sh",
	}
	want := []string{
		"(all root root, Nov 30 04:39; mode and links -rw-r--r-- 1 for files unless shown; then size, name)",
		"total 12",
		"drwxr-xr-x 2 4096 .",
		"10 a.go",
		"20 b.go",
		"-rwxr-xr-x 1 30 run.sh",
	}
	if got := compactLong(ll, false); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// the date most entries share is said once too; an entry of another
	// time on the same day shows its time, of another day its date
	ll = []string{
		"-rw-r--r-- 1 root root 10 Nov 30 04:39 a.go",
		"-rw-r--r-- 1 root root 20 Nov 30 04:39 b.go",
		"-rw-r--r-- 1 root root 30 Nov 30 05:02 c.go",
	}
	want = []string{"(all root root, Nov 30 04:39 unless shown; mode and links -rw-r--r-- 1 for files unless shown; then size, name)", "10 a.go", "20 b.go", "30 05:02 c.go"}
	if got := compactLong(ll, false); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ll = append(ll, "-rw-r--r-- 1 root root 40 Oct  2  2025 d.go")
	want = []string{"(all root root, Nov 30 04:39 unless shown; mode and links -rw-r--r-- 1 for files unless shown; then size, name)", "10 a.go", "20 b.go", "30 Nov 30 05:02 c.go", "40 Oct 2 2025 d.go"}
	if got := compactLong(ll, false); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A capped output of long lines tells what it left out in one note: the
// lines a count cap keeps would otherwise pass the ceiling, which cut
// them again around a second note (git log --oneline of 30,000 commits
// read "… 197 more lines" and, further down, "… 29400 more lines").
func TestCapLongLinesOneNote(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "%07x commit number %d: %s\n", i, i, strings.Repeat("a long subject ", 6))
	}
	for _, c := range []struct {
		f    Filter
		argv []string
	}{
		{gitLog{}, []string{"git", "log", "--oneline"}},
		{find{}, []string{"find", ".", "-exec", "echo", "{}", ";"}},
		{grep{}, []string{"grep", "-c", "x", "a", "b"}},
	} {
		out, err := Render(c.f, lineInput(c.argv, b.String()))
		if err != nil {
			t.Fatal(err)
		}
		notes, shown, left := 0, 0, 0
		for _, l := range lines(out.Stdout) {
			var n int
			if _, err := fmt.Sscanf(l, "… %d more lines", &n); err == nil {
				notes++
				left += n
				continue
			}
			shown++
		}
		// and the note counts what it left out: no cut of a cut hides
		// lines it does not count
		if notes != 1 || shown+left != 3000 || len(out.Stdout) > Ceiling {
			t.Errorf("%v: %d notes, %d lines shown and %d counted of 3000, %d bytes:\n%s", c.argv, notes, shown, left, len(out.Stdout), out.Stdout)
		}
	}
}

// A patch too large to show whole (git diff of a broad change) shows its
// first files whole and names every other one with the lines it adds and
// removes: which files a change touched is not what a cap may lose.
// Several commits' patches (git log -p) are capped as before.
func TestDiffNamesEveryFile(t *testing.T) {
	var b strings.Builder
	type file struct {
		name     string
		add, del int
	}
	var files []file
	for i := range 300 {
		name := fmt.Sprintf("pkg%02d/sub/file_%03d.go", i%17, i)
		f := file{name: name}
		switch i {
		case 40: // binary
			fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex 1111111..2222222 100644\nBinary files a/%s and b/%s differ\n", name, name, name, name)
			files = append(files, f)
			continue
		case 41: // deleted: counted, not shown
			fmt.Fprintf(&b, "diff --git a/%s b/%s\ndeleted file mode 100644\nindex 1111111..0000000\n--- a/%s\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-a\n-b\n-c\n", name, name, name)
			f.del = 3
			files = append(files, f)
			continue
		}
		fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n", name, name, name, name)
		n := 5 + i%23
		fmt.Fprintf(&b, "@@ -1,%d +1,%d @@\n", n+2, n+1+i%3)
		b.WriteString(" context line before\n")
		for k := range n {
			fmt.Fprintf(&b, "-old line %d of %s, with words\n", k, name)
			f.del++
		}
		for k := range n - 1 + i%3 {
			fmt.Fprintf(&b, "+new line %d of %s, with words\n", k, name)
			f.add++
		}
		b.WriteString(" context line after\n")
		files = append(files, f)
	}
	in := lineInput([]string{"git", "diff"}, b.String())
	out, err := Render(gitDiff{}, in)
	if err != nil {
		t.Fatal(err)
	}
	text := string(out.Stdout)
	if len(out.Stdout) > Ceiling {
		t.Errorf("%d bytes", len(out.Stdout))
	}
	m := regexp.MustCompile(`(?m)^… (\d+) more files changed, \+(\d+) -(\d+) \(gotk recall TEST01\):$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no note:\n%s", text)
	}
	first := len(files) - num(t, m[1])
	add, del := 0, 0
	for i, f := range files {
		if i < first {
			if !strings.Contains(text, "## "+f.name+"\n") && !strings.Contains(text, "## "+f.name+" (") {
				t.Errorf("%s is on the page but has no section", f.name)
			}
			continue
		}
		add, del = add+f.add, del+f.del
		dir, base := path.Split(f.name)
		entry := base
		if f.add+f.del > 0 {
			entry = fmt.Sprintf("%s +%d -%d", base, f.add, f.del)
		}
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(dir) + `: (.*, )?` + regexp.QuoteMeta(entry) + `(,|$)`).MatchString(text) {
			t.Errorf("%s (%q) not named under %s", f.name, entry, dir)
		}
	}
	if num(t, m[2]) != add || num(t, m[3]) != del {
		t.Errorf("note %q, want +%d -%d", m[0], add, del)
	}

	// several commits: the commits' headers stay, capped as before
	log := "commit 1234567\nAuthor: A <a@b>\n\n    one\n\n" + b.String() + "commit 89abcde\nAuthor: A <a@b>\n\n    two\n\n" + b.String()
	out, err = Render(gitDiff{}, lineInput([]string{"git", "show", "HEAD~1", "HEAD"}, log))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out.Stdout), "more files changed") {
		t.Errorf("two commits' patches summed up as one:\n%.2000s", out.Stdout)
	}
}

// ls -R past its first page counts the directories left out by their
// headings (a line ending in ':' after a blank one): one with a space in
// its name counts, an entry whose name ends in ':' does not.
func TestLsRCountsDirectories(t *testing.T) {
	var b strings.Builder
	b.WriteString(".:\n")
	for d := range 400 {
		name := fmt.Sprintf("./dir%03d", d)
		if d%3 == 0 {
			name = fmt.Sprintf("./my dir %03d", d)
		}
		fmt.Fprintf(&b, "%s\n", strings.TrimPrefix(name, "./"))
	}
	for d := range 400 {
		name := fmt.Sprintf("./dir%03d", d)
		if d%3 == 0 {
			name = fmt.Sprintf("./my dir %03d", d)
		}
		fmt.Fprintf(&b, "\n%s:\nfile_a.go\nweird name:\nfile_b.go\n", name)
	}
	out, err := ls{}.Render(lineInput([]string{"ls", "-R"}, b.String()))
	if err != nil {
		t.Fatal(err)
	}
	ll := lines(out.Stdout)
	last := ll[len(ll)-1]
	var more, dirs, from int
	if _, err := fmt.Sscanf(last, "… %d more lines, %d more directories (lines %d-", &more, &dirs, &from); err != nil {
		t.Fatalf("no note: %q (%v)", last, err)
	}
	raw := lines([]byte(b.String()))
	want := 0
	for i := from - 1; i < len(raw); i++ {
		if strings.HasSuffix(raw[i], ":") && raw[i-1] == "" {
			want++
		}
	}
	if dirs != want || want == 0 {
		t.Errorf("%q: want %d more directories", last, want)
	}
}

// A first file too large for the page is shown as far as room allows
// beside the list of the others, with what it left out counted.
func TestDiffHugeFirstFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("diff --git a/big.go b/big.go\nindex 1111111..2222222 100644\n--- a/big.go\n+++ b/big.go\n@@ -1,3000 +1,3000 @@\n")
	for k := range 3000 {
		long := strings.Repeat(" and a generated literal that makes the line long", 5)
		fmt.Fprintf(&b, "-old line %d of the big file%s\n+new line %d of the big file%s\n", k, long, k, long)
	}
	for i := range 20 {
		name := fmt.Sprintf("small_%02d.go", i)
		fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n@@ -1 +1 @@\n-a\n+b\n", name, name, name, name)
	}
	out, err := Render(gitDiff{}, lineInput([]string{"git", "diff"}, b.String()))
	if err != nil {
		t.Fatal(err)
	}
	text := string(out.Stdout)
	if !strings.Contains(text, "## big.go\n") || !strings.Contains(text, "-old line 0 of the big file") || !strings.Contains(text, "more lines in this file") {
		t.Errorf("the big file's start not shown:\n%.1500s", text)
	}
	if !strings.Contains(text, "… 20 more files changed, +20 -20") || !strings.Contains(text, "small_19.go +1 -1") || len(out.Stdout) > Ceiling {
		t.Errorf("the other files not listed, or %d bytes:\n%s", len(out.Stdout), text[max(0, len(text)-2000):])
	}
}
