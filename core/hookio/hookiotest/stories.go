package hookiotest

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/hookio"
	"github.com/gotk-dev/gotk/core/shell/shelltest"
	"github.com/rogpeppe/go-internal/testscript"
)

// Stories runs the stories every hook shares — stories/*.txtar beside this
// file, written once for all agents — against the agent's real binary, and
// then generated bash through the agent's in-process runtime.
//
// A story names the hook $HOOK and builds its stdin with
//
//	call CMDFILE OUT        the agent's payload (seed with its command
//	                        replaced by CMDFILE's contents, no trailing newline)
//	answer none             stdout is exactly the agent's no-op (nothing for most)
//	answer rewrite [CMD]    stdout is a valid rewrite, to CMD when given (the
//	                        gotk it names by absolute path counts as `gotk`)
//
// and the commands every scenario has (payload, bom).
//
// seed is one of the agent's payloads whose command is a plain `git
// status`; checkAnswer is its fuzz target's answer check.
func Stories(t *testing.T, a hookio.Agent, seed string, checkAnswer func([]byte) error) {
	_, file, _, _ := runtime.Caller(0)
	p := testscript.Params{
		Dir: filepath.Join(filepath.Dir(file), "stories"),
		Setup: func(e *testscript.Env) error {
			e.Setenv("HOOK", "gotk-hook-"+a.Name)
			return Setup(e.WorkDir, e.Setenv, e.Getenv)
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"call": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: call CMDFILE OUT")
				}
				cmd := strings.TrimSuffix(ts.ReadFile(args[0]), "\n")
				ts.Check(os.WriteFile(ts.MkAbs(args[1]), WithCommand([]byte(seed), cmd), 0o644))
			},
			"answer": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 1 || len(args) > 2 {
					ts.Fatalf("usage: answer none|rewrite [CMD]")
				}
				out := []byte(ts.ReadFile("stdout"))
				ts.Check(CheckOutput(out))
				line := bytes.TrimSuffix(out, []byte("\n"))
				none := bytes.Equal(line, a.NoOp) // nil NoOp: nothing at all
				switch args[0] {
				case "none":
					if !none {
						ts.Fatalf("want the no-op %q, got %q", a.NoOp, line)
					}
				case "rewrite":
					if none {
						ts.Fatalf("want a rewrite, got the no-op")
					}
					ts.Check(checkAnswer(line))
					if len(args) == 2 {
						var v any
						json.Unmarshal(line, &v)
						got := strings.ReplaceAll(RewrittenCommand(v), ts.Getenv("GOTK")+" ", "gotk ")
						if got != args[1] {
							ts.Fatalf("rewritten to %q, want %q", got, args[1])
						}
					}
				default:
					ts.Fatalf("answer none|rewrite")
				}
			},
		},
	}
	for name, f := range Cmds {
		p.Cmds[name] = func(ts *testscript.TestScript, neg bool, args []string) {
			if neg {
				ts.Fatalf("unsupported: ! %s", name)
			}
			ts.Check(f(args, ts.MkAbs))
		}
	}
	t.Run("shared", func(t *testing.T) { testscript.Run(t, p) })
	t.Run("generated", func(t *testing.T) { generated(t, a, seed, checkAnswer) })
}

// generated runs a few hundred lines of generated bash through the hook:
// each gets a valid answer or the no-op, and never a crash.
func generated(t *testing.T, a hookio.Agent, seed string, checkAnswer func([]byte) error) {
	r := rand.New(rand.NewPCG(31, uint64(len(a.Name))))
	env := Env(t.TempDir())
	for i := 0; i < 300; i++ {
		cmd := shelltest.Gen(r, 1+r.IntN(4))
		var out bytes.Buffer
		hookio.Run(a, env, bytes.NewReader(WithCommand([]byte(seed), cmd)), &out, io.Discard)
		if err := CheckOutput(out.Bytes()); err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
		line := bytes.TrimSuffix(out.Bytes(), []byte("\n"))
		if len(line) > 0 && !bytes.Equal(line, a.NoOp) {
			if err := checkAnswer(line); err != nil {
				t.Fatalf("%q: %v: %s", cmd, err, line)
			}
		}
	}
}

// WithCommand returns payload with its shell command replaced by cmd —
// tool_input.command, or toolArgs.command where toolArgs is an object or
// the JSON text of one, or Cline's tool_call.input.commands (a list of one)
// — and without the working directory fields, so the hook decides in its
// own working directory.
func WithCommand(payload []byte, cmd string) []byte {
	var m map[string]any
	if json.Unmarshal(payload, &m) != nil {
		return payload
	}
	for _, k := range []string{"cwd", "workspace_roots", "workspaceRoots"} {
		delete(m, k)
	}
	// Cline: tool_call.input.commands is a list of commands.
	if tc, ok := m["tool_call"].(map[string]any); ok {
		if in, ok := tc["input"].(map[string]any); ok {
			in["commands"] = []any{cmd}
		}
	}
	for _, k := range []string{"tool_input", "toolArgs"} {
		switch v := m[k].(type) {
		case map[string]any:
			v["command"] = cmd
			delete(v, "working_directory")
			delete(v, "dir_path")
		case string:
			var inner map[string]any
			if json.Unmarshal([]byte(v), &inner) == nil {
				inner["command"] = cmd
				b, _ := json.Marshal(inner)
				m[k] = string(b)
			}
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return payload
	}
	return out
}

// RewrittenCommand returns the shell command in a hook's answer: the
// "command" of its updated input, in any agent's dialect ("" when none).
func RewrittenCommand(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	if c, ok := m["command"].(string); ok {
		return c
	}
	if l, ok := m["commands"].([]any); ok && len(l) == 1 {
		c, _ := l[0].(string)
		return c // Cline's run_commands
	}
	for _, k := range []string{"hookSpecificOutput", "hook_specific_output", "updatedInput", "updated_input", "tool_input", "modifiedArgs", "overrideInput"} {
		if c := RewrittenCommand(m[k]); c != "" {
			return c
		}
	}
	return ""
}
