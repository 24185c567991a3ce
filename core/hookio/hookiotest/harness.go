package hookiotest

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/rogpeppe/go-internal/testscript"
)

// Main is an agent module's TestMain: it lets testscript scenarios run the
// hook binary by name, and runs benchmarks under the agent's name (Bench).
func Main(m *testing.M, binary string, main func()) {
	underAgent(strings.TrimPrefix(binary, "gotk-hook-"), binary)
	testscript.Main(m, map[string]func(){binary: main})
}

// Scripts runs the module's testdata/*.txtar scenarios in the world Setup
// prepares, with the commands of Cmds.
func Scripts(t *testing.T) { ScriptsWith(t, nil) }

// ScriptsWith is Scripts with one more setup step of the agent's own.
func ScriptsWith(t *testing.T, setup func(e *testscript.Env) error) {
	p := testscript.Params{
		Dir: "testdata",
		Setup: func(e *testscript.Env) error {
			if err := Setup(e.WorkDir, e.Setenv, e.Getenv); err != nil {
				return err
			}
			if setup != nil {
				return setup(e)
			}
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){},
	}
	for name, f := range Cmds {
		p.Cmds[name] = func(ts *testscript.TestScript, neg bool, args []string) {
			if neg {
				ts.Fatalf("unsupported: ! %s", name)
			}
			ts.Check(f(args, ts.MkAbs))
		}
	}
	testscript.Run(t, p)
}

// Fuzz checks that any stdin gives no panic and an output that is empty or
// a valid answer of the agent (checkAnswer sees it without its newline).
func Fuzz(f *testing.F, agent hookio.Agent, seeds []string, checkAnswer func([]byte) error) {
	for _, s := range append(seeds, ``, `{}`, `[]`, `null`, `"x"`, "\uFEFF\uFEFF{}", `{"tool_input":{"command":1}}`) {
		f.Add([]byte(s))
	}
	env := Env(f.TempDir())
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		hookio.Run(agent, env, bytes.NewReader(in), &out, io.Discard)
		if err := CheckOutput(out.Bytes()); err != nil {
			t.Fatal(err)
		}
		if out.Len() > 0 {
			if err := checkAnswer(bytes.TrimSuffix(out.Bytes(), []byte("\n"))); err != nil {
				t.Fatalf("%v: %s", err, out.Bytes())
			}
		}
	})
}

// Stub is a Decider that answers every request with one decision.
type Stub decision.Decision

// Decide implements decision.Decider.
func (s Stub) Decide(decision.Request) decision.Decision { return decision.Decision(s) }

// Recorder is a Decider that hands each request to the function and has no
// opinion.
type Recorder func(decision.Request)

// Decide implements decision.Decider.
func (f Recorder) Decide(r decision.Request) decision.Decision {
	f(r)
	return decision.Decision{}
}
