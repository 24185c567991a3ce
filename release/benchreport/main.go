// Command benchreport turns the output of `make bench` (go test -bench over
// every module) into one report, side by side: each hook against the Go
// floor, the runner's overhead over the bare command, peak memory, then
// the savings tables the filter benchmark printed. It reads stdin and
// writes stdout; lines it does not know pass through unchanged, so nothing
// a benchmark printed is lost.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// result is one benchmark line: its name (module-local, without the
// -GOMAXPROCS suffix) and its metrics by unit.
type result struct {
	pkg, name string
	metrics   map[string]float64
}

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

func parse(r io.Reader, passthrough io.Writer) []result {
	var out []result
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = p
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			switch {
			case strings.HasPrefix(line, "goos: "), strings.HasPrefix(line, "goarch: "), strings.HasPrefix(line, "cpu: "):
			default:
				fmt.Fprintln(passthrough, line)
			}
			continue
		}
		res := result{pkg: pkg, name: m[1], metrics: map[string]float64{}}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				res.metrics[f[i+1]] = v
			}
		}
		out = append(out, res)
	}
	return out
}

func main() {
	fmt.Print(report(os.Stdin))
}

// report reads make bench's output and returns the report.
func report(r io.Reader) string {
	var rest strings.Builder
	results := parse(r, &rest)
	w := &strings.Builder{}
	// The machine's load (make bench writes it first and last) heads the
	// report: every figure below is to be read with it.
	var other []string
	for _, l := range strings.SplitAfter(rest.String(), "\n") {
		if strings.HasPrefix(l, "== load ") {
			fmt.Fprint(w, l)
		} else {
			other = append(other, l)
		}
	}
	fmt.Fprintln(w)

	// Hooks: one row per agent module, rewriting and no-op side by side.
	type hookRow struct{ hook, floor, x, noop, xNoop, x200, mib float64 }
	hooks := map[string]*hookRow{}
	for _, r := range results {
		if !strings.Contains(r.pkg, "/agents/") || !strings.HasPrefix(r.name, "BenchmarkHook") {
			continue
		}
		agent := r.pkg[strings.LastIndex(r.pkg, "/")+1:]
		h := hooks[agent]
		if h == nil {
			h = &hookRow{}
			hooks[agent] = h
		}
		switch r.name {
		case "BenchmarkHook200Filters/rewrite":
			h.x200 = r.metrics["x-floor"]
		case "BenchmarkHook/rewrite":
			h.hook, h.floor, h.x, h.mib = r.metrics["hook-ms"], r.metrics["floor-ms"], r.metrics["x-floor"], r.metrics["hook-MiB"]
		case "BenchmarkHook/noop":
			h.noop, h.xNoop = r.metrics["hook-ms"], r.metrics["x-floor"]
		}
	}
	if len(hooks) > 0 {
		fmt.Fprintln(w, "== hooks: each binary against the floor (a Go binary that reads stdin and prints {}), medians of paired runs; targets ≤ 1.25× rewriting, ≤ 1.15× no-op")
		fmt.Fprintf(w, "%-9s %9s %8s %10s %8s %9s %19s %9s\n", "agent", "floor ms", "hook ms", "× rewrite", "noop ms", "× no-op", "× floor 200 filters", "hook MiB")
		var names []string
		for a := range hooks {
			names = append(names, a)
		}
		sort.Strings(names)
		for _, a := range names {
			h := hooks[a]
			x200 := "-"
			if h.x200 > 0 {
				x200 = fmt.Sprintf("%.2f", h.x200)
			}
			fmt.Fprintf(w, "%-9s %9.2f %8.2f %10.2f %8.2f %9.2f %19s %9.1f\n", a, h.floor, h.hook, h.x, h.noop, h.xNoop, x200, h.mib)
		}
		fmt.Fprintln(w)
	}

	// The runner: overhead over the bare command, the decision path, memory.
	var over, rss, stream []result
	for _, r := range results {
		switch {
		case strings.HasPrefix(r.name, "BenchmarkOverhead/"):
			over = append(over, r)
		case strings.HasPrefix(r.name, "BenchmarkPeakRSS/"):
			rss = append(rss, r)
		case strings.HasPrefix(r.name, "BenchmarkStream/"):
			stream = append(stream, r)
		}
	}
	if len(over) > 0 {
		fmt.Fprintln(w, "== runner: gotk <cmd> against the bare command (medians, paired runs); target ≤ 3 ms added")
		fmt.Fprintf(w, "%-22s %9s %8s %9s %13s %9s\n", "case", "direct ms", "gotk ms", "added ms", "added cpu ms", "× direct")
		for _, r := range over {
			name := strings.TrimPrefix(r.name, "BenchmarkOverhead/")
			if ms, ok := r.metrics["floor-ms"]; ok {
				fmt.Fprintf(w, "%-22s %9s %8.2f   (a bare Go process that starts and exits, on this machine now)\n", name, "-", ms)
				continue
			}
			if ms, ok := r.metrics["rewrite-ms"]; ok {
				fmt.Fprintf(w, "%-22s %9s %8.2f   (gotk rewrite --json: the decision alone)\n", name, "-", ms)
				continue
			}
			fmt.Fprintf(w, "%-22s %9.2f %8.2f %9.2f %13.2f %9.2f\n", name, r.metrics["direct-ms"], r.metrics["gotk-ms"], r.metrics["added-ms"], r.metrics["added-cpu-ms"], r.metrics["x-direct"])
		}
		for _, r := range rss {
			fmt.Fprintf(w, "peak RSS %-13s %6.1f MiB (target ≤ 64)\n", strings.TrimPrefix(r.name, "BenchmarkPeakRSS/"), r.metrics["peak-rss-MiB"])
		}
		fmt.Fprintln(w)
	}

	// Large outputs, compacted as they stream.
	if len(stream) > 0 {
		fmt.Fprintln(w, "== large outputs: gotk <cmd> on 10 MB, 100 MB, 1 GB; targets ≤ 24 KiB printed, ≤ 64 MiB peak RSS, ≤ 1.2× the bare command's wall time, counts and recall exact")
		fmt.Fprintf(w, "%-16s %8s %11s %9s %7s %7s %7s\n", "case", "raw MB", "printed KiB", "peak MiB", "× raw", "counts", "recall")
		for _, r := range stream {
			ok := func(v float64) string {
				if v == 1 {
					return "exact"
				}
				return "WRONG"
			}
			fmt.Fprintf(w, "%-16s %8.1f %11.1f %9.1f %7.2f %7s %7s\n", strings.TrimPrefix(r.name, "BenchmarkStream/"), r.metrics["raw-MB"], r.metrics["printed-KiB"], r.metrics["peak-rss-MiB"], r.metrics["x-raw"], ok(r.metrics["counts-exact"]), ok(r.metrics["recall-exact"]))
		}
		fmt.Fprintln(w)
	}

	// Session lines: the corpus as agents bound it (cmd 2>&1 | tail -N),
	// raw against through the hook (runner/filter BenchmarkSessionLines).
	for _, r := range results {
		if r.name != "BenchmarkSessionLines" {
			continue
		}
		meets := func(ok bool) string {
			if ok {
				return "met"
			}
			return "missed"
		}
		c, rcv, f := r.metrics["carried-%"], r.metrics["received-%"], r.metrics["facts-kept-%"]
		fmt.Fprintln(w, "== session lines: agent-shaped lines from the corpus, raw against through the hook (o200k tokens)")
		fmt.Fprintf(w, "rewritten lines carry %.1f%% of the raw tokens (target ≥ 95%%: %s)\n", c, meets(c >= 95))
		fmt.Fprintf(w, "on them the model receives %.1f%% of raw (target ≤ 35%%: %s)\n", rcv, meets(rcv <= 35))
		fmt.Fprintf(w, "facts of the raw windows kept: %.1f%% (target 100%%: %s)\n\n", f, meets(f >= 100))
	}

	// Everything else, as the benchmarks printed it (the savings tables
	// first among them), then the remaining benchmark lines.
	fmt.Fprint(w, strings.Join(other, ""))
	fmt.Fprintln(w, "== every benchmark")
	for _, r := range results {
		var keys []string
		for k := range r.metrics {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "  %g %s", r.metrics[k], k)
		}
		fmt.Fprintf(w, "%-60s%s\n", strings.TrimPrefix(r.pkg, "github.com/gotk-dev/gotk/")+" "+r.name, b.String())
	}
	return w.String()
}
