package runner

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNeedsCompanion: which commands gotk hands over when it does not link
// SQLite, the tokenizer or Starlark — and that the tests' own gotk links
// them all (wire_test.go), so it hands over nothing.
func TestNeedsCompanion(t *testing.T) {
	for _, args := range [][]string{{"gain"}, {"recall", "abc"}, {"discover"}, {foldPending}, {"rewrite", "--host", "codex", "git", "status"}, {"explain", "--host=codex", "ls"}} {
		if needsCompanion(args) {
			t.Errorf("%q: the tests' gotk links everything, yet it would hand over", args)
		}
	}
	for _, args := range [][]string{{"rewrite", "git", "status"}, {"explain", "--host", "claude", "ls"}} {
		if codexHost(args[1:]) {
			t.Errorf("%q: not Codex", args)
		}
	}
	if !codexHost([]string{"--json", "--host", "codex", "git", "log"}) || !codexHost([]string{"--host=codex", "ls"}) {
		t.Error("--host codex not seen")
	}
}

// TestFindCompanion: beside the real executable (through a symlink to it),
// else on PATH, else a clear error.
func TestFindCompanion(t *testing.T) {
	dir := t.TempDir()
	bin, link := filepath.Join(dir, "bin"), filepath.Join(dir, "links")
	os.MkdirAll(bin, 0o755)
	os.MkdirAll(link, 0o755)
	os.WriteFile(filepath.Join(bin, "gotk"), []byte("x"), 0o755)
	os.WriteFile(filepath.Join(bin, Companion), []byte("x"), 0o755)
	os.Symlink(filepath.Join(bin, "gotk"), filepath.Join(link, "gotk"))
	exe := func() (string, error) { return filepath.Join(link, "gotk"), nil }
	none := func(string) (string, error) { return "", exec.ErrNotFound }
	if got, err := findCompanion(exe, none); err != nil || got != filepath.Join(bin, Companion) {
		t.Errorf("beside the symlinked gotk: %q, %v", got, err)
	}
	os.Remove(filepath.Join(bin, Companion))
	onPath := func(string) (string, error) { return "/opt/x/" + Companion, nil }
	if got, err := findCompanion(exe, onPath); err != nil || got != "/opt/x/"+Companion {
		t.Errorf("on PATH: %q, %v", got, err)
	}
	if _, err := findCompanion(exe, none); err == nil {
		t.Error("no companion anywhere: no error")
	}
}

// TestCompanionBinaries builds gotk and gotk-report as make builds them:
// gotk links no SQLite, and hands `gotk gain` and `gotk recall` to
// gotk-report, which reads the run gotk appended; without gotk-report
// beside it or on PATH, gotk says so in one line and exits 1.
func TestCompanionBinaries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	dir := t.TempDir()
	for _, name := range []string{"gotk", Companion} {
		cmd := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, name), "./cmd/"+name)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", name, err, out)
		}
	}
	deps, err := exec.Command("go", "list", "-deps", "./cmd/gotk").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, heavy := range []string{"modernc.org/sqlite", "github.com/tiktoken-go/tokenizer", "go.starlark.net/starlark"} {
		if bytes.Contains(deps, []byte(heavy+"\n")) {
			t.Errorf("gotk links %s", heavy)
		}
	}
	data := t.TempDir()
	env := append(os.Environ(), "XDG_DATA_HOME="+data, "GOTK_TRACK=", "GOTK_RAW=", "PATH="+os.Getenv("PATH"))
	run := func(bin string, args ...string) (string, int) {
		cmd := exec.Command(filepath.Join(dir, bin), args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("%s %q: %v", bin, args, err)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	if out, code := run("gotk", "ls", "-la", dir); code != 0 {
		t.Fatalf("gotk ls: %d\n%s", code, out)
	}
	out, code := run("gotk", "gain", "--json")
	if code != 0 || !strings.Contains(out, `"runs": 1`) {
		t.Errorf("gotk gain --json through %s: exit %d\n%s", Companion, code, out)
	}
	if out, code := run("gotk", "recall", "--list"); code != 0 {
		t.Errorf("gotk recall --list: exit %d\n%s", code, out)
	}
	if out, code := run("gotk", "gain", "--bogus"); code != 2 {
		t.Errorf("a usage error keeps its exit code through %s: %d\n%s", Companion, code, out)
	}
	os.Remove(filepath.Join(dir, Companion))
	env = append(env, "PATH=/nonexistent")
	out, code = run("gotk", "gain")
	if code != 1 || strings.Count(strings.TrimSpace(out), "\n") != 0 || !strings.Contains(out, Companion) {
		t.Errorf("without %s: exit %d, want 1 and one line naming it:\n%s", Companion, code, out)
	}
}
