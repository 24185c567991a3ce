package hookiotest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// floorSource is the floor a hook is measured against: a Go program that
// reads its stdin and prints {}.
const floorSource = `package main

import (
	"io"
	"os"
)

func main() {
	io.ReadAll(os.Stdin)
	os.Stdout.WriteString("{}\n")
}
`

// Bench builds the hook in pkgDir and the floor program the way `make
// build` does (CGO_ENABLED=0, -trimpath, -ldflags '-s -w'), then times one
// invocation of each on payload, alternating them so both see the same
// machine load. It reports hook-ms, floor-ms, x-floor (the target is at
// most 1.3) and both binary sizes in MiB.
func Bench(b *testing.B, pkgDir string, payload []byte) {
	BenchFiles(b, pkgDir, payload, nil)
}

// BenchFiles is Bench with files written into the hook's private HOME
// first (path relative to HOME → content): a user's filters.toml, say.
func BenchFiles(b *testing.B, pkgDir string, payload []byte, files map[string]string) {
	tmp := b.TempDir()
	hook := filepath.Join(tmp, "hook")
	floor := filepath.Join(tmp, "floor")
	build(b, pkgDir, hook, nil)
	fdir := filepath.Join(tmp, "floorsrc")
	os.MkdirAll(fdir, 0o755)
	os.WriteFile(filepath.Join(fdir, "go.mod"), []byte("module floor\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(fdir, "main.go"), []byte(floorSource), 0o644)
	build(b, fdir, floor, []string{"GOWORK=off"})

	// The hook's world: a private HOME and a fake gotk on PATH.
	home := filepath.Join(tmp, "home")
	var env []string
	Setup(home, func(k, v string) {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}, func(string) string { return "" })
	for name, data := range files {
		p := filepath.Join(home, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}

	run := func(bin string) time.Duration {
		cmd := exec.Command(bin)
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Env = env
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%s: %v", bin, err)
		}
		return time.Since(start)
	}
	run(hook) // warm the page cache
	run(floor)
	var th, tf time.Duration
	n := 0
	b.ResetTimer()
	for b.Loop() {
		tf += run(floor)
		th += run(hook)
		n++
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return float64(d) / float64(n) / 1e6 }
	b.ReportMetric(ms(th), "hook-ms")
	b.ReportMetric(ms(tf), "floor-ms")
	b.ReportMetric(float64(th)/float64(tf), "x-floor")
	b.ReportMetric(mib(hook), "hook-MiB")
	b.ReportMetric(mib(floor), "floor-MiB")
}

func build(b *testing.B, dir, out string, env []string) {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0"), env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", dir, err, msg)
	}
}

func mib(path string) float64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return float64(st.Size()) / (1 << 20)
}
