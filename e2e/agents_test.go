package e2e

import (
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/e2e/fakemodel"
)

// gitStatusRaw is text only git's own long `git status` prints.
const gitStatusRaw = "On branch main"

// TestBaseline: with no hook, the agent runs the model's command as is.
func TestBaseline(t *testing.T) {
	RequireEnabled(t)
	for _, a := range SelectedAgents() {
		t.Run(a.Name, func(t *testing.T) {
			e := NewEnv(t, a, fakemodel.Script{Commands: []string{"git status"}})
			res := e.Run()
			res.Require(t, a.Name, 1)
			got := res.ToolResult(0)
			t.Logf("tool result: %q", got)
			if !strings.Contains(got, gitStatusRaw) || !strings.Contains(got, "untracked.txt") {
				t.Fatalf("%s: tool result is not raw `git status` output:\n%s", a.Name, got)
			}
			if strings.Contains(got, RewritePrefix) {
				t.Fatalf("%s: command was rewritten without a hook:\n%s", a.Name, got)
			}
		})
	}
}

// TestRewriteHook: a hook (or plugin) that rewrites the command in the
// agent's documented dialect changes what really runs.
func TestRewriteHook(t *testing.T) {
	RequireEnabled(t)
	for _, a := range SelectedAgents() {
		t.Run(a.Name, func(t *testing.T) {
			e := NewEnv(t, a, fakemodel.Script{Commands: []string{"git status"}})
			a.AddRewriteHook(e)
			res := e.Run()
			res.Require(t, a.Name, 1)
			got := res.ToolResult(0)
			t.Logf("tool result: %q", got)
			if !strings.Contains(got, RewritePrefix+"git status") {
				t.Fatalf("%s: tool result does not show the rewritten command ran:\n%s", a.Name, got)
			}
			if strings.Contains(got, gitStatusRaw) {
				t.Fatalf("%s: the original command ran too:\n%s", a.Name, got)
			}
			for _, in := range e.HookInputs() {
				t.Logf("hook stdin: %s", in)
			}
		})
	}
}

func TestClineResult(t *testing.T) {
	for in, want := range map[string]string{
		`[{"query":"git status","result":"On branch main\n\"x\"\n","success":true}]`:                             "On branch main\n\"x\"\n",
		`[{"query":"a","result":"1\n","success":true},{"query":"b","result":"","error":"boom","success":false}]`: "1\n\nboom",
		`{"error":"Command not executed: blocked in plan mode"}`:                                                 "Command not executed: blocked in plan mode",
		`plain text`: "plain text",
	} {
		if got := clineResult(in); got != want {
			t.Errorf("%s:\n got %q\nwant %q", in, got, want)
		}
	}
}
