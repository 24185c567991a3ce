package hookio_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
	"github.com/gotk-dev/gotk/core/host"
)

// echoAgent rewrites tool_input.command, like every real agent.
func echoAgent(noop []byte) hookio.Agent {
	return hookio.Agent{Name: "test", Host: &host.Def{Name: "test"}, NoOp: noop, Handle: func(in []byte, d decision.Decider) []byte {
		f, cmd, ok := hookio.ShellInput(bytes.TrimPrefix(bytes.TrimSuffix(in, []byte("}")), []byte(`{"tool_input":`)), "command")
		if !ok {
			return noop
		}
		dec := d.Decide(decision.Request{Command: cmd})
		if !hookio.IsRewrite(dec) {
			return noop
		}
		return hookio.Object("updated", f.With("command", dec.Command))
	}}
}

func run(t *testing.T, a hookio.Agent, env hookio.Env, in string) (string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	hookio.Run(a, env, strings.NewReader(in), &out, &errb)
	if err := hookiotest.CheckOutput(out.Bytes()); err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String()
}

func TestRun(t *testing.T) {
	env := hookiotest.Env(t.TempDir())
	a := echoAgent([]byte(`{}`))
	const status = `{"tool_input":{"command":"git status"}}`
	const want = `{"updated":{"command":"gotk git status"}}` + "\n"
	for name, c := range map[string]struct{ in, out string }{
		"rewrite":      {status, want},
		"boms":         {"\uFEFF\uFEFF \n\uFEFF" + status + "\r\n", want},
		"empty":        {"", "{}\n"},
		"blank":        {" \n\t", "{}\n"},
		"bom only":     {"\uFEFF", "{}\n"},
		"max":          {status + strings.Repeat(" ", hookio.MaxInput-len(status)), want},
		"over the cap": {status + strings.Repeat(" ", hookio.MaxInput-len(status)+1), "{}\n"},
		"passthrough":  {`{"tool_input":{"command":"echo hi"}}`, "{}\n"},
	} {
		if got, _ := run(t, a, env, c.in); got != c.out {
			t.Errorf("%s: got %q, want %q", name, got, c.out)
		}
	}
}

func TestNeverFails(t *testing.T) {
	env := hookiotest.Env(t.TempDir())
	for name, h := range map[string]func([]byte, decision.Decider) []byte{
		"panic":   func([]byte, decision.Decider) []byte { panic("boom") },
		"invalid": func([]byte, decision.Decider) []byte { return []byte(`{"a":`) },
	} {
		a := hookio.Agent{Name: "test", NoOp: []byte(`{}`), Handle: h}
		out, errs := run(t, a, env, `{}`)
		if out != "{}\n" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "gotk-hook-test: ") {
			t.Errorf("%s: stdout %q, stderr %q", name, out, errs)
		}
	}
	// Indented answers are compacted to one line.
	a := hookio.Agent{Name: "test", Handle: func([]byte, decision.Decider) []byte { return []byte("{\n  \"a\": 1\n}") }}
	if out, _ := run(t, a, env, `{}`); out != "{\"a\":1}\n" {
		t.Errorf("compact: %q", out)
	}
}

func TestGotkLookup(t *testing.T) {
	home := t.TempDir()
	a := echoAgent(nil)
	env := hookiotest.Env(home)
	env.LookPath = func(string) (string, error) { return "bin/gotk", nil } // relative: does not count
	if out, errs := run(t, a, env, `{"tool_input":{"command":"git status"}}`); out != "" || !strings.Contains(errs, "gotk is not on PATH") {
		t.Errorf("relative gotk: %q %q", out, errs)
	}
	a.AbsoluteGotk = true
	env.LookPath = func(string) (string, error) { return "/opt/my tools/gotk", nil }
	if out, _ := run(t, a, env, `{"tool_input":{"command":"git status"}}`); out != `{"updated":{"command":"'/opt/my tools/gotk' git status"}}`+"\n" {
		t.Errorf("absolute gotk: %q", out)
	}
}

func TestDisabled(t *testing.T) {
	for _, v := range []string{"GOTK_DISABLED=1", "RTK_DISABLED=1"} {
		env := hookiotest.Env(t.TempDir(), v)
		if out, errs := run(t, echoAgent([]byte(`{}`)), env, `{"tool_input":{"command":"git status"}}`); out != "{}\n" || errs != "" {
			t.Errorf("%s: %q %q", v, out, errs)
		}
	}
}

func TestAudit(t *testing.T) {
	home := t.TempDir()
	env := hookio.OSEnv()
	m := map[string]string{"GOTK_HOOK_AUDIT": "1"}
	env.Getenv = func(k string) string { return m[k] }
	env.Home, env.Cwd = home, home
	env.Now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	env.LookPath = func(string) (string, error) { return "/usr/bin/gotk", nil }
	run(t, echoAgent(nil), env, `{"tool_input":{"command":"git status | grep x\\\\y\nls"}}`)
	// A carriage return is part of a word for bash: no rewrite, but the log
	// line stays one line.
	run(t, echoAgent(nil), env, `{"tool_input":{"command":"ls\r\nls"}}`)
	path := filepath.Join(home, ".local", "share", "gotk", "hook-audit.log")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `2026-01-02T03:04:05Z | test | ask | git status \| grep x\\\\y\nls | git status \| gotk grep x\\\\y\ngotk ls` + "\n" +
		`2026-01-02T03:04:05Z | test | passthrough | ls\r\nls | ` + "\n"
	if string(data) != want {
		t.Errorf("got  %q\nwant %q", data, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	if st, _ := os.Stat(filepath.Dir(path)); st.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v, want 0700", st.Mode().Perm())
	}
	// XDG_DATA_HOME moves it; an unwritable location is ignored.
	m["XDG_DATA_HOME"] = filepath.Join(home, "x")
	run(t, echoAgent(nil), env, `{"tool_input":{"command":"ls"}}`)
	if _, err := os.Stat(filepath.Join(home, "x", "gotk", "hook-audit.log")); err != nil {
		t.Error(err)
	}
	m["XDG_DATA_HOME"] = path // a file: MkdirAll fails
	if out, errs := run(t, echoAgent(nil), env, `{"tool_input":{"command":"ls"}}`); out == "" || errs != "" {
		t.Errorf("unwritable log: %q %q", out, errs)
	}
}

func TestAuditLine(t *testing.T) {
	got := hookio.AuditLine("t", "a", "allow", "x | y\nz\\", "\r")
	if want := `t | a | allow | x \| y\nz\\ | \r` + "\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFields(t *testing.T) {
	f, cmd, ok := hookio.ShellInput([]byte(`{"b":1, "command":"a","command":"git status","c":{"d":[1, 2]}}`), "command")
	if !ok || cmd != "git status" {
		t.Fatalf("%v %q", ok, cmd)
	}
	out, _ := f.With("command", "gotk <&> git status").MarshalJSON()
	if want := `{"b":1,"command":"gotk <&> git status","command":"gotk <&> git status","c":{"d":[1,2]}}`; string(out) != want {
		t.Errorf("got %s", out)
	}
	for _, bad := range []string{`[]`, `{"command":1}`, `{"command":""}`, `{"command":"a\ud800"}`, "{\"command\":\"a\xff\"}", `{} {}`, `{"a":1`} {
		if _, _, ok := hookio.ShellInput([]byte(bad), "command"); ok {
			t.Errorf("%s accepted", bad)
		}
	}
}
