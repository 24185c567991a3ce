package runner

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkOverhead measures what gotk adds to a fast command: each
// iteration runs `git status` and `gotk git status` side by side on a
// repository with 50 changes, and the report gives both medians, their
// difference (added-ms, target ≤ 3) and their ratio (x-direct). The gotk binary is built as `make build` builds
// it, and records each run in a temporary database, as in real use.
func BenchmarkOverhead(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not found")
	}
	gotk := buildGotk(b)
	repo := smallRepo(b)
	data := b.TempDir()
	for _, bc := range []struct {
		name string
		env  []string
		cmd  []string
	}{
		{"git-status", nil, []string{"git", "status"}},
		{"git-status-notrack", []string{"GOTK_TRACK=0"}, []string{"git", "status"}},
		{"git-status-raw", []string{"GOTK_RAW=1"}, []string{"git", "status"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			env := append(os.Environ(), "XDG_DATA_HOME="+data, "GOTK_TRACK=", "GOTK_RAW=")
			env = append(env, bc.env...)
			base := exec.Command(bc.cmd[0], bc.cmd[1:]...)
			with := exec.Command(gotk, bc.cmd...)
			var direct, wrapped, directCPU, wrappedCPU []float64
			run := func(proto *exec.Cmd, wall, cpu *[]float64) {
				w, c := timeRun(b, proto, repo, env)
				*wall, *cpu = append(*wall, w), append(*cpu, c)
			}
			for i := 0; b.Loop(); i++ {
				// Alternate the order so neither side always runs warm.
				if i%2 == 0 {
					run(base, &direct, &directCPU)
					run(with, &wrapped, &wrappedCPU)
				} else {
					run(with, &wrapped, &wrappedCPU)
					run(base, &direct, &directCPU)
				}
			}
			d, w := median(direct), median(wrapped)
			b.ReportMetric(d, "direct-ms")
			b.ReportMetric(w, "gotk-ms")
			b.ReportMetric(w-d, "added-ms")
			b.ReportMetric(w/d, "x-direct")
			// CPU time (user+sys of gotk and what it ran) is steadier than
			// wall time on a loaded machine.
			b.ReportMetric(median(wrappedCPU)-median(directCPU), "added-cpu-ms")
			b.ReportMetric(0, "ns/op") // the pair's time is not the point
		})
	}
	// A bare Go process on this machine: what the added time is measured
	// against (process start costs vary many-fold between machines, and
	// between days on a shared one).
	b.Run("go-floor", func(b *testing.B) {
		floor := buildFloor(b)
		var ms []float64
		for b.Loop() {
			w, _ := timeRun(b, exec.Command(floor), repo, os.Environ())
			ms = append(ms, w)
		}
		b.ReportMetric(median(ms), "floor-ms")
		b.ReportMetric(0, "ns/op")
	})
	// The decision path the hooks and plugins call never opens the database.
	b.Run("rewrite", func(b *testing.B) {
		cmd := exec.Command(gotk, "rewrite", "--json", "git", "status")
		env := append(os.Environ(), "XDG_DATA_HOME="+b.TempDir())
		var ms []float64
		for b.Loop() {
			w, _ := timeRun(b, cmd, repo, env)
			ms = append(ms, w)
		}
		b.ReportMetric(median(ms), "rewrite-ms")
		b.ReportMetric(0, "ns/op")
	})
}

// timeRun runs a copy of proto and returns its wall and CPU time in ms.
func timeRun(b *testing.B, proto *exec.Cmd, dir string, env []string) (wall, cpu float64) {
	cmd := exec.Command(proto.Path, proto.Args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v\n%s", cmd, err, out.Bytes())
	}
	wall = float64(time.Since(t0).Microseconds()) / 1000
	ps := cmd.ProcessState
	return wall, float64((ps.UserTime() + ps.SystemTime()).Microseconds()) / 1000
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// buildGotk builds gotk and its companion gotk-report side by side, the
// way `make build` does (gotk hands gain, recall and discover to the
// companion it finds beside itself), and returns gotk's path.
func buildGotk(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	for _, name := range []string{"gotk", Companion} {
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", filepath.Join(dir, name), "./cmd/"+name)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", name, err, msg)
		}
	}
	return filepath.Join(dir, "gotk")
}

// buildFloor builds a Go program that only starts and exits, as gotk is
// built.
func buildFloor(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module floor\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	out := filepath.Join(dir, "floor")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build floor: %v\n%s", err, msg)
	}
	return out
}

// smallRepo is a repository with a commit, a modified, a staged, a
// renamed and an untracked file.
func smallRepo(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	git("init", "-q")
	for _, f := range []string{"a.go", "b.go", "c.go", "d.md", "e.txt"} {
		write(f, "package x\n// "+f+"\n")
	}
	git("add", ".")
	git("commit", "-qm", "init")
	write("a.go", "package x\n// changed\n")
	write("new.txt", "untracked\n")
	write("f.txt", "staged\n")
	git("add", "f.txt")
	git("mv", "e.txt", "renamed.txt")
	// 50 changes in all, as in the runner-overhead measure: tracked files changed,
	// new files staged, untracked files.
	for i := range 15 {
		write(fmt.Sprintf("m%02d.go", i), "package x\n")
	}
	git("add", ".")
	git("commit", "-qm", "more")
	for i := range 15 {
		write(fmt.Sprintf("m%02d.go", i), "package x\n// changed\n")
		write(fmt.Sprintf("s%02d.txt", i), "staged\n")
		write(fmt.Sprintf("u%02d.txt", i), "untracked\n")
	}
	git("add", "s*.txt")
	return dir
}
