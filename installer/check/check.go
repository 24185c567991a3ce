// Package check is `gotk verify` and `gotk doctor`: it reads what
// gotk-install put in each agent's configuration (package install and its
// manifest) and checks that it still works — the entry is there, names an
// executable that answers a probe in the agent's own JSON dialect, and the
// files gotk owns are unmodified. The gotk runner wires Verify and Doctor as
// subcommands; nothing here writes a file.
package check

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gotk-dev/gotk/installer/install"
)

// Env is what Verify and Doctor read from the outside: no globals.
type Env struct {
	Home     string
	Cwd      string
	Getenv   func(string) string
	LookPath func(string) (string, error)
	// Run runs bin with stdin and returns its stdout; nil runs the program
	// with a 5-second limit.
	Run func(ctx context.Context, bin string, args []string, stdin []byte) ([]byte, error)
}

// OSEnv returns the process's environment.
func OSEnv() Env {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	return Env{Home: home, Cwd: cwd, Getenv: os.Getenv, LookPath: exec.LookPath}
}

func (e Env) install() *install.Env {
	return &install.Env{Home: e.Home, Cwd: e.Cwd, Getenv: e.Getenv, LookPath: e.LookPath}
}

func (e Env) run(bin string, args []string, stdin []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if e.Run != nil {
		return e.Run(ctx, bin, args, stdin)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Dir = e.Cwd
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && stderr.Len() > 0 {
		err = fmt.Errorf("%v: %s", err, strings.TrimSpace(firstLine(stderr.String())))
	}
	return out, err
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// probe is the payload a hook gets for `git status`, in its agent's dialect,
// and a check of the answer's shape.
type probe struct {
	payload func(cwd string) any
	shape   func(map[string]any) error
}

func hookSpecific(event string) func(map[string]any) error {
	return func(v map[string]any) error {
		h, ok := v["hookSpecificOutput"]
		if !ok {
			return nil
		}
		hm, ok := h.(map[string]any)
		if !ok || hm["hookEventName"] != event {
			return fmt.Errorf("hookSpecificOutput without hookEventName %q", event)
		}
		return nil
	}
}

func oneOf(key string, allowed ...string) func(map[string]any) error {
	return func(v map[string]any) error {
		x, ok := v[key]
		if !ok {
			return nil
		}
		for _, a := range allowed {
			if x == a {
				return nil
			}
		}
		return fmt.Errorf("%s is %v, not one of %s", key, x, strings.Join(allowed, "|"))
	}
}

var probes = map[string]probe{
	"claude": {func(cwd string) any {
		return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "permission_mode": "default", "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": map[string]any{"command": "git status", "description": "gotk verify probe"}, "tool_use_id": "gotk-verify"}
	}, hookSpecific("PreToolUse")},
	"codex": {func(cwd string) any {
		return map[string]any{"session_id": "gotk-verify", "turn_id": "gotk-verify", "cwd": cwd, "hook_event_name": "PreToolUse", "model": "gotk-verify",
			"permission_mode": "default", "tool_name": "Bash", "tool_input": map[string]any{"command": "git status"}, "tool_use_id": "gotk-verify"}
	}, hookSpecific("PreToolUse")},
	"cursor": {func(cwd string) any {
		return map[string]any{"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": map[string]any{"command": "git status", "working_directory": cwd},
			"tool_use_id": "gotk-verify", "cwd": cwd, "workspace_roots": []string{cwd}}
	}, oneOf("permission", "allow", "deny", "ask")},
	"copilot": {func(cwd string) any {
		return map[string]any{"sessionId": "gotk-verify", "timestamp": 0, "cwd": cwd, "toolName": "bash", "toolArgs": `{"command":"git status"}`}
	}, oneOf("permissionDecision", "allow", "deny", "ask")},
	"gemini": {func(cwd string) any {
		return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
			"tool_input": map[string]any{"command": "git status"}}
	}, oneOf("decision", "allow", "deny", "block", "ask", "approve")},
	"droid": {func(cwd string) any {
		return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "permission_mode": "auto-low", "hook_event_name": "PreToolUse",
			"tool_name": "Execute", "tool_input": map[string]any{"command": "git status", "riskLevel": "low", "riskLevelReason": "gotk verify probe", "summary": "gotk verify probe"}}
	}, hookSpecific("PreToolUse")},
	"crush": {func(cwd string) any {
		return map[string]any{"event": "PreToolUse", "session_id": "gotk-verify", "cwd": cwd, "tool_name": "bash",
			"tool_input": map[string]any{"command": "git status", "description": "gotk verify probe"}}
	}, oneOf("decision", "allow", "deny")},
	"vibe": {func(cwd string) any {
		return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "hook_event_name": "pre_tool", "tool_name": "bash", "tool_call_id": "gotk-verify",
			"tool_input": map[string]any{"command": "git status", "timeout": nil}}
	}, oneOf("decision", "allow", "deny")},
}

// hookProgram returns the program an entry's command runs.
func hookProgram(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	if cmd != "" && (cmd[0] == '"' || cmd[0] == '\'') {
		if i := strings.IndexByte(cmd[1:], cmd[0]); i >= 0 {
			return cmd[1 : i+1]
		}
	}
	if i := strings.IndexAny(cmd, " \t"); i >= 0 {
		return cmd[:i]
	}
	return cmd
}

// probeHook runs the hook with the agent's `git status` payload and checks
// that the answer is empty (the no-op) or a JSON object of the agent's shape.
func probeHook(e Env, agent, cmd string) error {
	bin := hookProgram(cmd)
	if !filepath.IsAbs(bin) {
		return fmt.Errorf("entry runs %q, not an absolute path; reinstall: gotk-install --agent %s", bin, agent)
	}
	if fi, err := os.Stat(bin); err != nil || fi.Mode().Perm()&0o111 == 0 || fi.IsDir() {
		return fmt.Errorf("%s is missing or not executable; reinstall gotk, then: gotk-install --agent %s", bin, agent)
	}
	p, ok := probes[agent]
	if !ok {
		return nil
	}
	in, _ := json.Marshal(p.payload(e.Cwd))
	out, err := e.run(bin, nil, in)
	if err != nil {
		return fmt.Errorf("%s did not answer a probe: %v", bin, err)
	}
	out = bytes.TrimSpace(out)
	if len(out) == 0 {
		return nil
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		return fmt.Errorf("%s answered a probe with something that is not a JSON object: %.60q", bin, out)
	}
	if err := p.shape(v); err != nil {
		return fmt.Errorf("%s answered a probe in the wrong shape: %v", bin, err)
	}
	return nil
}

// Verify prints PASS, FAIL, WARN or SKIP per agent and scope, and returns 1
// when anything failed.
func Verify(w io.Writer, env Env) int {
	ie := env.install()
	m, err := install.LoadManifest(ie)
	if err != nil {
		fmt.Fprintf(w, "FAIL  manifest: %v\n", err)
		return 1
	}
	failed := false
	line := func(status, label, msg string) {
		if status == "FAIL" {
			failed = true
		}
		fmt.Fprintf(w, "%-4s  %s: %s\n", status, label, msg)
	}
	installed := map[string]bool{}
	states := install.Inspect(ie, m)
	for _, st := range states {
		if st.State != "not installed" {
			installed[st.Agent] = true
		}
	}
	for _, st := range states {
		label := fmt.Sprintf("%s (%s)", st.Agent, st.Scope)
		if st.State == "not installed" {
			if st.Found && !installed[st.Agent] && st.Scope == install.AgentByName(st.Agent).Scopes[0] {
				line("SKIP", label, "not installed (gotk-install --agent "+st.Agent+")")
			}
			continue
		}
		ok := true
		for _, p := range st.Parts {
			switch {
			case p.State == "absent":
				ok = false
				line("FAIL", label, fmt.Sprintf("%s is missing from %s; run gotk-install --agent %s --%s", p.What, p.File, st.Agent, st.Scope))
			case p.State == "modified":
				ok = false
				line("FAIL", label, fmt.Sprintf("%s was changed after gotk-install wrote it (hash differs); run gotk-install --agent %s --%s --uninstall, then install again", p.File, st.Agent, st.Scope))
			case strings.HasPrefix(p.State, "invalid:"):
				ok = false
				line("FAIL", label, p.File+": "+strings.TrimPrefix(p.State, "invalid: "))
			}
		}
		if st.HookBin != "" && st.Hook != "" {
			if err := probeHook(env, st.Agent, st.Hook); err != nil {
				ok = false
				line("FAIL", label, err.Error())
			}
		}
		for _, c := range st.Conflicts {
			line("WARN", label, c)
		}
		if ok {
			msg := "installed in " + st.File
			if st.Hook != "" {
				msg = "hook " + hookProgram(st.Hook) + " answers the probe"
			}
			line("PASS", label, msg)
		}
	}
	if len(installed) == 0 {
		fmt.Fprintln(w, "SKIP  gotk is not installed for any agent (gotk-install --all)")
	}
	if failed {
		return 1
	}
	return 0
}

// Doctor prints, for a person, each agent found and its state, the
// binaries' versions, PATH problems, and each problem with the command that
// fixes it. It returns 1 when it found a problem.
func Doctor(w io.Writer, env Env) int {
	ie := env.install()
	m, err := install.LoadManifest(ie)
	if err != nil {
		fmt.Fprintf(w, "manifest: %v\n", err)
		return 1
	}
	var fixes []string
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "AGENT\tSCOPE\tFOUND\tGOTK\tHOOK")
	vibeInstalled, codexInstalled := false, false
	for _, st := range install.Inspect(ie, m) {
		if !st.Found && st.State == "not installed" {
			continue
		}
		found := "no"
		if st.Found {
			found = "yes"
		}
		hook := "-"
		if st.Hook != "" {
			hook = hookProgram(st.Hook)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", st.Agent, st.Scope, found, st.State, hook)
		switch {
		case st.State == "not installed" && st.Scope == install.AgentByName(st.Agent).Scopes[0]:
			fixes = append(fixes, fmt.Sprintf("%s is used here but gotk is not installed for it: gotk-install --agent %s", st.Agent, st.Agent))
		case st.State == "partial" || st.State == "modified" || st.State == "unreadable":
			fixes = append(fixes, fmt.Sprintf("%s (%s) is %s: gotk-install --agent %s --%s", st.Agent, st.Scope, st.State, st.Agent, st.Scope))
		}
		if st.State != "not installed" {
			vibeInstalled = vibeInstalled || st.Agent == "vibe"
			codexInstalled = codexInstalled || st.Agent == "codex"
			for _, p := range st.Parts {
				if p.What == "enable_experimental_hooks = true" && p.State != "present" {
					fixes = append(fixes, "Vibe runs no hooks until enable_experimental_hooks = true is in "+p.File+": gotk-install --agent vibe")
				}
			}
		}
		for _, c := range st.Conflicts {
			fixes = append(fixes, st.Agent+": "+c)
		}
	}
	tw.Flush()

	fmt.Fprintln(w)
	fmt.Fprintln(w, "binaries:")
	gotk := ""
	names := []string{"gotk", "gotk-install", "gotk-hook-claude", "gotk-hook-cursor", "gotk-hook-copilot", "gotk-hook-gemini", "gotk-hook-vibe", "gotk-hook-codex",
		"gotk-hook-cline", "gotk-hook-droid", "gotk-hook-crush"}
	for _, n := range names {
		p, err := env.LookPath(n)
		if err != nil {
			fmt.Fprintf(w, "  %-18s not on PATH\n", n)
			continue
		}
		if n == "gotk" {
			gotk = p
		}
		v := "version unknown"
		if out, err := env.run(p, []string{"--version"}, nil); err == nil && len(bytes.TrimSpace(out)) > 0 {
			v = strings.TrimSpace(firstLine(string(out)))
		}
		fmt.Fprintf(w, "  %-18s %s (%s)\n", n, p, v)
	}
	if gotk == "" {
		fixes = append(fixes, "the gotk runner is not on PATH: rewritten commands run `gotk …`; install it (make install) and add its folder to PATH")
	} else if found, dirs := install.OnLoginPATH(gotk, env.Home); found == "" {
		fixes = append(fixes, fmt.Sprintf("gotk (%s) is not on a login shell's PATH (%s), which Codex uses for every command: sudo ln -s %s /usr/local/bin/gotk",
			gotk, strings.Join(dirs, string(filepath.ListSeparator)), gotk))
	}
	if codexInstalled {
		fixes = append(fixes, "Codex skips hooks it has not trusted: start codex and run /hooks to trust gotk's (again after each reinstall)")
	}
	_ = vibeInstalled
	fmt.Fprintln(w)
	if len(fixes) == 0 {
		fmt.Fprintln(w, "no problems found")
		return 0
	}
	fmt.Fprintln(w, "to do:")
	for _, f := range fixes {
		fmt.Fprintln(w, "  - "+f)
	}
	return 1
}
