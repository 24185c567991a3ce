package filter

import (
	"strings"
	"testing"
)

// TestNodeTestCutShort: a TAP run that ends before node's summary (killed,
// a timeout) still says what it saw and shows the failure it had reached.
func TestNodeTestCutShort(t *testing.T) {
	raw := "TAP version 13\n# Subtest: a\nok 1 - a\n  ---\n  duration_ms: 1\n  ...\n" +
		"# Subtest: b\nnot ok 2 - b\n  ---\n  duration_ms: 1\n  location: '/w/t.js:3:1'\n" +
		"  failureType: 'testCodeFailure'\n  error: 'boom'\n  name: 'Error'\n  stack: |-\n" +
		"    Object.<anonymous> (file:///w/t.js:4:9)\n    node:internal/x:1:1\n  ...\n"
	out, err := nodeTest{}.Render(Input{Stdout: []byte(raw), Dir: "/w", Recall: func() string { return "R" }})
	if err != nil {
		t.Fatal(err)
	}
	got := string(out.Stdout)
	for _, want := range []string{"not ok - b (t.js:3:1)", "Error: boom", "at Object.<anonymous> (t.js:4:9)", "1 test passed, 1 failed before the run ended"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "node:internal") {
		t.Errorf("node's own frame shown:\n%s", got)
	}
}

// TestNodeTestOtherOutput: output in neither of node's formats (an old
// node that does not know --test) is shown as it was.
func TestNodeTestOtherOutput(t *testing.T) {
	in := Input{Stderr: []byte("node: bad option: --test\n"), Recall: func() string { return "R" }}
	out, _ := nodeTest{}.Render(in)
	if string(out.Stderr) != string(in.Stderr) || len(out.Stdout) != 0 {
		t.Errorf("got %q / %q", out.Stdout, out.Stderr)
	}
	in = Input{Stdout: []byte("hello from a script\n"), Recall: func() string { return "R" }}
	if out, _ := (nodeTest{}).Render(in); string(out.Stdout) != "hello from a script\n" {
		t.Errorf("got %q", out.Stdout)
	}
}
