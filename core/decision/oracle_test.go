package decision

import (
	"context"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gotk-dev/gotk/core/shell/shelltest"
)

// The principle, proved by running: over generated bash holding every
// node kind of the parser (shelltest.NodeKinds) and payloads that create a
// file — the program touch, a PATH=evil of look-alike programs, and the
// value a[$(touch pwned)] that runs touch wherever bash evaluates it as
// arithmetic — a line any host's engine allows never runs a payload and
// never creates a file when bash runs what gotk answered, in a sandbox: a
// temporary project, a PATH of stub programs only, no environment of the
// machine.

// sandbox is where the oracle runs lines.
type sandbox struct {
	proj, bin, marker, tmp string
	bash                   string
}

// newSandbox makes stubs for every program the generator names in bin
// (they exit 0; touch creates the marker), the same names in proj/evil
// (each creates the marker), and gotk, which runs its arguments.
func newSandbox(t testing.TB, home, proj string) *sandbox {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the oracle")
	}
	s := &sandbox{proj: proj, bin: filepath.Join(home, "bin"), marker: filepath.Join(home, "pwned"), tmp: filepath.Join(home, "tmp"), bash: bash}
	evil := filepath.Join(proj, "evil")
	for _, d := range []string{s.bin, evil, s.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mark := "#!/bin/sh\n: > " + s.marker + "\n"
	stub := func(dir, name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range append(shelltest.Programs(), "true", "false", "status", "log") {
		body := "#!/bin/sh\nexit 0\n"
		if p == "touch" {
			body = mark
		}
		stub(s.bin, p, body)
		stub(evil, p, mark)
	}
	stub(s.bin, "gotk", "#!/bin/sh\nexec \"$@\"\n")
	stub(evil, "gotk", mark)
	return s
}

// run runs line under bash in the project and reports whether a payload
// ran, and the files it created in the project.
func (s *sandbox) run(t testing.TB, line string) (ran bool, created []string) {
	t.Helper()
	os.Remove(s.marker)
	before := s.files(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// `wait`: a coprocess or a background job finishes before we look.
	cmd := exec.CommandContext(ctx, s.bash, "--norc", "--noprofile", "-O", "extglob", "-c", line+"\nwait")
	cmd.Dir = s.proj
	cmd.Env = []string{"PATH=" + s.bin, "HOME=" + filepath.Dir(s.bin), "TMPDIR=" + s.tmp, "LC_ALL=C"}
	cmd.Run() // the exit status says nothing here
	if ctx.Err() != nil {
		t.Errorf("bash did not finish %q", line)
	}
	_, err := os.Stat(s.marker)
	ran = err == nil
	for f := range s.files(t) {
		if !before[f] {
			created = append(created, f)
		}
	}
	for _, f := range created {
		os.RemoveAll(filepath.Join(s.proj, f))
	}
	return ran, created
}

func (s *sandbox) files(t testing.TB) map[string]bool {
	out := map[string]bool{}
	filepath.WalkDir(s.proj, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(s.proj, p)
		out[rel] = true
		return nil
	})
	return out
}

// oracle decides line on every host and runs each rewrite gotk allows;
// it returns how many ran.
func oracle(t testing.TB, engines map[string]*Engine, sb *sandbox, line string) int {
	t.Helper()
	ran := 0
	for host, e := range engines {
		d := e.Decide(Request{Command: line, ReadOnlyAutoAllow: host == "claude"})
		if d.Verdict != AllowRewrite {
			continue
		}
		ran++
		payload, created := sb.run(t, d.Command)
		if payload || len(created) > 0 {
			t.Errorf("%s allows a line that runs a payload (%v) or creates files %v:\n  %q\n  → %q", host, payload, created, line, d.Command)
		}
	}
	return ran
}

// TestSandboxOracle: the oracle sees a payload run (else it proves
// nothing), and no generated line any engine allows runs one.
func TestSandboxOracle(t *testing.T) {
	engines := hostEngines(t)
	home := engines["claude"].Env.Home
	sb := newSandbox(t, home, engines["claude"].Env.Cwd)
	for _, live := range []string{
		"x='" + shelltest.Payload + "'; (( x )); git status",
		"PATH=evil; git status",
		"declare \"PATH=evil\"; git status",
		"touch x",
	} {
		if ran, _ := sb.run(t, live); !ran {
			t.Fatalf("the oracle does not see %q run its payload", live)
		}
	}
	if _, created := sb.run(t, "echo > out.txt"); len(created) != 1 {
		t.Fatalf("the oracle does not see `echo > out.txt` create a file: %v", created)
	}

	n := 1000
	if testing.Short() {
		n = 200
	}
	r := rand.New(rand.NewPCG(41, 42))
	ran := 0
	start := time.Now()
	for i := 0; i < n; i++ {
		ran += oracle(t, engines, sb, oracleLine(r))
	}
	if ran < n/100 {
		t.Errorf("only %d allowed lines of %d ran: the oracle proves little", ran, n)
	}
	t.Logf("%d lines, %d allowed rewrites run under bash, in %v", n, ran, time.Since(start))
}

// readOnly are commands every engine allows in the project: beside a
// generated line, they are what a payload would hide behind.
var readOnly = []string{"git status", "ls", "cat notes.txt", "git diff", "ls src"}

// oracleVocab draws commands mostly from what the engines allow, with the
// builtins that assign, evaluate or redefine, and the payload touch.
var oracleVocab = shelltest.Vocab{
	Programs: []string{"git", "git", "ls", "ls", "cat", "echo", "pwd", "wc", "head", "printf", "file", "du", "cd", "test",
		"read", "mapfile", "set", "touch", "timeout", "command", "builtin", "eval", "source", "go"},
	Words: []string{"status", "diff", "log", "-la", "notes.txt", "src", "-n", "3", "-l", "-v", "PATH", "x", "a[x]", "PATH=evil",
		shelltest.Payload, "-C", "-m", "--files0-from=notes.txt", "pwned", "a b", "..", "-", "evil", "declare", "let", "test", "./..."},
}

// oracleLine joins a few small generated lines, a read-only command, and
// often first an assignment of a payload to x, the name the generator's
// arithmetic reads: the combinations a payload hides in.
func oracleLine(r *rand.Rand) string {
	var parts []string
	if r.IntN(2) == 0 {
		v := []string{shelltest.Payload, "PATH=0", "evil"}[r.IntN(3)]
		parts = append(parts, "x="+shelltest.Spell(r, v))
	}
	for n := 1 + r.IntN(2); n > 0; n-- {
		parts = append(parts, shelltest.GenFrom(r, r.IntN(2), oracleVocab))
	}
	ro := readOnly[r.IntN(len(readOnly))]
	at := r.IntN(len(parts) + 1)
	parts = append(parts[:at], append([]string{ro}, parts[at:]...)...)
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString([]string{"; ", "\n", " && ", " || "}[r.IntN(4)])
		}
		b.WriteString(p)
	}
	return b.String()
}

// FuzzSandboxOracle explores the generator's space under the oracle (make
// fuzz).
func FuzzSandboxOracle(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	engines := hostEngines(f)
	sb := newSandbox(f, engines["claude"].Env.Home, engines["claude"].Env.Cwd)
	f.Fuzz(func(t *testing.T, a, b uint64) {
		r := rand.New(rand.NewPCG(a, b))
		oracle(t, engines, sb, oracleLine(r))
	})
}
