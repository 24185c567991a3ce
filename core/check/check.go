// Package check is `gotk verify` and `gotk doctor`: it reads what
// gotk-install put in each agent's configuration (core/agentconf and its
// manifest) and checks that it works — the entry is there, in a file the
// agent itself can read, and names a hook binary that answers a probe in the
// agent's own JSON dialect with a rewrite to a gotk that exists; gotk is on
// the PATH; gotk's config.toml parses. Verify reports each check; doctor
// turns each problem into the command that fixes it, trying it (as a dry
// run) before it suggests it.
//
// The gotk runner wires Verify and Doctor as subcommands; gotk-install's
// tests drive them over real installs. Nothing here writes a file, and
// nothing here links the plugin files.
package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/config"
	"github.com/gotk-dev/gotk/core/hosts"
)

// Env is what Verify and Doctor read from the outside: no globals.
type Env struct {
	Home     string
	Cwd      string
	Getenv   func(string) string
	LookPath func(string) (string, error)
	// Environ is the environment of the programs doctor runs (gotk-install
	// --dry-run, --version); nil is the process's own.
	Environ []string
}

// OSEnv returns the process's environment.
func OSEnv() Env {
	e := agentconf.OSEnv()
	return Env{Home: e.Home, Cwd: e.Cwd, Getenv: e.Getenv, LookPath: e.LookPath}
}

func (e Env) conf() *agentconf.Env {
	return &agentconf.Env{Home: e.Home, Cwd: e.Cwd, Getenv: e.Getenv, LookPath: e.LookPath}
}

func (e Env) environ() []string {
	if e.Environ != nil {
		return e.Environ
	}
	return os.Environ()
}

// run runs bin with a 5-second limit and returns its stdout and stderr.
func run(dir, bin string, args []string, stdin []byte, env []string) ([]byte, []byte, error) {
	return runAs("", dir, bin, args, stdin, env)
}

// runUnder runs bin as run does, as the child of a shell whose argv[0]
// is agent ("" runs it directly): a hook reads its session from the first
// ancestor that is its agent.
func runUnder(agent, dir, bin string, stdin []byte, env []string) ([]byte, []byte, error) {
	sh, err := exec.LookPath("sh")
	if agent == "" || err != nil {
		return run(dir, bin, nil, stdin, env)
	}
	// A second command keeps the shell from exec'ing the hook in its place.
	return runAs(agent, dir, sh, []string{"-c", `"$0"; exit $?`, bin}, stdin, env)
}

// runAs is run with argv[0] set to name ("" leaves it bin).
func runAs(name, dir, bin string, args []string, stdin []byte, env []string) ([]byte, []byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	if name != "" {
		cmd.Args[0] = name
	}
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		err = errors.New("no answer within 5 s")
	}
	return stdout.Bytes(), stderr.Bytes(), err
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// finding is one result of a check.
type finding struct {
	level string // PASS, FAIL, WARN, SKIP
	label string // "claude (global)", or "gotk" for what all agents share
	msg   string // what is wrong, or what works; one line
	// fix is what makes it right: a gotk-install command line (doctor
	// tries it first), or words.
	fix   string
	agent string // the agent the finding is about, "" for gotk's own
}

// report is every finding, and what doctor's table shows.
type report struct {
	findings []finding
	states   []agentconf.State
	manifest *agentconf.Manifest
}

func (r *report) add(level, label, msg, fix string) {
	r.findings = append(r.findings, finding{level: level, label: label, msg: msg, fix: fix})
}

func (r *report) failed() bool {
	for _, f := range r.findings {
		if f.level == "FAIL" {
			return true
		}
	}
	return false
}

// collect runs every check.
func collect(env Env) *report {
	r := &report{}
	ce := env.conf()
	m, err := agentconf.LoadManifest(ce)
	if err != nil {
		r.add("FAIL", "gotk", "manifest: "+err.Error(), "move "+agentconf.ManifestPath(ce)+" away, then install again (gotk-install --agent NAME --adopt)")
		m = &agentconf.Manifest{}
	}
	r.manifest = m
	r.states = agentconf.Inspect(hosts.Agents(), ce, m)
	installed := map[string]bool{}
	hooks := false
	for _, st := range r.states {
		if st.State != "not installed" {
			installed[st.Agent] = true
			hooks = true
		}
	}

	// What every agent shares: gotk itself, its config, the switch.
	gotkOK := true
	if hooks {
		name := "gotk"
		if b := env.Getenv("GOTK_BIN"); b != "" {
			name = b // the plugins' override
		}
		if p, err := env.LookPath(name); err != nil || !filepath.IsAbs(p) {
			gotkOK = false
			r.add("FAIL", "gotk", name+" is not on PATH, so the hooks and plugins find no gotk and rewrite nothing", "install gotk (make install in the gotk tree) or add the folder that holds it to PATH, then start the agents again")
		}
	}
	if p, err := env.LookPath("gotk"); err == nil && filepath.IsAbs(p) && !companionFound(env, p) {
		r.add("FAIL", "gotk", "gotk-report is not beside "+p+" nor on PATH, so gotk gain, gotk recall and gotk discover fail (commands still run compact)", "install gotk-report beside gotk (make install in the gotk tree installs both)")
	}
	if w := loadConfig(env); w != "" {
		r.add("FAIL", "gotk", strings.TrimPrefix(w, "gotk: "), "fix the line it names; until then every hook uses the defaults")
	}
	for _, k := range []string{"GOTK_DISABLED", "RTK_DISABLED"} {
		if env.Getenv(k) == "1" {
			r.add("WARN", "gotk", k+"=1 is set here: agents started with it rewrite nothing", "unset "+k)
		}
	}

	for _, st := range r.states {
		label := fmt.Sprintf("%s (%s)", st.Agent, st.Scope)
		a := hosts.AgentByName(st.Agent)
		scope := fmt.Sprintf("gotk-install --agent %s --%s", st.Agent, st.Scope)
		if st.State == "not installed" {
			if st.Found && !installed[st.Agent] && st.Scope == a.Scopes[0] {
				r.findings = append(r.findings, finding{level: "SKIP", label: label, agent: st.Agent,
					msg: "not installed", fix: "gotk-install --agent " + st.Agent})
			}
			continue
		}
		n := len(r.findings)
		for _, p := range st.Parts {
			switch bad, invalid := p.Invalid(); {
			case invalid:
				r.add("FAIL", label, p.File+": "+bad, "fix "+p.File+" where it says, then "+scope)
			case p.State == "absent":
				r.add("FAIL", label, fmt.Sprintf("%s is missing from %s", p.What, p.File), scope)
			case p.State == "modified":
				r.add("FAIL", label, p.File+" was changed after gotk-install wrote it", scope+" --adopt")
			}
			if p.AgentError != "" {
				r.add("FAIL", label, p.File+": "+p.AgentError, "make "+p.File+" plain JSON there (no comment, no trailing comma)")
			}
		}
		if st.HookBin != "" && st.Hook != "" {
			if msg, fix := probeHook(env, st, gotkOK); msg != "" {
				r.add("FAIL", label, msg, fix)
			}
		}
		if a.Inactive != nil && len(r.findings) == n {
			for _, p := range a.Inactive(ce, st.Scope) {
				r.add("FAIL", label, p.Msg, p.Fix)
			}
		}
		if len(r.findings) == n && gotkOK {
			msg := "installed in " + st.File
			if p := probeOf(st.Agent); st.Hook != "" && p != nil && p.Rewrites {
				msg = fmt.Sprintf("hook %s rewrites `%s` to gotk %s", agentconf.Program(st.Hook), p.Command, p.Command)
			} else if st.Hook != "" {
				msg = fmt.Sprintf("hook %s answers a probe", agentconf.Program(st.Hook))
			}
			r.add("PASS", label, msg, "")
		}
		// Two hooks that rewrite the same command race: which one the
		// agent keeps is not gotk's to say, so doctor names both as a problem.
		for _, c := range st.Conflicts {
			r.add("FAIL", label, c, "remove the other rewriting hook, or gotk's: gotk-install --agent "+st.Agent+" --uninstall")
		}
		for _, o := range st.Others {
			r.add("WARN", label, o, "")
		}
	}
	for i := range r.findings {
		if r.findings[i].agent == "" {
			if a, _, ok := strings.Cut(r.findings[i].label, " ("); ok {
				r.findings[i].agent = a
			}
		}
	}
	return r
}

// companionFound says whether gotk-report is where gotk looks for it:
// beside gotk's real path, else on PATH.
func companionFound(env Env, gotk string) bool {
	_, err := Companion(gotk, env.LookPath)
	return err == nil
}

// CompanionName is gotk's companion binary: gotk hands it the commands
// that need SQLite, the tokenizer or Codex's Starlark rules.
const CompanionName = "gotk-report"

// Companion finds the companion of the gotk binary at gotk: beside it
// (its symlinks resolved), else on PATH.
func Companion(gotk string, lookPath func(string) (string, error)) (string, error) {
	name := CompanionName
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if gotk != "" {
		if real, err := filepath.EvalSymlinks(gotk); err == nil {
			gotk = real
		}
		p := filepath.Join(filepath.Dir(gotk), name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := lookPath(CompanionName)
	if err != nil {
		return "", errors.New("not found beside gotk or on PATH")
	}
	return p, nil
}

// loadConfig returns core/config's warning about config.toml, if any.
func loadConfig(env Env) string {
	_, w := config.Load(config.Env{Getenv: env.Getenv, Home: env.Home})
	return w
}

// probeHook runs the agent's hook on its probe in a clean world (a HOME
// that does not exist, the PATH of this shell), and says what is wrong with
// the answer ("" when nothing is).
func probeHook(env Env, st agentconf.State, gotkOK bool) (msg, fix string) {
	reinstall := fmt.Sprintf("gotk-install --agent %s --%s", st.Agent, st.Scope)
	bin := agentconf.Program(st.Hook)
	if !filepath.IsAbs(bin) {
		return fmt.Sprintf("the entry runs %q, not an absolute path", bin), reinstall
	}
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return bin + " is missing or not executable, so the agent runs no gotk hook", "install gotk's binaries again (make install in the gotk tree), then " + reinstall
	}
	p := probeOf(st.Agent)
	if p == nil {
		return "", ""
	}
	in, _ := json.Marshal(p.Payload(os.TempDir(), p.Command))
	// A HOME that does not exist: the probe tests the hook, not the user's
	// rules, and the hook writes nothing (no audit log, no config).
	penv := []string{"PATH=" + env.Getenv("PATH"), "HOME=" + filepath.Join(os.TempDir(), "gotk-verify-no-home")}
	out, stderr, err := runUnder(p.Under, os.TempDir(), bin, in, penv)
	if err != nil {
		return fmt.Sprintf("%s failed on a probe (%v: %s); %s", bin, err, firstLine(string(stderr)), blocks(st.Agent)), "install gotk's binaries again (make install), then " + reinstall
	}
	if strings.Contains(string(stderr), gotkMissing) {
		if !gotkOK {
			return "", "" // said once, for all agents
		}
		return bin + " finds no gotk on its PATH and rewrites nothing", "add gotk's folder to PATH"
	}
	cmd, err := judge(p, out)
	switch {
	case err != nil:
		return bin + " " + err.Error(), "install gotk's binaries again (make install), then " + reinstall
	case cmd == "" && p.Rewrites:
		why := firstLine(string(stderr))
		if why != "" {
			why = " (" + why + ")"
		}
		return fmt.Sprintf("%s did not rewrite `%s`%s: it should answer with gotk %s", bin, p.Command, why, p.Command), "install gotk's binaries again (make install), then " + reinstall
	case cmd != "":
		if err := want(p, cmd, agentconf.IsExec); err != nil {
			return bin + " " + err.Error(), "install gotk's binaries again (make install), then " + reinstall
		}
	}
	return "", ""
}

// blocks says what a failing hook does to its agent.
func blocks(agent string) string {
	if agent == "copilot" {
		return "Copilot CLI denies every shell command whose hook fails"
	}
	return "the agent runs commands without gotk"
}

// Verify prints one line per check — PASS, FAIL, WARN or SKIP — and
// returns 1 when anything failed.
func Verify(w io.Writer, env Env) int {
	r := collect(env)
	any := false
	for _, f := range r.findings {
		msg := f.msg
		if f.fix != "" && f.level != "PASS" {
			msg += "; fix: " + f.fix
			if f.level == "SKIP" {
				msg = f.msg + " (" + f.fix + ")"
			}
		}
		fmt.Fprintf(w, "%-4s  %s: %s\n", f.level, f.label, msg)
		any = any || f.level == "PASS" || f.level == "FAIL"
	}
	if !any {
		fmt.Fprintln(w, "SKIP  gotk is not installed for any agent (gotk-install --all)")
	}
	if r.failed() {
		return 1
	}
	return 0
}
