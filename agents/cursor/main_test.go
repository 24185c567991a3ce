package main

import (
	"bytes"
	"io"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"gotk-hook-cursor": main})
}

// TestScripts runs testdata/*.txtar against the real binary.
func TestScripts(t *testing.T) {
	p := testscript.Params{
		Dir:   "testdata",
		Setup: func(e *testscript.Env) error { return hookiotest.Setup(e.WorkDir, e.Setenv, e.Getenv) },
		Cmds:  map[string]func(*testscript.TestScript, bool, []string){},
	}
	for name, f := range hookiotest.Cmds {
		p.Cmds[name] = func(ts *testscript.TestScript, neg bool, args []string) {
			if neg {
				ts.Fatalf("unsupported: ! %s", name)
			}
			ts.Check(f(args, ts.MkAbs))
		}
	}
	testscript.Run(t, p)
}

// stub answers every request with one decision.
type stub decision.Decision

func (s stub) Decide(decision.Request) decision.Decision { return decision.Decision(s) }

// recorder keeps the request and has no opinion.
type recorder func(decision.Request)

func (f recorder) Decide(r decision.Request) decision.Decision {
	f(r)
	return decision.Decision{}
}

// FuzzHandle: any stdin → no panic, and stdout empty or a valid answer.
func FuzzHandle(f *testing.F) {
	for _, s := range append(seeds, ``, `{}`, `[]`, `null`, `"x"`, "\uFEFF\uFEFF{}", `{"tool_input":{"command":1}}`) {
		f.Add([]byte(s))
	}
	env := hookiotest.Env(f.TempDir())
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		hookio.Run(agent, env, bytes.NewReader(in), &out, io.Discard)
		if err := hookiotest.CheckOutput(out.Bytes()); err != nil {
			t.Fatal(err)
		}
		if out.Len() > 0 {
			if err := checkAnswer(bytes.TrimSuffix(out.Bytes(), []byte("\n"))); err != nil {
				t.Fatalf("%v: %s", err, out.Bytes())
			}
		}
	})
}

// BenchmarkHook times the built binary on a typical payload against the
// `{}` floor (make bench).
func BenchmarkHook(b *testing.B) {
	hookiotest.Bench(b, ".", []byte(seeds[0]))
}
