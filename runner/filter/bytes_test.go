package filter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/registry"
)

// hostile is a line no filter may alter: a tab, a NUL, bytes that are not
// UTF-8, a multi-byte character; each case ends it with CRLF as a file
// written on Windows does.
const hostile = "x\tA\x00B\xff\xfeC é end"

// bytesCases are one command per filter family whose output carries the
// hostile line where the filter keeps it; want is what must come out
// verbatim (with its CRLF). Goldens: testdata/bytes/<name>.golden.
var bytesCases = []struct {
	name   string
	argv   []string
	stdout string
	stderr string
	exit   int
	want   string
}{
	// files
	{"grep", []string{"grep", "-rn", "x", "."}, "a.txt:1:" + hostile + "\r\na.txt:2:" + hostile + "\r\nb.txt:7:" + hostile + "\r\n", "", 0, hostile + "\r\n"},
	{"cat", []string{"cat", "a.txt"}, hostile + "\r\nbare\rCR kept\r\n", "", 0, hostile + "\r\nbare\rCR kept\r\n"},
	{"find", []string{"find", "."}, "./" + hostile + "\r\n", "", 0, `"` + hostile + "\r\""}, // a name with blanks is quoted in a list
	{"diff", []string{"diff", "a", "b"}, "1c1\r\n< " + hostile + "\r\n---\r\n> y\r\n", "", 1, hostile + "\r\n"},
	// version control
	{"git-diff", []string{"git", "diff"}, "diff --git a/a b/a\nindex 1..2 100644\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-" + hostile + "\r\n+y\r\n", "", 0, hostile + "\r\n"},
	{"git-log", []string{"git", "log"}, logSep + "abc1234" + fieldSep + "2026-01-02" + fieldSep + "t" + fieldSep + fieldSep + "p1" + fieldSep + "subject " + hostile + "\r\n", "", 0, hostile + "\r"},
	// tests
	{"go-test", []string{"go", "test", "./..."}, goEvents(hostile + "\r\n"), "", 1, hostile + "\r"},
	{"pytest", []string{"pytest"}, "E   AssertionError: " + hostile + "\r\n=== 1 failed in 0.1s ===\r\n", "", 1, hostile + "\r\n"},
	// build
	{"make", []string{"make"}, "", "main.c:3:1: error: " + hostile + "\r\nmake: *** [all] Error 1\r\n", 2, hostile + "\r\n"},
	// lint
	{"mypy", []string{"mypy", "."}, "a.py:1: error: " + hostile + "\r\nFound 1 error in 1 file\r\n", "", 1, hostile + "\r\n"},
	// packages
	{"npm-list", []string{"npm", "ls"}, "proj@1.0.0 /p\r\n└── " + hostile + "\r\n", "", 0, hostile + "\r\n"},
	// infra
	{"docker-logs", []string{"docker", "logs", "web"}, "boot " + hostile + "\r\n", "", 0, hostile + "\r\n"},
}

// goEvents is a failing test printing out, as go test -json reports it.
func goEvents(out string) string {
	var b strings.Builder
	for _, e := range []testEvent{
		{Action: "run", Package: "p", Test: "TestX"},
		{Action: "output", Package: "p", Test: "TestX", Output: "=== RUN   TestX\n"},
		{Action: "output", Package: "p", Test: "TestX", Output: "    x_test.go:3: " + out},
		{Action: "output", Package: "p", Test: "TestX", Output: "--- FAIL: TestX (0.00s)\n"},
		{Action: "fail", Package: "p", Test: "TestX"},
		{Action: "output", Package: "p", Output: "FAIL\n"},
		{Action: "fail", Package: "p"},
	} {
		j, _ := json.Marshal(e)
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

func TestBytesSurvive(t *testing.T) {
	for _, c := range bytesCases {
		t.Run(c.name, func(t *testing.T) {
			m, ok := registry.Classify(c.argv)
			if !ok {
				t.Fatalf("%q matches no rule", c.argv)
			}
			in := Input{Argv: c.argv, Tool: m.Tool, RanArgv: For(m.Rule.Handler).Args(c.argv, m.Tool),
				Stdout: []byte(c.stdout), Stderr: []byte(c.stderr), Combined: []byte(c.stdout + c.stderr), Exit: c.exit,
				Recall: func() string { return testRecall }}
			out, err := Render(For(m.Rule.Handler), in)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			got := goldenText(out, nil)
			want := c.want
			if c.name == "go-test" {
				// JSON carries text, not bytes: go test -json itself turns
				// bytes that are not UTF-8 into U+FFFD.
				want = strings.ToValidUTF8(want, "\ufffd\ufffd")
			}
			if !bytes.Contains(got, []byte(want)) {
				t.Errorf("%s lost bytes of %q:\n%q", c.name, want, got)
			}
			golden := filepath.Join("testdata", "bytes", c.name+".golden")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				os.WriteFile(golden, got, 0o644)
				return
			}
			if g, err := os.ReadFile(golden); err != nil || !bytes.Equal(g, got) {
				t.Errorf("%s: rendering differs from %s (go test -run TestBytesSurvive -update):\n%s", c.name, golden, fmt.Sprintf("%q", got))
			}
		})
	}
}
