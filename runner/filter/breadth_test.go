package filter

import (
	"strings"
	"testing"
)

// breadthRules are the rules whose filters live in breadth.go or came with
// them (declarative cargo-nextest, go-mod; yarn workspace routing).
var breadthRules = map[string]bool{
	"cargo.nextest": true, "cargo.fmt": true, "go.mod": true, "terraform.validate": true,
	"tofu.validate": true, "kubectl.apply": true, "helm.template": true,
	// the second pass: the largest outputs agents still saw raw
	"git.blame": true, "git.grep": true, "git.ls-files": true, "go.list": true, "cargo.tree": true,
	"npm.outdated": true, "dpkg.list": true,
}

// TestBreadthCasesShrink: every corpus case of these families renders
// smaller than its raw output unless the raw output is one line or a
// failure's stderr alone (an error message, shown whole), and a failed
// run's rendering is never empty.
func TestBreadthCasesShrink(t *testing.T) {
	n := 0
	for _, c := range loadCorpus(t) {
		if !breadthRules[c.match.Rule.ID] && !strings.HasPrefix(c.name, "yarn-workspace") {
			continue
		}
		n++
		out, err := Render(For(c.match.Rule.Handler), c.input())
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		raw := len(c.stdout) + len(c.stderr)
		got := len(out.Stdout) + len(out.Stderr)
		oneLine := strings.Count(string(c.stdout)+string(c.stderr), "\n") <= 1
		errorOnly := c.exit != 0 && len(c.stdout) == 0
		if got > raw || (got == raw && !oneLine && !errorOnly) {
			t.Errorf("%s: rendered %d bytes of %d raw", c.name, got, raw)
		}
		if c.exit != 0 && got == 0 && raw > 0 {
			t.Errorf("%s: a failed run rendered nothing", c.name)
		}
	}
	if n < 25 {
		t.Errorf("only %d corpus cases for the breadth families", n)
	}
}

// TestCargoFmtKeepsEveryChange: each removed or added line of rustfmt's
// diff, and each hunk header, survives; only context lines go.
func TestCargoFmtKeepsEveryChange(t *testing.T) {
	raw := "Diff in /w/src/a.rs:3:\n fn a() {\n-    x( )\n+    x()\n }\n \nDiff in /w/src/b.rs:9:\n-let  y=1;\n+let y = 1;\n"
	out, err := cargoFmt{}.Render(Input{Stdout: []byte(raw), Dir: "/w", Recall: func() string { return "R" }})
	if err != nil {
		t.Fatal(err)
	}
	got := string(out.Stdout)
	for _, want := range []string{"Diff in src/a.rs:3:\n-    x( )\n+    x()\nDiff in src/b.rs:9:\n-let  y=1;\n+let y = 1;\n", "3 lines of unchanged context not shown: R"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, " fn a() {") {
		t.Errorf("context kept:\n%s", got)
	}
	// rustfmt's own message (no diff) is kept whole
	msg := "error: couldn't read src/c.rs: No such file or directory\n"
	out, _ = cargoFmt{}.Render(Input{Stdout: []byte(" indented\n"), Stderr: []byte(msg), Recall: func() string { return "R" }})
	if string(out.Stdout) != " indented\n" || string(out.Stderr) != msg {
		t.Errorf("non-diff output changed: %q %q", out.Stdout, out.Stderr)
	}
}

// TestUnboxDiagnostics: the frame and blank frame lines go, every other
// line stays in order, and two diagnostics stay apart.
func TestUnboxDiagnostics(t *testing.T) {
	in := []string{"╷", "│ Error: a", "│ ", "│   on main.tf line 1:", "│    1: x", "╵", "╷", "│ Warning: b", "╵", "plain"}
	got := strings.Join(unboxDiagnostics(in), "\n")
	want := "Error: a\n  on main.tf line 1:\n   1: x\n\nWarning: b\nplain"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestKubectlApplyFolds: three or more unchanged objects with the same
// suffix fold into one line naming each; created/configured lines and
// short runs stay; a warning repeated per object is written once.
func TestKubectlApplyFolds(t *testing.T) {
	ls := []string{"a/x unchanged", "a/y unchanged", "b/z created", "c/1 unchanged (dry run)", "c/2 unchanged (dry run)", "c/3 unchanged (dry run)", "c/4 unchanged"}
	got := strings.Join(foldUnchanged(ls), "\n")
	want := "a/x unchanged\na/y unchanged\nb/z created\nunchanged (dry run) (3): c/1, c/2, c/3\nc/4 unchanged"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	ws := []string{"Warning: resource d/a is missing X.", "other", "Warning: resource d/b is missing X.", "Warning: resource d/c is missing Y."}
	got = strings.Join(foldWarnings(ws), "\n")
	want = "Warning: resource d/a, d/b is missing X.\nother\nWarning: resource d/c is missing Y."
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestHelmTemplateKeepsValues: blank lines inside a value (a literal block
// scalar) stay; only those before a document separator or the end go.
func TestHelmTemplateKeepsValues(t *testing.T) {
	raw := "---\n# Source: c/templates/cm.yaml\ndata:\n  run.sh: |\n    echo a\n\n    echo b\n\n\n---\n# Source: c/templates/svc.yaml\nkind: Service\n\n"
	out, err := helmTemplate{}.Render(Input{Stdout: []byte(raw), Recall: func() string { return "R" }})
	if err != nil {
		t.Fatal(err)
	}
	want := "---\n# Source: c/templates/cm.yaml\ndata:\n  run.sh: |\n    echo a\n\n    echo b\n---\n# Source: c/templates/svc.yaml\nkind: Service\n"
	if string(out.Stdout) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.Stdout, want)
	}
}
