package permission_test

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// The host-model property tests (<host>_model_test.go) hold gotk's whole
// decision (core/decision over core/permission) against a model of each
// host's own matching, transcribed from the host's shipped source: what
// the host does with the original command must be what it does with
// gotk's answer. Outcomes the model does not cover are outUnknown and
// never compared.

// outcome is what the host does with a command (the shared type of every
// host's model test).
type outcome = permissiontest.Outcome

const (
	outUnknown = permissiontest.OutUnknown
	outRun     = permissiontest.OutRun
	outAsk     = permissiontest.OutAsk
	outDeny    = permissiontest.OutDeny
)

// modelCase is one generated configuration of a host.
type modelCase struct {
	host  *host.Def
	home  string
	proj  string
	files map[string]string // path under home -> content
	vars  map[string]string
}

// engine writes the case's files into a fresh home and returns an engine
// that reads them, as the host's hook would.
func (c *modelCase) engine(t *testing.T) *decision.Engine {
	t.Helper()
	os.RemoveAll(c.home)
	for f, data := range c.files {
		p := filepath.Join(c.home, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(c.proj, 0o755); err != nil {
		t.Fatal(err)
	}
	vars := c.vars
	return &decision.Engine{Host: c.host, Env: permission.Env{
		Getenv:     func(k string) string { return vars[k] },
		Home:       c.home,
		Cwd:        c.proj,
		ManagedDir: filepath.Join(c.home, "managed"),
	}}
}

// hostAfter is what the host does with gotk's rewrite, given the verdict
// gotk's hook answered with.
type hostAfter func(rewritten string, answer decision.Verdict) outcome

// checkParity: where gotk rewrites, the host does with the rewrite what it
// would have done with the original. A passthrough or deny answer leaves
// the original to the host, which is parity by construction.
func checkParity(t *testing.T, what string, e *decision.Engine, line string, before outcome, after hostAfter) {
	t.Helper()
	d := e.Decide(decision.Request{Command: line, Cwd: e.Env.Cwd})
	if d.Verdict != decision.AllowRewrite && d.Verdict != decision.AskRewrite {
		return
	}
	if d.Command == line {
		t.Fatalf("%s\n%q: verdict %s without a rewrite", what, line, d.Verdict)
	}
	got := after(d.Command, d.Verdict)
	if before == outUnknown || got == outUnknown {
		return
	}
	if got != before {
		t.Fatalf("%s\nline %q: the host would %s it; gotk answers %s %q, which the host would %s",
			what, line, before, d.Verdict, d.Command, got)
	}
}

// genLine joins one to two generated simple commands with a control
// operator or a pipe.
func genLine(rng *rand.Rand, simple func() string) string {
	ops := []string{" && ", " || ", "; ", " | "}
	line := simple()
	if rng.Intn(3) == 0 {
		line += ops[rng.Intn(len(ops))] + simple()
	}
	return line
}

func pick(rng *rand.Rand, xs []string) string { return xs[rng.Intn(len(xs))] }

// splitLine splits a line of the generator's own constructs at its
// control operators and pipes (the generator never quotes them).
func splitLine(line string) []string {
	r := strings.NewReplacer("&&", "\x00", "||", "\x00", ";", "\x00", "|", "\x00")
	var out []string
	for _, s := range strings.Split(r.Replace(line), "\x00") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
