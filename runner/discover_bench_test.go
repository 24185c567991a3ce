//go:build unix

package runner

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkDiscover1GB runs `gotk discover --json` over a synthetic 1 GB
// Claude Code transcript (one file: the hardest case for a line reader)
// and reports the time, the throughput and gotk's peak resident set
// (peak-rss-MiB: it must not grow with the transcript). `make bench`
// prints it; GOTK_DISCOVER_BENCH_MB=N sizes the transcript (default 1024).
//
// The transcript mixes what real ones hold (testdata of runner/discover):
// Bash calls of a dozen commands with outputs from 200 B to 24 KiB, each
// output different (no cache can help), hook attachments, big model
// request snapshots, and now and then a 9 MiB line (a pasted image) that
// must be skipped.
func BenchmarkDiscover1GB(b *testing.B) {
	mb := 1024
	if s := os.Getenv("GOTK_DISCOVER_BENCH_MB"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			mb = n
		}
	}
	gotk := buildGotk(b)
	home := b.TempDir()
	path := filepath.Join(home, ".claude", "projects", "-work-app", "bench.jsonl")
	calls := writeBenchTranscript(b, path, int64(mb)<<20)
	b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
		var peak int64
		var took, cpu time.Duration
		for b.Loop() {
			cmd := exec.Command(gotk, "discover", "--json", "--since", "all")
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "data"),
				"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "CODEX_HOME=", "CLAUDE_CONFIG_DIR=")
			start := time.Now()
			out, err := cmd.Output()
			took = time.Since(start)
			if err != nil {
				b.Fatalf("gotk discover: %v", err)
			}
			var rep struct {
				Scanned struct{ Records, Oversized int }
				Agents  map[string]struct{ Calls int }
			}
			if err := json.Unmarshal(out, &rep); err != nil {
				b.Fatal(err)
			}
			if got := rep.Agents["claude"].Calls; got != calls || rep.Scanned.Oversized == 0 {
				b.Fatalf("read %d calls (want %d), %d oversized lines skipped (want some)", got, calls, rep.Scanned.Oversized)
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				peak = max(peak, int64(ru.Maxrss)) // KiB on Linux
			}
			cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		b.ReportMetric(float64(peak)/1024, "peak-rss-MiB")
		b.ReportMetric(float64(mb)/took.Seconds(), "MB/s")
		b.ReportMetric(cpu.Seconds(), "cpu-s")
		b.ReportMetric(float64(calls), "calls")
		b.Logf("gotk discover read %d MB (%d calls) in %.1fs (%.1fs of CPU), peak RSS %.0f MiB", mb, calls, took.Seconds(), cpu.Seconds(), float64(peak)/1024)
	})
}

// benchCommands are the transcript's commands, with a line of output each
// repeats (n: a counter that makes every output different).
var benchCommands = []struct {
	cmd  string
	line func(n, i int) string
}{
	{"git status", func(n, i int) string { return fmt.Sprintf("\tmodified:   internal/pkg%d/file%d.go", n%97, i) }},
	{"git diff", func(n, i int) string {
		return fmt.Sprintf("+\tx%d := compute(%d, \"value %d\") // line %d", i, n, n*i, i)
	}},
	{"go test ./...", func(n, i int) string {
		return fmt.Sprintf("ok  \tgithub.com/acme/app/pkg%d/sub%d\t0.%03ds", n%53, i, (n*i)%1000)
	}},
	{"npm run build", func(n, i int) string {
		return fmt.Sprintf("dist/assets/chunk-%x.js   %d.%02d kB │ gzip: %d.%02d kB", n*131+i, i, n%100, i/3, i%100)
	}},
	{"ls -la", func(n, i int) string {
		return fmt.Sprintf("-rw-r--r--  1 dev dev %6d Dec  1 03:%02d file_%d_%d.txt", n*i%99991, i%60, n, i)
	}},
	{"cat src/main.go", func(n, i int) string {
		return fmt.Sprintf("\tif err := step%d(ctx, %d); err != nil { return fmt.Errorf(\"step %d: %%w\", err) }", i, n, i)
	}},
	{"rg TODO", func(n, i int) string {
		return fmt.Sprintf("src/mod%d/file%d.ts:%d: // TODO(%d): handle the edge case", n%31, i, i*7, n)
	}},
	{"terraform plan", func(n, i int) string { return fmt.Sprintf("  # aws_instance.web[%d] will be created (run %d)", i, n) }},
	{"kubectl get pods", func(n, i int) string { return fmt.Sprintf("web-%x-%d   1/1   Running   %d   %dd", n, i, i%5, n%40) }},
	{"./scripts/deploy.sh staging", func(n, i int) string { return fmt.Sprintf("[%d/%d] uploading layer sha256:%064x", i, n, n*7919+i) }},
	{"docker build .", func(n, i int) string { return fmt.Sprintf("#%d [stage %d/%d] RUN make build-%d", i, i%9, n%9, n) }},
	{"python -m pytest -q", func(n, i int) string {
		return fmt.Sprintf("tests/test_mod%d.py::test_case_%d PASSED [%3d%%]", n%17, i, i%100)
	}},
}

// writeBenchTranscript writes size bytes of Claude Code records to path
// and returns the number of Bash calls in it.
func writeBenchTranscript(b *testing.B, path string, size int64) int {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	var written int64
	write := func(s string) {
		n, _ := w.WriteString(s)
		written += int64(n)
	}
	quote := func(s string) string { q, _ := json.Marshal(s); return string(q) }
	snapshot := strings.Repeat("You are an agent working with the user toward their goals. ", 500)
	t0 := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	calls := 0
	for n := 0; written < size; n++ {
		c := benchCommands[n%len(benchCommands)]
		lines := 4 + (n*37)%400 // 200 B to ~24 KiB of output
		var out strings.Builder
		for i := range lines {
			out.WriteString(c.line(n, i))
			out.WriteByte('\n')
		}
		ts := t0.Add(time.Duration(n) * 1500 * time.Millisecond).Format(time.RFC3339Nano)
		id := fmt.Sprintf("toolu_bench_%d", n)
		write(fmt.Sprintf(`{"parentUuid":"p%d","isSidechain":false,"message":{"content":[{"id":%q,"input":{"command":%s,"description":"run it"},"name":"Bash","type":"tool_use"}],"id":"msg_%d","model":"claude-opus","role":"assistant","stop_reason":"tool_use","type":"message","usage":{"input_tokens":10,"output_tokens":5}},"type":"assistant","uuid":"a%d","timestamp":%q,"cwd":"/work/app","sessionId":"bench","version":"2.1.328","gitBranch":"main"}`+"\n",
			n, id, quote(c.cmd), n, n, ts))
		if n%3 == 0 {
			write(fmt.Sprintf(`{"parentUuid":"a%d","isSidechain":false,"attachment":{"type":"hook_success","hookName":"PreToolUse:Bash","toolUseID":%q,"hookEvent":"PreToolUse","content":"","stdout":"","stderr":"","exitCode":0,"command":"/usr/local/bin/other-hook","durationMs":9},"type":"attachment","uuid":"h%d","timestamp":%q,"cwd":"/work/app","sessionId":"bench"}`+"\n", n, id, n, ts))
		}
		o := quote(out.String())
		write(fmt.Sprintf(`{"parentUuid":"a%d","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":%q,"type":"tool_result","content":%s,"is_error":false}]},"uuid":"r%d","timestamp":%q,"toolUseResult":{"stdout":%s,"stderr":"","interrupted":false,"isImage":false},"permissionMode":"default","cwd":"/work/app","sessionId":"bench","version":"2.1.328"}`+"\n",
			n, id, o, n, ts, o))
		calls++
		switch {
		case n%50 == 0:
			write(fmt.Sprintf(`{"type":"attachment","attachment":{"type":"prompt_snapshot","systemPrompt":[%s]},"uuid":"s%d","timestamp":%q,"sessionId":"bench"}`+"\n", quote(snapshot), n, ts))
		case n%20000 == 7:
			write(`{"type":"user","message":{"role":"user","content":[{"type":"image","source":{"type":"base64","data":"` + strings.Repeat("iVBORw0KGgo", 9<<20/11) + `"}}]}}` + "\n")
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	return calls
}
