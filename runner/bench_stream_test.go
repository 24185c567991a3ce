//go:build linux

package runner

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkStream runs outputs of 10 MB, 100 MB and 1 GB through gotk (a
// cat of a generated file, a grep -rn over a generated tree, a find over
// one) and reports, for each: printed-KiB (target ≤ 24), peak-rss-MiB
// (≤ 64), x-raw (gotk's wall time over the bare command's, both writing
// to a pipe the benchmark reads to the end: the median of paired,
// alternating runs, ≤ 1.2; raw-ms and gotk-ms are the medians),
// counts-exact and recall-exact (1: the line count gotk printed is the
// raw output's, and gotk recall ID --lines A-B gives exactly lines A-B
// of it at the start, the middle and the end).
// GOTK_BENCH_STREAM_MB=10,100 picks the sizes.
func BenchmarkStream(b *testing.B) {
	sizes := []int{10, 100, 1000}
	if v := os.Getenv("GOTK_BENCH_STREAM_MB"); v != "" {
		sizes = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				b.Fatalf("GOTK_BENCH_STREAM_MB: %v", err)
			}
			sizes = append(sizes, n)
		}
	}
	gotk := buildGotk(b)
	for _, mb := range sizes {
		dir := b.TempDir()
		cases := []struct {
			name string
			argv []string
		}{
			{"cat", []string{"cat", genFile(b, dir, mb)}},
			{"grep", []string{"grep", "-rn", "the", genGrepTree(b, dir, mb)}},
			{"find", []string{"find", genFindTree(b, dir, mb)}},
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("%s-%dMB", c.name, mb), func(b *testing.B) {
				env := append(os.Environ(), "XDG_DATA_HOME="+filepath.Join(dir, "data"), "GOTK_TRACK=", "GOTK_RAW=", "GOTK_LIVE_AFTER=")
				var raw, with runStat
				var shown []byte
				var peak int64
				// Warm: the first walk of a new tree reads its directories
				// from disk, whichever side runs it.
				timedRun(b, c.argv, nil, env)
				// Paired runs, the order alternating: the ratio is taken
				// pair by pair (the machine's speed drifts between pairs,
				// not within one), and the median of the pairs reported.
				var ratios, raws, withs []float64
				for b.Loop() {
					for i := range streamPairs {
						if i%2 == 0 {
							raw = timedRun(b, c.argv, nil, env)
							with = timedRun(b, append([]string{gotk}, c.argv...), &shown, env)
						} else {
							with = timedRun(b, append([]string{gotk}, c.argv...), &shown, env)
							raw = timedRun(b, c.argv, nil, env)
						}
						ratios = append(ratios, with.wall.Seconds()/raw.wall.Seconds())
						raws, withs = append(raws, raw.wall.Seconds()), append(withs, with.wall.Seconds())
						peak = max(peak, with.maxRSS)
					}
				}
				b.ReportMetric(float64(len(shown))/1024, "printed-KiB")
				b.ReportMetric(float64(peak)/1024, "peak-rss-MiB")
				b.ReportMetric(median(ratios), "x-raw")
				b.ReportMetric(median(raws)*1e3, "raw-ms")
				b.ReportMetric(median(withs)*1e3, "gotk-ms")
				b.ReportMetric(float64(raw.bytes)/1e6, "raw-MB")
				m := regexp.MustCompile(`(?m)^gotk: [\d,]+ bytes, ([\d,]+) lines streamed.*gotk recall ([0-9a-f]{6})`).FindSubmatch(shown)
				exact, recalled := 0.0, 0.0
				if m != nil {
					n, _ := strconv.ParseInt(strings.ReplaceAll(string(m[1]), ",", ""), 10, 64)
					if n == raw.lines {
						exact = 1
					}
					if recallExact(b, gotk, string(m[2]), c.argv, raw.lines, env) {
						recalled = 1
					}
				} else {
					b.Errorf("no streamed summary in:\n%s", shown)
				}
				b.ReportMetric(exact, "counts-exact")
				b.ReportMetric(recalled, "recall-exact")
				b.ReportMetric(0, "ns/op")
			})
		}
		os.RemoveAll(dir)
	}
}

// streamPairs is how many paired runs (raw, gotk) one benchmark
// iteration makes.
const streamPairs = 5

type runStat struct {
	wall         time.Duration
	bytes, lines int64
	maxRSS       int64 // KiB
}

// timedRun runs argv with its stdout on a pipe read to the end (kept in
// *keep when not nil, else counted) and returns its wall time.
func timedRun(b *testing.B, argv []string, keep *[]byte, env []string) runStat {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	var st runStat
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	if keep != nil {
		*keep, _ = io.ReadAll(out)
		st.bytes = int64(len(*keep))
	} else {
		buf := make([]byte, 256<<10)
		for {
			n, err := out.Read(buf)
			st.bytes += int64(n)
			st.lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
			if err != nil {
				break
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		b.Fatalf("%s: %v", argv, err)
	}
	st.wall = time.Since(t0)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		st.maxRSS = int64(ru.Maxrss)
	}
	return st
}

// recallExact checks gotk recall id --lines A-B against the raw output at
// its start, middle and end.
func recallExact(b *testing.B, gotk, id string, argv []string, lines int64, env []string) bool {
	ranges := [][2]int64{{1, 3}, {lines / 2, lines/2 + 2}, {lines - 2, lines}}
	want := make([][]byte, len(ranges))
	cmd := exec.Command(argv[0], argv[1:]...)
	out, _ := cmd.StdoutPipe()
	cmd.Start()
	r := bufio.NewReaderSize(out, 1<<20)
	for n := int64(1); ; n++ {
		l, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			b.Fatalf("a line over 1 MiB at %d", n)
		}
		for i, rg := range ranges {
			if n >= rg[0] && n <= rg[1] {
				want[i] = append(want[i], l...)
			}
		}
		if err != nil {
			break
		}
	}
	cmd.Wait()
	for i, rg := range ranges {
		c := exec.Command(gotk, "recall", id, "--lines", fmt.Sprintf("%d-%d", rg[0], rg[1]))
		c.Env = env
		got, err := c.Output()
		if err != nil || !bytes.Equal(got, want[i]) {
			b.Errorf("recall %s --lines %d-%d: %v\n got %q\nwant %q", id, rg[0], rg[1], err, got, want[i])
			return false
		}
	}
	return true
}

// genFile writes mb MB of text lines.
func genFile(b *testing.B, dir string, mb int) string {
	path := filepath.Join(dir, "big.txt")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i, n := 0, 0; n < mb*1e6; i++ {
		k, _ := fmt.Fprintf(w, "line %09d of a long output, with some words to make it look like text\n", i)
		n += k
	}
	w.Flush()
	f.Close()
	return path
}

// genGrepTree writes files whose lines all match "the", so that grep -rn
// prints about mb MB.
func genGrepTree(b *testing.B, dir string, mb int) string {
	root := filepath.Join(dir, "src")
	const perFile = 1 << 20 // bytes of output per file, about
	files := max(1, mb*1e6/perFile)
	for i := range files {
		d := filepath.Join(root, fmt.Sprintf("pkg%02d", i%37), "sub")
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(filepath.Join(d, fmt.Sprintf("file%05d.go", i)))
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		prefix := len(f.Name()) + 8
		for j, n := 0, 0; n < perFile; j++ {
			k, _ := fmt.Fprintf(w, "\tthe value %d of the file %d is set here\n", j, i)
			n += k + prefix
		}
		w.Flush()
		f.Close()
	}
	return root
}

// genFindTree makes empty files under deep directories with long names,
// so that find prints about mb MB of paths (each about 2 KB: a gigabyte
// is half a million files, not twenty million).
func genFindTree(b *testing.B, dir string, mb int) string {
	root := filepath.Join(dir, "tree")
	seg := strings.Repeat("d", 200)
	files := max(1, mb*1e6/2000)
	const perDir = 2000
	for i := 0; i < files; i += perDir {
		d := filepath.Join(root, fmt.Sprintf("top%03d", i/perDir))
		for j := range 8 {
			d = filepath.Join(d, fmt.Sprintf("%s%d", seg, j))
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		name := strings.Repeat("f", 150)
		for j := i; j < min(i+perDir, files); j++ {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("%s%07d", name, j)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return root
}
