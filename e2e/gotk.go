package e2e

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// GotkBinDir is where gotk's own binaries are: $GOTK_E2E_GOTK_BIN, else the
// repo's bin/ that `make build` fills.
func GotkBinDir() string {
	if d := os.Getenv(EnvGotkBin); d != "" {
		abs, _ := filepath.Abs(d)
		return abs
	}
	return filepath.Join(filepath.Dir(moduleDir()), "bin")
}

// RequireGotk skips t unless gotk, gotk-install and agent a's hook binary
// (for agents with command hooks) are built, and returns their directory.
func RequireGotk(t testing.TB, a *Agent) string {
	t.Helper()
	dir := GotkBinDir()
	need := []string{"gotk", "gotk-install"}
	if a.addHook != nil {
		need = append(need, "gotk-hook-"+a.Name)
	}
	for _, n := range need {
		if !isExecutable(filepath.Join(dir, n)) {
			t.Skipf("%s: %s is not built in %s; run `make build` at the repo root (or set %s)", a.Name, n, dir, EnvGotkBin)
		}
	}
	return dir
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

var (
	installerHelpOnce sync.Once
	installerHelp     string
)

// InstallGotk runs the real installer for this run's agent, as a user
// would: `gotk-install --agent NAME --bin-dir DIR` with the run's HOME and
// environment, in the project. gotk's bin dir is then put first on the
// agent's PATH.
func (e *Env) InstallGotk(bin string) string {
	e.T.Helper()
	installer := filepath.Join(bin, "gotk-install")
	installerHelpOnce.Do(func() {
		out, _ := exec.Command(installer, "--help").CombinedOutput()
		installerHelp = string(out)
	})
	args := []string{"--agent", e.Agent.Name, "--bin-dir", bin}
	// Stdin is not a terminal here; pass the installer's "don't ask" flag
	// when it has one.
	for _, yes := range []string{"--yes", "--no-confirm"} {
		if strings.Contains(installerHelp, yes) {
			args = append(args, yes)
			break
		}
	}
	e.ExtraPath = append([]string{bin}, e.ExtraPath...)
	return e.runInstaller(installer, args)
}

// runInstaller runs gotk-install in the project with the run's
// environment; a failure ends the test with its output.
func (e *Env) runInstaller(installer string, args []string) string {
	e.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, installer, args...)
	cmd.Dir = e.Project
	cmd.Env = e.environ()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		e.T.Fatalf("gotk-install %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	e.T.Logf("gotk-install %s:\n%s", strings.Join(args, " "), out.String())
	return out.String()
}

// Verify runs `gotk verify` from bin in the project with the run's
// environment (before the run, so its PATH), and returns its output and
// exit code.
func (e *Env) Verify(bin string) (string, int) {
	e.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "gotk"), "verify")
	cmd.Dir = e.Project
	cmd.Env = e.environ()
	out, err := cmd.CombinedOutput()
	e.T.Logf("gotk verify:\n%s", out)
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	case err != nil:
		e.T.Fatalf("gotk verify: %v", err)
	}
	return string(out), 0
}

// cwdTag is Crush's note of the working directory after a command.
var cwdTag = regexp.MustCompile(`<cwd>[^<]*</cwd>`)

// volatile matches the parts of tool results that change from run to run.
var volatile = regexp.MustCompile(`(Chunk ID: )\S+|(Wall time: )[0-9.]+ seconds|(Process Group PGID: )\d+`)

// Normalize blanks the run-specific parts of a tool result (Codex's chunk
// ID and wall time, Gemini CLI's process group), so that two runs of the
// same command compare equal.
func Normalize(s string) string {
	s = cwdTag.ReplaceAllString(s, "<cwd>X</cwd>") // Crush names the run's project
	return volatile.ReplaceAllStringFunc(s, func(m string) string {
		if i := strings.Index(m, ": "); i >= 0 {
			return m[:i+2] + "X"
		}
		return m
	})
}
