package filter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// streamIn is a run of argv whose raw output is recallable line by line.
func streamIn(argv ...string) Input {
	return Input{
		Argv:        argv,
		Recall:      func() string { return "gotk recall abc123" },
		RecallLines: func(a, b int) string { return fmt.Sprintf("gotk recall abc123 --lines %d-%d", a, b) },
	}
}

// feed writes out to a new Stream in random chunks (seeded) and renders.
func feed(f Filter, in Input, out []byte, seed uint64) Output {
	s := NewStream(f, in)
	r := rand.New(rand.NewPCG(seed, 1))
	for len(out) > 0 {
		n := min(len(out), 1+r.IntN(5000))
		if seed == 0 {
			n = len(out)
		}
		s.Write(0, out[:n])
		out = out[n:]
	}
	return s.Render(in, "")
}

// grepOutput is grep -rn over files with the given numbers of matches.
func grepOutput(counts []int) []byte {
	var b bytes.Buffer
	for i, n := range counts {
		for j := range n {
			fmt.Fprintf(&b, "src/pkg%d/file%d.go:%d:\tthe match %d of file %d\n", i%7, i, j+1, j, i)
		}
	}
	return b.Bytes()
}

var (
	groupLine  = regexp.MustCompile(`(?m)^  (\S+) \(([\d,]+) (?:match|matches|path|paths)\): lines (\d+)-(\d+)$`)
	streamMore = regexp.MustCompile(`(?m)^… ([\d,]+) more (?:matches in ([\d,]+) files?|paths) \(lines (\d+)-(\d+): gotk recall abc123 --lines \d+-\d+\)$`)
)

func num(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStreamGrep: whatever the chunking, the compact form is the same,
// within the ceiling; each file listed past the first page names its
// exact count and raw line range, and the totals are exact.
func TestStreamGrep(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var counts []int
	for range 3000 {
		counts = append(counts, 1+r.IntN(60))
	}
	out := grepOutput(counts)
	raw := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	in := streamIn("grep", "-rn", "match", "src")
	whole := feed(grep{}, in, out, 0)
	if len(whole.Stdout)+len(whole.Stderr) > Ceiling {
		t.Errorf("printed %d bytes, over the ceiling", len(whole.Stdout)+len(whole.Stderr))
	}
	for seed := uint64(1); seed < 6; seed++ {
		if got := feed(grep{}, in, out, seed); !bytes.Equal(got.Stdout, whole.Stdout) {
			t.Fatalf("chunking %d changed the output:\n%s\n---\n%s", seed, got.Stdout, whole.Stdout)
		}
	}
	text := string(whole.Stdout)
	m := streamMore.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no count line:\n%s", text)
	}
	from, to := num(t, m[3]), num(t, m[4])
	if to != len(raw) || num(t, m[1]) != to-from+1 {
		t.Errorf("count line %q: want %d more to line %d", m[0], to-from+1, len(raw))
	}
	files := map[string]bool{}
	for _, l := range raw[from-1:] {
		files[l[:strings.IndexByte(l, ':')]] = true
	}
	if num(t, m[2]) != len(files) {
		t.Errorf("count line says %s files, the lines hold %d", m[2], len(files))
	}
	groups := groupLine.FindAllStringSubmatch(text, -1)
	if len(groups) < 10 {
		t.Fatalf("only %d files listed:\n%s", len(groups), text)
	}
	for _, g := range groups {
		a, b := num(t, g[3]), num(t, g[4])
		if num(t, g[2]) != b-a+1 {
			t.Errorf("%q: count is not the range's", g[0])
		}
		for _, l := range raw[a-1 : b] {
			if !strings.HasPrefix(l, g[1]+":") {
				t.Fatalf("%q: line %q is another file's", g[0], l)
			}
		}
		if b < len(raw) && strings.HasPrefix(raw[b], g[1]+":") {
			t.Errorf("%q: the file goes on past the range", g[0])
		}
	}
	if !strings.Contains(text, raw[len(raw)-1]+"\n") {
		t.Errorf("the last line is not shown")
	}
	if !strings.Contains(text, fmt.Sprintf("%s lines streamed", count(int64(len(raw))))) {
		t.Errorf("no exact line count:\n%s", text[len(text)-300:])
	}
}

// TestStreamFind groups find's paths by the directory under its root.
func TestStreamFind(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(".\n")
	for d := range 200 {
		fmt.Fprintf(&b, "./dir%03d\n", d)
		for f := range 100 + d {
			fmt.Fprintf(&b, "./dir%03d/sub/file%04d.txt\n", d, f)
		}
	}
	in := streamIn("find", ".")
	got := feed(find{}, in, b.Bytes(), 3)
	text := string(got.Stdout)
	if !regexp.MustCompile(`(?m)^  \./dir050 \(151 paths\): lines \d+-\d+$`).MatchString(text) {
		t.Errorf("dir050 not listed with its 151 paths:\n%s", text)
	}
	// The listed directories and the rest add up to the count.
	m := streamMore.FindStringSubmatch(text)
	rest := regexp.MustCompile(`(?m)^  … ([\d,]+) more, ([\d,]+) paths: lines (\d+)-(\d+)$`).FindStringSubmatch(text)
	if m == nil || rest == nil {
		t.Fatalf("no counts:\n%s", text)
	}
	sum := num(t, rest[2])
	for _, g := range groupLine.FindAllStringSubmatch(text, -1) {
		sum += num(t, g[2])
	}
	if sum != num(t, m[1]) || num(t, rest[4]) != 40101 {
		t.Errorf("listed and rest: %d paths, count line %s", sum, m[1])
	}
	if len(got.Stdout) > Ceiling {
		t.Errorf("printed %d bytes", len(got.Stdout))
	}
}

// TestStreamBinary: lines holding NUL bytes are counted, never printed,
// wherever they are (first page, past it, the last lines, an open line).
func TestStreamBinary(t *testing.T) {
	var b bytes.Buffer
	for i := range 50000 {
		if i%1000 == 3 || i == 49999 {
			fmt.Fprintf(&b, "bin\x00ary %d\x00\x01\n", i)
			continue
		}
		fmt.Fprintf(&b, "text line %d\n", i)
	}
	b.WriteString("open \x00 line")
	for seed := uint64(0); seed < 4; seed++ {
		got := feed(read{}, streamIn("cat", "x.bin"), b.Bytes(), seed)
		if bytes.IndexByte(got.Stdout, 0) >= 0 || bytes.IndexByte(got.Stderr, 0) >= 0 {
			t.Fatalf("a NUL byte was printed")
		}
		if !strings.Contains(string(got.Stdout), "50,001 lines streamed (52 with NUL bytes: binary, not shown)") {
			t.Errorf("binary lines not counted:\n%s", got.Stdout[len(got.Stdout)-400:])
		}
	}
}

// TestStreamOpenLine: a line longer than anything held is counted whole
// and shown cut.
func TestStreamOpenLine(t *testing.T) {
	long := bytes.Repeat([]byte("x"), 1<<20)
	out := append(append([]byte("first\n"), long...), "\nlast\n"...)
	got := feed(read{}, streamIn("cat", "min.js"), out, 2)
	if len(got.Stdout) > Ceiling {
		t.Errorf("printed %d bytes", len(got.Stdout))
	}
	if !strings.Contains(string(got.Stdout), "3 lines streamed") || !strings.Contains(string(got.Stdout), "more bytes]") {
		t.Errorf("got:\n%.2000s", got.Stdout)
	}
}

// TestStreamStderr: stderr keeps its first and last lines, counted, on
// stderr.
func TestStreamStderr(t *testing.T) {
	s := NewStream(read{}, streamIn("make"))
	for i := range 20000 {
		s.Write(0, fmt.Appendf(nil, "out %d\n", i))
		if i%10 == 0 {
			s.Write(1, fmt.Appendf(nil, "warning %d\n", i))
		}
	}
	got := s.Render(streamIn("make"), "")
	e := string(got.Stderr)
	if !strings.HasPrefix(e, "warning 0\n") || !strings.HasSuffix(e, "warning 19990\n") || !strings.Contains(e, "more lines on stderr") {
		t.Errorf("stderr:\n%s", e)
	}
	if !strings.Contains(string(got.Stdout), "22,000 lines streamed") {
		t.Errorf("stdout:\n%s", got.Stdout[len(got.Stdout)-300:])
	}
}

// TestStreamJSON: a filter that needs the whole output gets its first
// page as raw lines, the counts and the end; never all of it.
func TestStreamJSON(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i := range 100000 {
		fmt.Fprintf(&b, "  {\"id\": %d, \"name\": \"item %d\"},\n", i, i)
	}
	b.WriteString("  {}\n]\n")
	got := feed(jsonOut{}, streamIn("jq", "."), b.Bytes(), 5)
	if len(got.Stdout) > Ceiling || !strings.Contains(string(got.Stdout), "100,003 lines streamed") {
		t.Errorf("got %d bytes:\n%.3000s", len(got.Stdout), got.Stdout)
	}
}

// BenchmarkStreamWrite is the stream compactor's cost per byte past the
// first page: grep -rn's matches grouped by file, find's long paths by
// top directory, a read's text counted (in 256 KiB chunks, as the
// capture reads).
func BenchmarkStreamWrite(b *testing.B) {
	var paths bytes.Buffer
	for i := 0; paths.Len() < 8<<20; i++ {
		fmt.Fprintf(&paths, "./top%03d/%s/%s%07d\n", i/2000, strings.Repeat("d", 1800), strings.Repeat("f", 150), i)
	}
	var text bytes.Buffer
	for i := 0; text.Len() < 8<<20; i++ {
		fmt.Fprintf(&text, "line %09d of a long output, with some words to make it look like text\n", i)
	}
	for _, c := range []struct {
		name string
		f    Filter
		in   Input
		out  []byte
	}{
		{"grep", grep{}, streamIn("grep", "-rn", "the", "src"), grepOutput(slices.Repeat([]int{20000}, 8))},
		{"find", find{}, streamIn("find", "."), paths.Bytes()},
		{"read", read{}, streamIn("cat", "big.txt"), text.Bytes()},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.out)))
			for b.Loop() {
				s := NewStream(c.f, c.in)
				for p := c.out; len(p) > 0; p = p[min(len(p), 256<<10):] {
					s.Write(0, p[:min(len(p), 256<<10)])
				}
			}
		})
	}
}

// TestStreamLsR groups ls -R's entries by the directory they are in:
// each listed directory with its own count and its raw lines (heading to
// last entry), the directory the first page ends in going on past it,
// names with spaces or a colon, empty directories, and the counts adding
// up to the lines past the first page.
func TestStreamLsR(t *testing.T) {
	var b bytes.Buffer
	type dir struct {
		name     string
		entries  int
		from, to int // raw lines: heading, last entry
	}
	var dirs []dir
	line := 0
	add := func(s string) {
		b.WriteString(s + "\n")
		line++
	}
	for d := range 400 {
		if d > 0 {
			add("")
		}
		name := fmt.Sprintf("./pkg%03d", d)
		switch {
		case d == 0:
			name = "."
		case d%7 == 3:
			name = fmt.Sprintf("./dir with space %03d", d)
		}
		add(name + ":")
		dd := dir{name: name, from: line}
		n := (d * 37) % 60
		if d%11 == 5 {
			n = 0 // empty
		}
		for e := range n {
			entry := fmt.Sprintf("file%03d.go", e)
			if e == 2 {
				entry = "odd name: with colon:"
			}
			add(entry)
			dd.to = line
		}
		dd.entries = n
		dirs = append(dirs, dd)
	}
	raw := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for seed := uint64(0); seed < 3; seed++ {
		got := feed(ls{}, streamIn("ls", "-R"), b.Bytes(), seed)
		text := string(got.Stdout)
		m := regexp.MustCompile(`(?m)^… ([\d,]+) more lines in ([\d,]+) director(?:y|ies) \(lines (\d+)-(\d+): `).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("no count line:\n%s", text)
		}
		first := num(t, m[3])
		if num(t, m[1]) != len(raw)-first+1 || num(t, m[4]) != len(raw) {
			t.Errorf("count line %q: %d lines from %d", m[0], len(raw)-first+1, first)
		}
		// what should be counted past the first page
		var want []dir
		for _, d := range dirs {
			if d.to < first || d.entries == 0 {
				continue
			}
			if d.from < first { // the directory the first page ends in
				n := 0
				for l := first; l <= d.to; l++ {
					if raw[l-1] != "" {
						n++
					}
				}
				d.entries, d.from = n, first
			}
			want = append(want, d)
		}
		if num(t, m[2]) != len(want) {
			t.Errorf("%s directories counted, want %d", m[2], len(want))
		}
		listed := regexp.MustCompile(`(?m)^  (.+) \(([\d,]+) (?:entry|entries)\): lines (\d+)-(\d+)$`).FindAllStringSubmatch(text, -1)
		if len(listed) == 0 || len(listed) > len(want) {
			t.Fatalf("%d directories listed of %d:\n%s", len(listed), len(want), text)
		}
		for i, g := range listed {
			w := want[i]
			if g[1] != w.name || num(t, g[2]) != w.entries || num(t, g[3]) != w.from || num(t, g[4]) != w.to {
				t.Errorf("listed %q, want %s (%d entries): lines %d-%d", g[0], w.name, w.entries, w.from, w.to)
			}
		}
		rest := regexp.MustCompile(`(?m)^  … ([\d,]+) more, ([\d,]+) entr(?:y|ies): lines (\d+)-(\d+)$`).FindStringSubmatch(text)
		if len(listed) < len(want) {
			n := 0
			for _, w := range want[len(listed):] {
				n += w.entries
			}
			if rest == nil || num(t, rest[1]) != len(want)-len(listed) || num(t, rest[2]) != n || num(t, rest[3]) != want[len(listed)].from || num(t, rest[4]) != len(raw) {
				t.Errorf("the rest %q, want %d more, %d entries: lines %d-%d", rest, len(want)-len(listed), n, want[len(listed)].from, len(raw))
			}
		}
		if len(got.Stdout) > Ceiling {
			t.Errorf("printed %d bytes", len(got.Stdout))
		}
	}
}

// TestStreamGrepContext: context asked for in one word (-A2, -nC3, -5)
// makes grep print context lines and `--`, which are no matches in
// files: they are counted as lines, as with -A 2; a count attached to
// another option (-m5) is no context.
func TestStreamGrepContext(t *testing.T) {
	var b bytes.Buffer
	for i := range 60000 {
		fmt.Fprintf(&b, "src/f%05d.go:%d:func F%d() {\nsrc/f%05d.go-%d-\treturn\nsrc/f%05d.go-%d-}\n--\n", i, 10, i, i, 11, i, 12)
	}
	for _, args := range [][]string{{"-rn", "-A2"}, {"-rnA2"}, {"-rnC3"}, {"-2", "-rn"}, {"-rn", "-A", "2"}, {"-rn", "--context=2"}} {
		in := streamIn(append(append([]string{"grep"}, args...), "func", "src")...)
		if k := NewStream(grep{}, in).kind; k != streamText {
			t.Errorf("grep %v: read as kind %d, not as lines", args, k)
		}
		text := string(feed(grep{}, in, b.Bytes(), 2).Stdout)
		if strings.Contains(text, "more matches") || !strings.Contains(text, "240,000 lines streamed") {
			t.Errorf("grep %v:\n%.2000s", args, text)
		}
	}
	if k := NewStream(grep{}, streamIn("grep", "-rn", "-m5", "func", "src")).kind; k != streamGrep {
		t.Errorf("grep -m5: kind %d, want matches by file", k)
	}
}

// TestStreamTree groups tree's lines past its first page by the entry
// of the root they are under, each with its count and raw lines (the
// entry the first page ends in going on under its name); the root, the
// blank line and the totals count in no entry. npm ls draws trees too,
// but its depth is the user's: it stays lines.
func TestStreamTree(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		tee, last, bar := "├── ", "└── ", "│   "
		if ascii {
			tee, last, bar = "|-- ", "`-- ", "|   "
		}
		var b bytes.Buffer
		b.WriteString("/srv\n")
		line := 1
		type top struct {
			name     string
			n        int
			from, to int
		}
		var tops []top
		for d := range 30 {
			c, in := tee, bar
			if d == 29 {
				c, in = last, "    "
			}
			name := fmt.Sprintf("dir%02d", d)
			if d == 7 {
				fmt.Fprintf(&b, "%slink%02d -> ../elsewhere\n", c, d)
				line++
				tops = append(tops, top{fmt.Sprintf("link%02d", d), 1, line, line})
				continue
			}
			fmt.Fprintf(&b, "%s%s\n", c, name)
			line++
			tp := top{name, 1, line, line}
			for f := range 40 + d*13 {
				cc := tee
				if f == 40+d*13-1 {
					cc = last
				}
				fmt.Fprintf(&b, "%s%sfile%04d.txt\n", in, cc, f)
				line++
				tp.n++
				tp.to = line
			}
			tops = append(tops, tp)
		}
		b.WriteString("\n30 directories, 5000 files\n")
		total := line + 2
		got := feed(treeList{}, streamIn("tree", "/srv"), b.Bytes(), 1)
		text := string(got.Stdout)
		m := regexp.MustCompile(`(?m)^… ([\d,]+) more lines under ([\d,]+) entries of the root \(lines (\d+)-(\d+): `).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("ascii %v: no count line:\n%s", ascii, text)
		}
		first := num(t, m[3])
		var want []top
		for _, tp := range tops {
			if tp.to < first {
				continue
			}
			if tp.from < first {
				tp.n -= first - tp.from
				tp.from = first
			}
			want = append(want, tp)
		}
		if num(t, m[1]) != total-first+1 || num(t, m[2]) != len(want) || num(t, m[4]) != total {
			t.Errorf("ascii %v: count line %q, want %d lines under %d entries", ascii, m[0], total-first+1, len(want))
		}
		listed := regexp.MustCompile(`(?m)^  (\S+) \(([\d,]+) paths?\): lines (\d+)-(\d+)$`).FindAllStringSubmatch(text, -1)
		if len(listed) != len(want) {
			t.Fatalf("ascii %v: %d entries listed, want %d:\n%s", ascii, len(listed), len(want), text)
		}
		for i, g := range listed {
			w := want[i]
			if g[1] != w.name || num(t, g[2]) != w.n || num(t, g[3]) != w.from || num(t, g[4]) != w.to {
				t.Errorf("ascii %v: listed %q, want %s (%d paths): lines %d-%d", ascii, g[0], w.name, w.n, w.from, w.to)
			}
		}
		if !strings.Contains(text, "30 directories, 5000 files") {
			t.Errorf("ascii %v: the totals line is not among the last lines:\n%s", ascii, text)
		}
	}
	if k := NewStream(treeList{}, streamIn("npm", "ls", "--all")).kind; k != streamText {
		t.Errorf("npm ls: kind %d, want lines", k)
	}
	if k := NewStream(treeList{}, streamIn("tree", "-i", "/srv")).kind; k != streamText {
		t.Errorf("tree -i: kind %d, want lines", k)
	}
}

// TestStreamTellsFailures: past the first page of a run's output (a
// build, a test run, a log), the lines that tell a failure or an error
// are kept wherever they are, with their raw line numbers and the lines
// before them, however the output is cut into chunks (a failure word
// split across two); many are counted, the first kept. A read's lines
// are not judged.
func TestStreamTellsFailures(t *testing.T) {
	var b bytes.Buffer
	want := map[int]string{}
	for i := 1; i <= 150000; i++ {
		l := fmt.Sprintf("compiling unit %d of the project with some words", i)
		switch i {
		case 40000:
			l = "src/parser.c:120:7: error: expected ';' before '}' token"
		case 90001:
			l = "FAIL: TestParse (0.02s)"
		case 149000:
			l = "panic: runtime error: index out of range [3] with length 3"
		}
		if strings.HasPrefix(l, "compiling") {
			b.WriteString(l + "\n")
			continue
		}
		want[i] = l
		b.WriteString(l + "\n")
	}
	for seed := uint64(0); seed < 6; seed++ {
		got := feed(lineFilter{}, streamIn("make"), b.Bytes(), seed)
		text := string(got.Stdout)
		if !strings.Contains(text, "3 lines past the first page tell a failure or an error") {
			t.Errorf("seed %d: no count of 3:\n%.3000s", seed, text)
		}
		for n, l := range want {
			if !strings.Contains(text, fmt.Sprintf("  %d: %s\n", n, l)) {
				t.Errorf("seed %d: line %d (%s) not kept", seed, n, l)
			}
			for k := n - tellContext; k < n; k++ {
				if !strings.Contains(text, fmt.Sprintf("  %d: compiling unit %d ", k, k)) {
					t.Errorf("seed %d: line %d, before %d, not kept", seed, k, n)
				}
			}
		}
		if len(got.Stdout) > Ceiling {
			t.Errorf("seed %d: %d bytes", seed, len(got.Stdout))
		}
	}
	// many: counted, the first kept, within bounds
	var many bytes.Buffer
	for i := 1; i <= 100000; i++ {
		fmt.Fprintf(&many, "worker %d: error: connection refused to db-%d\n", i, i%7)
	}
	got := feed(lineFilter{}, streamIn("docker", "logs", "app"), many.Bytes(), 3)
	if !strings.Contains(string(got.Stdout), "lines past the first page tell a failure or an error (raw line: text, with up to 2 lines before each; the first ") || len(got.Stdout) > Ceiling {
		t.Errorf("many errors: %d bytes:\n%.2000s", len(got.Stdout), got.Stdout)
	}
	// a read shows a file: its lines are not judged
	got = feed(read{}, streamIn("cat", "x.log"), b.Bytes(), 2)
	if strings.Contains(string(got.Stdout), "tell a failure") {
		t.Errorf("a read's lines judged:\n%.2000s", got.Stdout)
	}
}

// TestStreamGoTestFailure: go test -json past the capture limit keeps
// the failing test in the middle (its output, as go test prints it), and
// the first page says nothing a partial run cannot know.
func TestStreamGoTestFailure(t *testing.T) {
	var b bytes.Buffer
	ev := func(action, test, output string) {
		e := map[string]string{"Action": action, "Package": "example.com/gt"}
		if test != "" {
			e["Test"] = test
		}
		if output != "" {
			e["Output"] = output
		}
		j, _ := json.Marshal(e)
		b.Write(append(j, '\n'))
	}
	for _, test := range []string{"TestNoisyA", "TestFailsInMiddle", "TestNoisyB"} {
		ev("run", test, "")
		ev("output", test, "=== RUN   "+test+"\n")
		if test == "TestFailsInMiddle" {
			ev("output", test, "    a_test.go:15: expected 42, got 41\n")
			ev("output", test, "--- FAIL: "+test+" (0.00s)\n")
			ev("fail", test, "")
			continue
		}
		for i := range 60000 {
			ev("output", test, fmt.Sprintf("noise line %d from %s with some text\n", i, test))
		}
		ev("output", test, "--- PASS: "+test+" (1.00s)\n")
		ev("pass", test, "")
	}
	ev("output", "", "FAIL\n")
	ev("output", "", "FAIL\texample.com/gt\t2.0s\n")
	ev("fail", "", "")
	in := streamIn("go", "test", "./...")
	in.Run = true
	for seed := uint64(0); seed < 5; seed++ {
		got := feed(goTest{}, in, b.Bytes(), seed)
		text := string(got.Stdout)
		// go test's own count, from every event
		for _, w := range []string{"TestFailsInMiddle: a_test.go:15: expected 42, got 41", "TestFailsInMiddle: --- FAIL: TestFailsInMiddle (0.00s)", "FAIL\texample.com/gt\t2.0s", "\ngo test: 2 passed, 1 failed in 1 package (1 failed)\n"} {
			if !strings.Contains(text, w) {
				t.Errorf("seed %d: %q not kept:\n%.3000s", seed, w, text)
			}
		}
	}
	got := feed(goTest{}, in, b.Bytes(), 4)
	text := string(got.Stdout)
	if strings.Contains(text, "no tests ran") || strings.Contains(text, "passed in") {
		t.Errorf("the first page concluded about the whole run:\n%.1500s", text)
	}
}

// A failure line cut between two reads is told once, whole: the word in
// its first part (and the line counted once though both reads hold some
// of it), or cut itself, beside other failure words in the same read.
func TestStreamTellsSplitLines(t *testing.T) {
	var page bytes.Buffer
	for i := 1; page.Len() < 3*streamTextHead; i++ {
		fmt.Fprintf(&page, "step %d of the build, nothing to see\n", i)
	}
	head := int64(bytes.Count(page.Bytes(), []byte("\n")))
	for _, c := range []struct {
		name   string
		first  string // with the first page, in one read (judged line by line)
		chunks []string
		lines  map[int64]string // raw line: text kept
	}{
		{"word in the first part", "", []string{"ok\nERROR: disk", " full on /dev/sda1\nok\n"}, map[int64]string{head + 2: "ERROR: disk full on /dev/sda1"}},
		{"word cut, another in the read", "", []string{"ok\nfatal: bad\nsome ER", "ROR: one\nok\n"}, map[int64]string{head + 2: "fatal: bad", head + 3: "some ERROR: one"}},
		{"word in a line the page's read left open", "ok\npanic: nil map written", []string{" by worker 3 while it ran the queue\nok\n"}, map[int64]string{head + 2: "panic: nil map written by worker 3 while it ran the queue"}},
	} {
		s := NewStream(lineFilter{}, streamIn("make"))
		s.Write(0, append(append([]byte{}, page.Bytes()...), c.first...))
		for _, ch := range c.chunks {
			s.Write(0, []byte(ch))
		}
		s.Write(0, page.Bytes()) // the last lines: not these
		text := string(s.Render(streamIn("make"), "").Stdout)
		told := fmt.Sprintf("%d lines past the first page tell ", len(c.lines))
		if len(c.lines) == 1 {
			told = "1 line past the first page tells "
		}
		if !strings.Contains(text, told) {
			t.Errorf("%s: not %q:\n%.1500s", c.name, told, text[strings.Index(text, "… "):])
		}
		for n, l := range c.lines {
			if strings.Count(text, fmt.Sprintf("  %d: %s\n", n, l)) != 1 {
				t.Errorf("%s: line %d %q not kept once:\n%.1500s", c.name, n, l, text[strings.Index(text, "… "):])
			}
		}
	}
}

// A run with failures on every line past its first page, long lines on
// both streams: what is printed stays within Ceiling, the failures kept
// counted in one note.
func TestStreamToldWithinCeiling(t *testing.T) {
	long := strings.Repeat("x", 400)
	s := NewStream(lineFilter{}, streamIn("make"))
	for i := range 30000 {
		s.Write(0, fmt.Appendf(nil, "src/f%d.c:%d:1: error: %s\n", i, i, long))
		if i%10 == 0 {
			s.Write(1, fmt.Appendf(nil, "warning: stderr line %d %s\n", i, long))
		}
	}
	got := s.Render(streamIn("make"), "gotk: a note the runner adds, as long as such notes are")
	if n := len(got.Stdout) + len(got.Stderr); n > Ceiling {
		t.Errorf("%d bytes printed, ceiling %d", n, Ceiling)
	}
	if !strings.Contains(string(got.Stdout), "past the first page tell a failure or an error (raw line: text, with up to 2 lines before each; the first ") {
		t.Errorf("no count of the failures left out:\n%.2000s", got.Stdout)
	}
}

// Any output, cut any way, over both streams, through every kind of
// stream: no panic, and what is printed stays within Ceiling with the
// exact count of lines.
func TestStreamAnyOutput(t *testing.T) {
	words := []string{"error", "ERROR: x", "FAIL", "panic:", "✕ test", "fatal", "ok", "", ":", "dir:", "├── a", "│   └── b", "\x00", "src/a.go:12:3:", "{\"Action\":\"fail\",\"Test\":\"T\"}", strings.Repeat("y", 1500)}
	filters := []struct {
		f    Filter
		argv []string
	}{
		{lineFilter{}, []string{"make"}},
		{goTest{}, []string{"go", "test", "./..."}},
		{read{}, []string{"cat", "x"}},
		{grep{}, []string{"grep", "-rn", "x", "."}},
		{find{}, []string{"find", "."}},
		{ls{}, []string{"ls", "-R"}},
		{treeList{}, []string{"tree"}},
	}
	for seed := uint64(0); seed < 40; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		var out [2]bytes.Buffer
		var order []int
		var chunks [][]byte
		for range 3000 + r.IntN(20000) {
			var l strings.Builder
			for range 1 + r.IntN(4) {
				l.WriteString(words[r.IntN(len(words))])
				l.WriteByte(' ')
			}
			stream := 0
			if r.IntN(10) == 0 {
				stream = 1
			}
			line := l.String() + "\n"
			out[stream].WriteString(line)
			// cut anywhere, the two streams interleaved
			for p := []byte(line); len(p) > 0; {
				n := 1 + r.IntN(len(p))
				chunks = append(chunks, p[:n])
				order = append(order, stream)
				p = p[n:]
			}
		}
		c := filters[seed%uint64(len(filters))]
		in := streamIn(c.argv...)
		in.Run = seed%2 == 0
		s := NewStream(c.f, in)
		for i, ch := range chunks {
			s.Write(order[i], ch)
		}
		lines := int64(bytes.Count(out[0].Bytes(), []byte("\n")) + bytes.Count(out[1].Bytes(), []byte("\n")))
		got := s.Render(in, "")
		if n := len(got.Stdout) + len(got.Stderr); n > Ceiling {
			t.Errorf("seed %d (%v): %d bytes", seed, c.argv, n)
		}
		if !strings.Contains(string(got.Stdout), fmt.Sprintf(" %s lines streamed", count(lines))) {
			t.Errorf("seed %d (%v): not %d lines counted:\n%.600s", seed, c.argv, lines, got.Stdout[max(0, len(got.Stdout)-600):])
		}
	}
}
