package filter

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// BoundHead adds -n N+1 where the user did not bound the log, after `log`
// (before any pathspec), and leaves alone what -n would reorder or
// redraw.
func TestGitLogBoundHead(t *testing.T) {
	for in, want := range map[string]string{
		"git log":                       "git log -n 21",
		"git log --stat -- a.go":        "git log -n 21 --stat -- a.go",
		"git -C sub log --oneline main": "git -C sub log -n 21 --oneline main",
		"git log -n 5":                  "git log -n 5",
		"git log -5":                    "git log -5",
		"git log --max-count=3":         "git log --max-count=3",
		"git log --reverse":             "git log --reverse",
		"git log --graph --oneline":     "git log --graph --oneline",
		"git log --boundary a..b":       "git log --boundary a..b",
		"git show":                      "git show",
	} {
		argv := strings.Fields(in)
		if got := strings.Join(gitLog{}.BoundHead(argv, 0, 20), " "); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// TestGitLogBoundHeadAsGitRuns: over a made history with branches and
// merges, for flags picked at random, the first N lines of the log
// BoundHead bounds are the first N lines of the log as typed.
func TestGitLogBoundHeadAsGitRuns(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	env := append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=Ann", "GIT_AUTHOR_EMAIL=a@x",
		"GIT_COMMITTER_NAME=Ann", "GIT_COMMITTER_EMAIL=a@x", "GIT_AUTHOR_DATE=2026-01-02T10:00:00Z", "GIT_COMMITTER_DATE=2026-01-02T10:00:00Z")
	try := func(args ...string) (string, error) {
		c := exec.Command(git, args...)
		c.Dir, c.Env = dir, env
		out, err := c.CombinedOutput()
		return string(out), err
	}
	run := func(args ...string) string {
		t.Helper()
		out, err := try(args...)
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return out
	}
	rng := rand.New(rand.NewSource(3))
	run("init", "-q", "-b", "main")
	for i := range 40 {
		if i%10 == 5 {
			run("checkout", "-q", "-b", fmt.Sprint("topic", i))
		}
		f := fmt.Sprintf("f%d.txt", rng.Intn(6))
		os.WriteFile(filepath.Join(dir, f), []byte(strings.Repeat(fmt.Sprintln("line", i), 1+rng.Intn(4))), 0o644)
		run("add", f)
		run("commit", "-q", "-m", fmt.Sprintf("change %d\n\nbody of change %d", i, i))
		if i%10 == 8 {
			run("checkout", "-q", "main")
			run("merge", "-q", "--no-ff", "-m", fmt.Sprint("merge ", i), fmt.Sprint("topic", i-3))
		}
	}
	flags := []string{"--oneline", "--stat", "-p", "--format=%s", "--skip=2", "--topo-order", "--date-order", "--first-parent",
		"--merges", "--no-merges", "--all", "--decorate", "--author=Ann", "-S", "--name-only", "--reverse", "--graph", "--", "f1.txt"}
	for iter := range 120 {
		var argv []string
		for _, f := range flags {
			if rng.Intn(5) == 0 {
				if f == "-S" {
					argv = append(argv, "-Sline 1")
					continue
				}
				argv = append(argv, f)
			}
		}
		if i := slices.Index(argv, "--"); i >= 0 && i == len(argv)-1 {
			argv = argv[:i]
		}
		n := []int{1, 3, 7, 20, 60}[iter%5]
		typed := append([]string{"log"}, argv...)
		bounded := gitLog{}.BoundHead(append([]string{"git"}, typed...), 0, n)[1:]
		head := func(s string) string {
			ls := strings.SplitAfter(s, "\n")
			return strings.Join(ls[:min(n, len(ls))], "")
		}
		rawOut, rawErr := try(typed...)
		boundOut, boundErr := try(bounded...)
		if (rawErr == nil) != (boundErr == nil) {
			t.Errorf("git %q failed %v, bounded as %q %v", typed, rawErr, bounded, boundErr)
		}
		if a, b := head(rawOut), head(boundOut); a != b {
			t.Errorf("git %q | head -%d differs bounded as %q:\n--- as typed\n%s--- bounded\n%s", typed, n, bounded, a, b)
		}
	}
}
