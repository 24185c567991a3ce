package runner

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gotk-dev/gotk/runner/filter"
	"github.com/gotk-dev/gotk/runner/store"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gotk": func() { os.Exit(testMain()) },
		// beside gotk, as make install puts it (gotk doctor checks it is)
		Companion: func() { os.Exit(testMain()) },
	})
}

// testMain is gotk's Main, except that GOTK_TEST_FILTER=<name> makes every
// registry handler use one of testFilters: the runner's capture, fallback
// and recall paths are then pinned down independently of the real filters
// (runner/filter), which have their own tests.
func testMain() int {
	a := newApp()
	// GOTK_TEST_LIMITS=capture,rawfile,rawtotal lowers the capture limit
	// and the raw files' caps, so streamed runs are tested with small
	// outputs.
	if v := os.Getenv("GOTK_TEST_LIMITS"); v != "" {
		var c, f, t int64
		if _, err := fmt.Sscanf(v, "%d,%d,%d", &c, &f, &t); err != nil {
			fmt.Fprintf(os.Stderr, "gotk test: GOTK_TEST_LIMITS %q: %v\n", v, err)
			return 99
		}
		captureLimit, store.MaxRawFile, store.MaxRawTotal = int(c), f, t
	}
	if v := os.Getenv("GOTK_TEST_REF_AFTER"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gotk test: GOTK_TEST_REF_AFTER %q: %v\n", v, err)
			return 99
		}
		refAfter = n
	}
	if name := os.Getenv("GOTK_TEST_FILTER"); name != "" {
		f, ok := testFilters[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "gotk test: unknown GOTK_TEST_FILTER %q\n", name)
			return 99
		}
		a.filter = func(string) filter.Filter { return f }
	}
	return a.end(a.main(os.Args[1:]))
}

// testFilter is a small filter with a known behaviour.
type testFilter struct {
	args   func(argv []string, tool int) []string
	render func(in filter.Input) (filter.Output, error)
}

func (f testFilter) Args(argv []string, tool int) []string {
	if f.args == nil {
		return argv
	}
	return f.args(argv, tool)
}

func (f testFilter) Render(in filter.Input) (filter.Output, error) { return f.render(in) }

// twinFilter is a testFilter whose output the runner gets from the
// command as typed, run alongside (filter.Twin).
type twinFilter struct{ testFilter }

func (twinFilter) TwinEnv() []string { return []string{"GOTK_TWIN=1"} }

var testFilters = map[string]filter.Filter{
	// head: the first 3 lines of stdout, a hint for the rest; stderr as is.
	"head": testFilter{render: func(in filter.Input) (filter.Output, error) {
		lines := strings.SplitAfter(string(in.Stdout), "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		var b strings.Builder
		for _, l := range lines[:min(3, len(lines))] {
			b.WriteString(l)
		}
		if n := len(lines) - 3; n > 0 {
			fmt.Fprintf(&b, "… %d more lines: %s\n", n, in.Recall())
		}
		return filter.Output{Stdout: []byte(b.String()), Stderr: in.Stderr}, nil
	}},
	// machine: runs the command with --machine added, and shows argv.
	"machine": testFilter{
		args: func(argv []string, tool int) []string { return append(append([]string{}, argv...), "--machine") },
		render: func(in filter.Input) (filter.Output, error) {
			return filter.Output{Stdout: fmt.Appendf(nil, "ran: %s (exit %d)\n", strings.Join(in.RanArgv, " "), in.Exit)}, nil
		},
	},
	// twin: like machine, with the command as typed run alongside.
	"twin": twinFilter{testFilter{
		args: func(argv []string, tool int) []string { return append(append([]string{}, argv...), "--machine") },
		render: func(in filter.Input) (filter.Output, error) {
			return filter.Output{Stdout: fmt.Appendf(nil, "ran: %s (exit %d)\n", strings.Join(in.RanArgv, " "), in.Exit)}, nil
		},
	}},
	// fail cannot parse anything.
	"fail": testFilter{render: func(filter.Input) (filter.Output, error) { return filter.Output{}, errors.New("cannot parse") }},
	// panic is a filter bug.
	"panic": testFilter{render: func(filter.Input) (filter.Output, error) { panic("filter bug") }},
	// grow makes the output longer.
	"grow": testFilter{render: func(in filter.Input) (filter.Output, error) {
		return filter.Output{Stdout: append(bytes.Repeat([]byte("padding "), 10), in.Stdout...), Stderr: in.Stderr}, nil
	}},
}

// goEnv is the real go's cache locations, for scenarios that run go.
var goEnv = func() map[string]string {
	m := map[string]string{"GOPROXY": "off", "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod"}
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		return m
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(f) == 3 {
		m["GOCACHE"], m["GOMODCACHE"], m["GOPATH"] = f[0], f[1], f[2]
	}
	return m
}()

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(e *testscript.Env) error {
			// Fake programs in the scenario's bin/ are executable and come
			// first on PATH.
			bin := filepath.Join(e.WorkDir, "bin")
			if err := os.MkdirAll(bin, 0o755); err != nil {
				return err
			}
			progs, _ := os.ReadDir(bin)
			for _, p := range progs {
				if err := os.Chmod(filepath.Join(bin, p.Name()), 0o755); err != nil {
					return err
				}
			}
			e.Setenv("PATH", bin+string(os.PathListSeparator)+e.Getenv("PATH"))
			e.Setenv("HOME", filepath.Join(e.WorkDir, "home"))
			e.Setenv("XDG_DATA_HOME", filepath.Join(e.WorkDir, "data"))
			e.Setenv("XDG_CONFIG_HOME", filepath.Join(e.WorkDir, "config"))
			e.Setenv("TZ", "UTC")
			// Real go runs reuse this machine's build cache (a fresh one
			// compiles the standard library again) and never the network.
			for k, v := range goEnv {
				e.Setenv(k, v)
			}
			for _, k := range []string{"GOTK_RAW", "GOTK_TRACK", "GOTK_LIVE_AFTER", "GOTK_TEST_FILTER", "GOTK_TEST_LIMITS", "GOTK_CONFIG", "GOTK_DISABLED", "CLAUDE_CONFIG_DIR"} {
				e.Setenv(k, "")
			}
			// Scenarios run one command many times: retries print raw only
			// where a scenario turns it on (repeat.txtar).
			e.Setenv("GOTK_RETRY_RAW", "0")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":   cmdExits,
			"grab":    cmdGrab,
			"rawnear": cmdRawNear,
		},
	})
}

// exits CODE program args… runs the program like exec and checks its exit
// code exactly; exits SIGNAME program args… checks that it died of that
// signal (as a shell sees it, not an exit code that reads like it). stdout
// and stderr can be checked after.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE|SIGNAME program args…")
	}
	want := args[0]
	if _, err := strconv.Atoi(want); err != nil && !strings.HasPrefix(want, "SIG") {
		ts.Fatalf("exits: bad code %q", want)
	}
	err := ts.Exec(args[1], args[2:]...)
	got := "0"
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = strconv.Itoa(ee.ExitCode())
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			got = sigNames[ws.Signal()]
		}
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("exit status %s, want %s", got, want)
	}
}

var sigNames = map[syscall.Signal]string{
	syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGKILL: "SIGKILL",
	syscall.SIGPIPE: "SIGPIPE", syscall.SIGSEGV: "SIGSEGV", syscall.SIGHUP: "SIGHUP",
}

// grab NAME REGEXP sets $NAME to the first group of REGEXP in the last
// command's stdout (an id gotk printed, say).
func cmdGrab(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: grab NAME REGEXP")
	}
	m := regexp.MustCompile(args[1]).FindStringSubmatch(ts.ReadFile("stdout"))
	if len(m) < 2 {
		ts.Fatalf("grab: %q not found in stdout", args[1])
	}
	ts.Setenv(args[0], m[1])
}

// rawnear FILE PCT checks that the raw size gotk recorded for its last run
// is within PCT percent of FILE's size (the plain output of the same
// command, captured side by side).
func cmdRawNear(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: rawnear FILE PCT")
	}
	pct, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("rawnear: bad percentage %q", args[1])
	}
	want := int64(len(ts.ReadFile(args[0])))
	s, err := store.OpenExisting(filepath.Join(ts.Getenv("XDG_DATA_HOME"), "gotk", "gotk.db"))
	if err != nil {
		ts.Fatalf("rawnear: %v", err)
	}
	defer s.Close()
	runs, err := s.Runs("")
	if err != nil || len(runs) == 0 {
		ts.Fatalf("rawnear: no runs: %v", err)
	}
	got := runs[len(runs)-1].RawBytes
	ts.Logf("gain's raw size %d B, plain output %d B", got, want)
	if d := got - want; d*100 > want*int64(pct) || -d*100 > want*int64(pct) {
		ts.Fatalf("gain's raw size %d B is more than %d%% from the plain output's %d B", got, pct, want)
	}
}
