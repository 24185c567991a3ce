// Package e2e drives the real agent CLIs (installed from npm by
// install-agents.sh) fully offline against a fake model server, to check
// end to end what gotk's hooks do to the commands those agents really run.
//
// One run: a fresh temporary HOME and project (a git repo), a cleared
// environment (PATH kept), the agent's offline config from
// docs/e2e.md, a scripted model that asks for one shell
// command, then the agent runs non-interactively under a timeout, every
// process it started is stopped, and the tool result it sent back to the
// model tells what really ran.
package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gotk-dev/gotk/e2e/fakemodel"
)

// Environment variables the harness reads.
const (
	// EnvEnable must be "1" for the agent tests to run at all.
	EnvEnable = "GOTK_E2E"
	// EnvAgentsBin overrides where the agent binaries are (a node_modules/.bin).
	EnvAgentsBin = "GOTK_E2E_AGENTS_BIN"
	// EnvCache overrides the cache root install-agents.sh installs under.
	EnvCache = "GOTK_E2E_CACHE"
	// EnvAgents limits the run to a comma-separated list of agent names.
	EnvAgents = "GOTK_E2E_AGENTS"
	// EnvTimeout is the per-run timeout in seconds (default 120).
	EnvTimeout = "GOTK_E2E_TIMEOUT"
	// EnvGotkBin is where the gotk binaries are (default: ../bin).
	EnvGotkBin = "GOTK_E2E_GOTK_BIN"
	// EnvKeep keeps each run's HOME and project for inspection.
	EnvKeep = "GOTK_E2E_KEEP"
)

// Prompt is the user prompt every run gives the agent; the scripted model
// ignores it.
const Prompt = "check status"

// RequireEnabled skips t unless GOTK_E2E=1.
func RequireEnabled(t testing.TB) {
	t.Helper()
	if os.Getenv(EnvEnable) != "1" {
		t.Skipf("real-agent e2e tests are off; run `e2e/install-agents.sh` then `%s=1 go test ./...` in e2e/", EnvEnable)
	}
}

// moduleDir is the e2e module's directory (where package-lock.json is).
func moduleDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// CacheDir is the install directory of the pinned agents, the same path
// install-agents.sh computes: <cache root>/<first 16 hex of sha256(lock)>.
func CacheDir() (string, error) { return cacheDirOf("") }

// cacheDirOf is CacheDir for the agents of lock: "" is package-lock.json,
// a name the lock in that folder (openclaw/), installed in
// <cache root>/<name>-<hash>.
func cacheDirOf(name string) (string, error) {
	lock, err := os.ReadFile(filepath.Join(moduleDir(), name, "package-lock.json"))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(lock)
	dir := hex.EncodeToString(sum[:])[:16]
	if name != "" {
		dir = name + "-" + dir
	}
	root := os.Getenv(EnvCache)
	if root == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", err
			}
			base = filepath.Join(home, ".cache")
		}
		root = filepath.Join(base, "gotk-e2e")
	}
	return filepath.Join(root, dir), nil
}

// AgentsBinDir is the directory holding the agent executables.
func AgentsBinDir() (string, error) { return agentsBinDirOf("") }

// agentsBinDirOf is AgentsBinDir for the agents of lock (cacheDirOf).
func agentsBinDirOf(lock string) (string, error) {
	if d := os.Getenv(EnvAgentsBin); d != "" {
		return d, nil
	}
	dir, err := cacheDirOf(lock)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, ".installed")); err != nil {
		return "", fmt.Errorf("agents are not installed in %s; run e2e/install-agents.sh", dir)
	}
	return filepath.Join(dir, "node_modules", ".bin"), nil
}

// runTimeout is the limit for one agent run.
func runTimeout() time.Duration {
	if s, err := strconv.Atoi(os.Getenv(EnvTimeout)); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return 120 * time.Second
}

// Env is one agent run being set up: its home, project, model and
// environment. Agent setup functions fill it; Run runs it.
type Env struct {
	T       testing.TB
	Agent   *Agent
	Home    string
	Project string
	// Model is the fake model server of this run.
	Model *fakemodel.Server
	// BinDir is where the agent executables are.
	BinDir string
	// Vars is the agent's environment beyond PATH and HOME.
	Vars map[string]string
	// ExtraPath is prepended to PATH (for example gotk's bin dir).
	ExtraPath []string
	// BasePath replaces the inherited PATH after ExtraPath and the agents'
	// bin dir when set (see PathWithoutGotk).
	BasePath string
	// Args are the agent's arguments (after the executable).
	Args []string
	// HookLog is where the phase-1 test hook logs the stdin it got.
	HookLog string
	// Tmp is the run's TMPDIR, so that what agents unpack or leave in a
	// temporary directory goes away with the run.
	Tmp    string
	marker string
	exe    string // the agent's executable
}

// NewEnv prepares a run of agent a with the scripted model s: a temporary
// HOME, a project git repo with one commit, one modified and one untracked
// file, a running fake model, and the agent's offline config. It skips t
// when the agent's executable is not installed.
func NewEnv(t testing.TB, a *Agent, s fakemodel.Script) *Env {
	t.Helper()
	RequireEnabled(t)
	bin, err := agentsBinDirOf(a.lock)
	exe := filepath.Join(bin, a.Bin)
	switch {
	case a.onPath:
		// Not from npm: the user's own build on PATH, or skip.
		if exe, err = exec.LookPath(a.Bin); err != nil {
			t.Skipf("%s: no %s on PATH (%s cannot be installed here); put a %s binary on PATH to run it", a.Name, a.Bin, a.Package, a.Bin)
		}
		if bin == "" || err != nil {
			bin = filepath.Dir(exe)
		}
	case err != nil:
		t.Skipf("%s: %v", a.Name, err)
	default:
		if _, err := os.Stat(exe); err != nil {
			t.Skipf("%s: %s (npm %s) is not installed in %s; run e2e/install-agents.sh", a.Name, a.Bin, a.Package, bin)
		}
	}
	if a.timedOut.Load() {
		// One hung agent must not eat the whole suite's time budget.
		t.Fatalf("%s: an earlier run of this agent timed out; not running it again", a.Name)
	}
	root := t.TempDir()
	if os.Getenv(EnvKeep) == "1" {
		root, _ = os.MkdirTemp("", "gotk-e2e-"+a.Name+"-")
		t.Logf("keeping run files in %s", root)
	}
	e := &Env{
		T: t, Agent: a, BinDir: bin, exe: exe,
		Home:    filepath.Join(root, "home"),
		Project: filepath.Join(root, "project"),
		HookLog: filepath.Join(root, "hook-stdin.jsonl"),
		Tmp:     filepath.Join(root, "tmp"),
		Vars:    map[string]string{},
		marker:  randomHex(8),
	}
	for _, d := range []string{e.Home, e.Project, e.Tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.initProject()
	e.Model = fakemodel.New(s)
	t.Cleanup(e.Model.Close)
	a.setup(e)
	return e
}

// initProject makes the project a git repo with something for `git status`
// to show: a modified tracked file and an untracked one.
func (e *Env) initProject() {
	e.T.Helper()
	git := func(args ...string) {
		e.T.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = e.Project
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + e.Home, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.invalid",
			"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.invalid"}
		if out, err := cmd.CombinedOutput(); err != nil {
			e.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	e.WriteFile(filepath.Join(e.Project, "README.md"), "# e2e project\n")
	e.WriteFile(filepath.Join(e.Project, "main.go"), "package main\n\nfunc main() {}\n")
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "initial commit")
	git("commit", "-q", "--allow-empty", "-m", "second commit")
	e.WriteFile(filepath.Join(e.Project, "main.go"), "package main\n\nfunc main() { println(\"changed\") }\n")
	e.WriteFile(filepath.Join(e.Project, "untracked.txt"), "new file\n")
}

// WriteFile writes content to path, creating parent directories.
func (e *Env) WriteFile(path, content string) {
	e.T.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.T.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.T.Fatal(err)
	}
}

// TestHookCommand is the command line of the phase-1 rewrite hook in the
// given dialect (see testhook.go).
func (e *Env) TestHookCommand(dialect string) string {
	exe, err := os.Executable()
	if err != nil {
		e.T.Fatal(err)
	}
	return shellQuote(exe) + " " + testHookFlag + " " + dialect + " " + shellQuote(e.HookLog)
}

// HookInputs returns each stdin the phase-1 test hook received.
func (e *Env) HookInputs() []string {
	b, err := os.ReadFile(e.HookLog)
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// Result is what one agent run produced.
type Result struct {
	Stdout, Stderr string
	// Err is the agent's exit error (nil for exit 0), or the timeout.
	Err      error
	Duration time.Duration
	// ToolResults are the results of the scripted calls the agent sent back.
	ToolResults []fakemodel.ToolResult
}

// ToolResult is the text of scripted call i, or "" if it never came back.
func (r *Result) ToolResult(i int) string {
	if i < len(r.ToolResults) {
		return r.ToolResults[i].Text
	}
	return ""
}

// Require fails t unless the run sent back results for the first n
// scripted calls, saying why when it can.
func (r *Result) Require(t testing.TB, agent string, n int) {
	t.Helper()
	if len(r.ToolResults) >= n {
		return
	}
	why := "it ended without sending them"
	if r.Err != nil {
		why = r.Err.Error()
	}
	t.Fatalf("%s: %d of %d tool results came back: %s", agent, len(r.ToolResults), n, why)
}

// Run runs the agent once under the run timeout, stops every process it
// started, and returns what it sent back. On a test failure it logs the
// agent's output and the model's request log.
func (e *Env) Run() *Result {
	e.T.Helper()
	limit := runTimeout()
	// Leave the test binary time to report when `go test -timeout` is near.
	if dt, ok := e.T.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := dt.Deadline(); ok && time.Until(dl)-15*time.Second < limit {
			limit = max(time.Until(dl)-15*time.Second, time.Second)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()

	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, e.exe, e.Args...)
	cmd.Dir = e.Project
	cmd.Env = e.environ()
	cmd.Stdin = nil // /dev/null: nothing to answer a prompt with
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A straggler that keeps stdout open must not keep Run waiting.
	cmd.WaitDelay = 5 * time.Second

	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("%s timed out after %v (%s=SECONDS to change)", e.Agent.Name, limit, EnvTimeout)
		e.Agent.timedOut.Store(true)
	}
	if cmd.Process != nil {
		killGroup(cmd.Process.Pid)
	}
	killMarked(e.marker)
	res := &Result{
		Stdout: stdout.String(), Stderr: stderr.String(), Err: err,
		Duration:    time.Since(start),
		ToolResults: e.Model.ToolResults(),
	}
	if dec := e.Agent.decodeResult; dec != nil {
		for i := range res.ToolResults {
			res.ToolResults[i].Text = dec(res.ToolResults[i].Text)
		}
	}
	e.T.Logf("%s ran in %.1fs (exit: %v), %d model requests, %d tool results",
		e.Agent.Name, res.Duration.Seconds(), res.Err, len(e.Model.Requests()), len(res.ToolResults))
	if testing.Verbose() {
		e.T.Logf("model requests:\n%s", e.Model.Summary())
	}
	e.T.Cleanup(func() {
		if e.T.Failed() {
			e.T.Logf("--- %s run in %s\n--- stdout:\n%s\n--- stderr:\n%s\n--- model requests:\n%s--- hook stdin:\n%s",
				e.Agent.Name, filepath.Dir(e.Project), tail(res.Stdout, 4000), tail(res.Stderr, 4000), e.Model.Summary(),
				strings.Join(e.HookInputs(), "\n"))
		}
	})
	return res
}

// environ is the run's whole environment: nothing is inherited but PATH
// (with ExtraPath and the agents' bin dir in front).
func (e *Env) environ() []string {
	base := os.Getenv("PATH")
	if e.BasePath != "" {
		base = e.BasePath
	}
	path := strings.Join(append(append([]string{}, e.ExtraPath...), e.BinDir, base), string(os.PathListSeparator))
	env := []string{
		"PATH=" + path,
		"HOME=" + e.Home,
		"USER=e2e", "LOGNAME=e2e",
		"LANG=C.UTF-8",
		"TMPDIR=" + e.Tmp,
		"TERM=dumb", "NO_COLOR=1",
		"XDG_CONFIG_HOME=" + filepath.Join(e.Home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(e.Home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(e.Home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(e.Home, ".cache"),
		"GOTK_E2E_RUN=" + e.marker, // finds strays in /proc
	}
	// Belt and braces for "fully offline": whatever honours a proxy or an
	// npm registry setting fails at once on a closed local port instead of
	// reaching the internet. The fake model is exempt through NO_PROXY.
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
		env = append(env, k+"="+deadEndpoint)
	}
	env = append(env, "NO_PROXY=127.0.0.1,localhost,::1", "no_proxy=127.0.0.1,localhost,::1",
		"npm_config_registry="+deadEndpoint+"/", "npm_config_offline=true")
	keys := make([]string, 0, len(e.Vars))
	for k := range e.Vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+e.Vars[k])
	}
	return env
}

// deadEndpoint is a local address where nothing listens (the discard port).
const deadEndpoint = "http://127.0.0.1:9"

// killGroup kills what is left of the agent's process group.
func killGroup(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// killMarked kills every process whose environment carries this run's
// marker: children that moved to their own process group or session (shell
// tools often do) still inherit the environment. Linux only; elsewhere the
// process group kill is all there is.
func killMarked(marker string) {
	want := []byte("GOTK_E2E_RUN=" + marker + "\x00")
	for i := 0; i < 3; i++ {
		found := false
		ents, _ := os.ReadDir("/proc")
		for _, ent := range ents {
			pid, err := strconv.Atoi(ent.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			envb, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "environ"))
			if err != nil || !bytes.Contains(append(envb, 0), want) {
				continue
			}
			found = true
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if !found {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
