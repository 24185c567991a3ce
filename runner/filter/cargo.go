package filter

import (
	"fmt"
	"strings"

	"github.com/gotk-dev/gotk/runner/window"
)

// cargoTest renders `cargo test`: compiler output on stderr without the
// per-crate chatter, every failure section verbatim, and one count line
// summed from cargo's own `test result:` lines.
type cargoTest struct{ same }

// cargoBuild renders `cargo build|check|clippy|install`: diagnostics
// verbatim, per-crate chatter dropped, the `Finished` line kept as proof.
type cargoBuild struct{ same }

var (
	cargoChatter = lazy(`^\s+(Compiling|Checking|Downloaded|Downloading|Updating|Locking|Adding|Removing|Blocking|Fresh|Documenting|Packaging|Verifying|Archiving|Unpacking|Scraping)\s`)
	cargoRunning = lazy(`^\s+(Running|Doc-tests)\s`)
	cargoDone    = lazy(`^\s+Finished\s`)
	// cargoDuplicates is cargo's count for a second target of a crate
	// whose every warning was printed for the first one already.
	cargoDuplicates = lazy("^warning: `[^`]+` \\([^)]+\\) generated (\\d+) warnings? \\((\\d+) duplicates?\\)$")
	// rustcBoiler are the lint explanations rustc repeats under every
	// first warning of a kind; the diagnostic itself stays.
	// rustcGutter is a line of a diagnostic's source gutter with no text:
	// "   |" alone, or with the bars that only connect a label below to
	// the span above ("   |      |").
	rustcGutter = lazy(`^\s*\|[\s|]*$`)
	rustcBoiler = lazy("^\\s*= help: for further information visit https://|^For more information about (this|an) error, try `rustc --explain E\\d+`\\.$|^warning: build failed, waiting for other jobs to finish\\.\\.\\.$")
	testResult  = lazy(`^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out`)
	testLine    = lazy(`^test (.+) \.\.\. (ok|ignored|FAILED)`)
	runningN    = lazy(`^running \d+ tests?$`)
)

// Render keeps diagnostics and drops the chatter around them.
func (cargoBuild) Render(in Input) (Output, error) {
	var errs []string
	for _, l := range lines(keepStderr(in, cargoChatter, rustcBoiler, rustcGutter)) {
		if m := cargoDuplicates.FindStringSubmatch(l); m == nil || m[1] != m[2] {
			errs = append(errs, l)
		}
	}
	return Output{Stdout: in.Stdout, Stderr: join(errs)}, nil
}

// Render keeps failures verbatim and counts the rest.
func (cargoTest) Render(in Input) (Output, error) {
	var res []string
	var passed, failed, ignored, filtered, suites int
	inFailures := false
	var failLines []string
	for _, l := range lines(in.Stdout) {
		if m := testResult.FindStringSubmatch(l); m != nil {
			suites++
			passed += atoi(m[2])
			failed += atoi(m[3])
			ignored += atoi(m[4])
			filtered += atoi(m[6])
			if len(failLines) > 0 {
				res = append(res, foldRustFrames(failLines, in)...)
				failLines = nil
			}
			if m[1] == "FAILED" {
				res = append(res, l)
			}
			inFailures = false
			continue
		}
		if l == "failures:" {
			inFailures = true
		}
		if inFailures {
			failLines = append(failLines, l)
			continue
		}
		if len(failLines) > 0 {
			res = append(res, foldRustFrames(failLines, in)...)
			failLines = nil
		}
		if m := testLine.FindStringSubmatch(l); m != nil && m[2] != "FAILED" {
			continue
		}
		if runningN.MatchString(l) {
			continue
		}
		res = append(res, l)
	}
	res = dropBlankRuns(dropFailureList(append(res, foldRustFrames(failLines, in)...)))
	if suites > 0 {
		s := fmt.Sprintf("cargo test: %d passed", passed)
		if failed > 0 {
			s += fmt.Sprintf(", %d failed", failed)
		}
		if ignored > 0 {
			s += fmt.Sprintf(", %d ignored", ignored)
		}
		if filtered > 0 {
			s += fmt.Sprintf(", %d filtered out", filtered)
		}
		res = append(res, s+" ("+plural(suites, "suite", "suites")+")")
	}
	return Output{
		Stdout: join(res),
		Stderr: keepStderr(in, cargoChatter, cargoRunning, cargoDone, rustcBoiler, rustcGutter),
	}, nil
}

// rustOmitted is libtest's advice under a short backtrace; the frames
// gotk leaves out are announced with their own recall note.
var rustOmitted = lazy("^note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace\\.$")

// dropFailureList drops the closing "failures:" (or, with --show-output,
// "successes:") list of a suite when every name in it already heads its
// own "---- name stdout ----" section above (the tests stay named there),
// and libtest's advice about verbose backtraces.
func dropFailureList(ls []string) []string {
	sections := map[string]bool{}
	var out []string
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		if rustOmitted.MatchString(l) {
			continue
		}
		if name, ok := strings.CutPrefix(l, "---- "); ok {
			if name, ok = strings.CutSuffix(name, " stdout ----"); ok {
				sections[name] = true
			}
		}
		if l == "failures:" || l == "successes:" {
			j := i + 1
			for j < len(ls) && strings.HasPrefix(ls[j], "    ") && sections[strings.TrimSpace(ls[j])] {
				j++
			}
			if j > i+1 && (j == len(ls) || strings.TrimSpace(ls[j]) == "") {
				i = j - 1
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// foldRustFrames drops backtrace frames located in Rust's standard library
// (the frame line and its location), keeping the panic message and every
// frame in the user's crates; a note per backtrace names what went.
func foldRustFrames(ls []string, in Input) []string {
	var out []string
	dropped := 0
	inTrace := false
	note := func() {
		if dropped > 0 {
			out = append(out, fmt.Sprintf("   … %d standard-library frames: %s", dropped, in.Recall()))
			dropped = 0
		}
	}
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		if l == "stack backtrace:" {
			inTrace = true
			out = append(out, l)
			continue
		}
		if inTrace && rustFrameNum.MatchString(l) {
			if i+1 < len(ls) && window.RustStdFrame(ls[i+1]) {
				dropped++
				i++
				continue
			}
			out = append(out, l)
			if i+1 < len(ls) && strings.HasPrefix(strings.TrimSpace(ls[i+1]), "at ") {
				out = append(out, ls[i+1])
				i++
			}
			continue
		}
		if inTrace {
			note()
			inTrace = false
		}
		out = append(out, l)
	}
	note()
	return out
}

var rustFrameNum = lazy(`^\s+\d+: `)
