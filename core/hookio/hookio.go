// Package hookio is the never-block runtime every gotk-hook-<agent> binary
// runs inside. It sits at both ends of the flow: it reads the agent's hook
// JSON from stdin (at most MaxInput bytes, leading BOMs and whitespace
// stripped), hands it to the agent's pure Handle function together with a
// decision.Decider, and writes Handle's answer — one compact JSON line, or
// the agent's no-op form — to stdout.
//
// Whatever happens (bad JSON, an oversized or empty stdin, a missing config,
// a panic), a hook exits 0 and prints only the agent's answer or its no-op:
// several agents treat a failing hook as a deny (Copilot CLI) or block on
// unparseable output (cursor-agent), so a crash would stop the user's
// command. Diagnostics go to stderr, one line each.
//
// The Decider the runtime hands to Handle adds what every agent needs on top
// of decision.Engine: GOTK_DISABLED=1 turns everything off, a rewrite is
// dropped when the `gotk` it names cannot be found (an agent whose command
// then fails with "command not found" is worse off than without gotk), and
// every decision goes to the audit log when GOTK_HOOK_AUDIT=1.
package hookio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/host"
)

// MaxInput is the most stdin a hook reads: 1 MiB. A larger input gets the
// agent's no-op.
const MaxInput = 1 << 20

// drainLimit bounds how much of an oversized stdin is read and discarded,
// so the agent does not see a broken pipe while it is still writing.
const drainLimit = 64 << 20

// Agent is what one hook binary adds to the runtime: its name, whose
// permission rules apply, its no-op answer and its dialect (Handle).
type Agent struct {
	// Name is the agent's short name ("claude"); the binary is
	// gotk-hook-<Name>, and it names the agent in the audit log.
	Name string
	// Host is the agent as gotk knows it (core/hosts/<name>): its rules,
	// session flags and answer policy.
	Host *host.Def
	// NoOp is the answer when the hook has no opinion: nil prints nothing,
	// otherwise NoOp and a newline (Cursor: `{}`).
	NoOp []byte
	// AbsoluteGotk names gotk by its absolute path in rewrites, for agents
	// whose command shell does not inherit the hook's PATH (Codex runs
	// commands in a login shell).
	AbsoluteGotk bool
	// Handle turns the agent's input into its answer. It must be pure: all
	// it may learn about the world comes through the Decider.
	Handle func(input []byte, d decision.Decider) []byte
}

// Env is the outside world of one invocation; tests pass their own.
type Env struct {
	Getenv func(string) string
	Home   string
	// Cwd is the process's working directory; when "", Getwd gives it,
	// asked only by a decision that reads rule files.
	Cwd   string
	Getwd func() (string, error)
	Now   func() time.Time
	// LookPath finds a program on the hook's PATH (exec.LookPath).
	LookPath func(string) (string, error)
	// AppendFile appends data to a file, creating it (and its directory)
	// private to the user.
	AppendFile func(path string, data []byte) error
	// Session reads the flags of the host process running the hook.
	Session func(*host.Def) host.Session
}

// Run is one hook invocation: read stdin, answer on stdout, explain on
// stderr. It never panics and never fails; the caller exits 0.
func Run(a Agent, env Env, stdin io.Reader, stdout, stderr io.Writer) {
	env = env.withDefaults()
	diag := &diagnostics{w: stderr, prog: "gotk-hook-" + a.Name}
	answer := a.NoOp
	var g *guard
	func() {
		defer func() {
			if r := recover(); r != nil {
				answer = a.NoOp
				diag.warn(fmt.Sprintf("%s: internal error (%v); the command runs unchanged", diag.prog, r))
			}
		}()
		input, ok := readInput(stdin)
		if !ok {
			diag.warn(diag.prog + ": stdin is larger than 1 MiB (or unreadable); the command runs unchanged")
			return
		}
		if len(input) == 0 || disabled(env) {
			return
		}
		g = newGuard(a, env, diag)
		out := a.Handle(input, g)
		switch {
		case len(out) == 0:
		case !json.Valid(out):
			diag.warn(diag.prog + ": produced an invalid answer; the command runs unchanged")
		default:
			answer = compact(out)
		}
	}()
	if len(answer) > 0 {
		// One write: the agent sees the whole line or nothing.
		stdout.Write(append(append([]byte(nil), answer...), '\n'))
	}
	if g != nil {
		func() {
			defer func() { recover() }() // the audit log is best effort
			g.audit(answer, a.NoOp)
		}()
	}
}

// readInput reads at most MaxInput bytes and strips leading UTF-8 BOMs and
// whitespace (Windows hosts send one or two BOMs). ok is false when the
// input is larger than MaxInput or cannot be read.
func readInput(r io.Reader) (input []byte, ok bool) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return nil, false
	}
	if len(data) > MaxInput {
		io.Copy(io.Discard, io.LimitReader(r, drainLimit))
		return nil, false
	}
	for {
		trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\uFEFF")), " \t\r\n")
		if len(trimmed) == len(data) {
			break
		}
		data = trimmed
	}
	return bytes.TrimRight(data, " \t\r\n"), true
}

// disabled reports GOTK_DISABLED=1 (or RTK_DISABLED=1), as the engine
// defines it, without loading any configuration.
func disabled(env Env) bool {
	return decision.Disabled(env.Getenv)
}

// compact returns out as one line; Handle's answers normally are already.
func compact(out []byte) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, out); err != nil {
		return out
	}
	return b.Bytes()
}

// diagnostics prints each distinct warning once, as one line.
type diagnostics struct {
	w    io.Writer
	prog string
	seen map[string]bool
}

func (d *diagnostics) warn(lines ...string) {
	for _, l := range lines {
		l = strings.Join(strings.Fields(l), " ")
		if l == "" || d.seen[l] {
			continue
		}
		if d.seen == nil {
			d.seen = map[string]bool{}
		}
		d.seen[l] = true
		io.WriteString(d.w, l+"\n")
	}
}

// Main runs the hook for a on the real stdin, stdout and environment, and
// exits 0. Asked --version or --help, it answers that instead (OwnFlags).
func Main(a Agent) {
	if OwnFlags(a, os.Args[1:], os.Stdout) {
		os.Exit(0)
	}
	Run(a, OSEnv(), os.Stdin, os.Stdout, os.Stderr)
	os.Exit(0)
}
