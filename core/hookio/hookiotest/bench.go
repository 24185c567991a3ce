package hookiotest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// Bench builds the hook in pkgDir (its main package) and the floor program
// the way `make build` does (CGO_ENABLED=0, -trimpath, -ldflags '-s -w'),
// then times invocations of each, alternating them so both see the same
// machine load, on payload (a command gotk rewrites) and on the same
// payload with `git status` replaced by `echo hi` (a command no rule
// names: the no-op path). The test binary runs them as their agent would:
// under a process named like it (Main), where a hook finds the agent it
// reads flags from at its parent. Each sub-benchmark reports the medians hook-ms
// and floor-ms, x-floor — the median of the per-pair ratios (targets:
// 1.25 rewriting, 1.15 no-op) — and the hook's size in MiB.
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

	run := func(bin string, in []byte) float64 {
		cmd := exec.Command(bin)
		cmd.Stdin = bytes.NewReader(in)
		cmd.Env = env
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%s: %v", bin, err)
		}
		return float64(time.Since(start)) / 1e6
	}
	type benchCase struct {
		name    string
		payload []byte
	}
	cases := []benchCase{{"rewrite", payload}}
	if noop := bytes.Replace(payload, []byte("git status"), []byte("echo hi"), 1); !bytes.Equal(noop, payload) {
		cases = append(cases, benchCase{"noop", noop})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			run(hook, c.payload) // warm the page cache
			run(floor, c.payload)
			var th, tf, ratio []float64
			for i := 0; b.Loop(); i++ {
				var h, f float64
				if i%2 == 0 {
					f, h = run(floor, c.payload), run(hook, c.payload)
				} else {
					h, f = run(hook, c.payload), run(floor, c.payload)
				}
				th, tf, ratio = append(th, h), append(tf, f), append(ratio, h/f)
			}
			b.ReportMetric(median(th), "hook-ms")
			b.ReportMetric(median(tf), "floor-ms")
			b.ReportMetric(median(ratio), "x-floor")
			b.ReportMetric(mib(hook), "hook-MiB")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func build(b *testing.B, dir, out string, env []string) {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0"), env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", dir, err, msg)
	}
	if st, err := os.Stat(out); err != nil || st.Mode()&0o111 == 0 {
		b.Fatalf("go build %s made no program (not a main package?)", dir)
	}
}

func mib(path string) float64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return float64(st.Size()) / (1 << 20)
}
