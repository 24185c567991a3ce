//go:build unix

package runner

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// BenchmarkPeakRSS runs `gotk cat` over 150 MB of text (a filtered,
// recorded run, output to /dev/null) and reports gotk's peak resident set
// (peak-rss-MiB; target ≤ 64, whatever the output's size). `make bench`
// prints it.
func BenchmarkPeakRSS(b *testing.B) {
	gotk := buildGotk(b)
	dir := b.TempDir()
	// A read streams past about a megabyte (streamAfter): 6 MB and 150 MB
	// are both compacted as they stream. Both must stay under the target.
	for _, mb := range []int{6, 150} {
		big := filepath.Join(dir, fmt.Sprintf("big-%d.txt", mb))
		f, err := os.Create(big)
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		for i, n := 0, 0; n < mb<<20; i++ {
			k, _ := fmt.Fprintf(w, "line %09d of a long output, with some words to make it look like text\n", i)
			n += k
		}
		w.Flush()
		f.Close()
		b.Run(fmt.Sprintf("cat-%dMB", mb), func(b *testing.B) {
			var peak int64
			for b.Loop() {
				cmd := exec.Command(gotk, "cat", big)
				cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+filepath.Join(dir, "data"), "GOTK_TRACK=", "GOTK_RAW=")
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					peak = max(peak, int64(ru.Maxrss)) // KiB on Linux
				}
			}
			b.ReportMetric(float64(peak)/1024, "peak-rss-MiB")
		})
	}
}
