package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/e2e/fakemodel"
)

// Scenario 4 — permission parity. For every agent with permission rules or
// an approval mode, each case configures the agent with its own, real
// mechanism, runs the same scripted calls twice — without gotk and with
// gotk installed by gotk-install — and requires the same Outcome for every
// call. The outcome without gotk must also be the one the case is about,
// so that a case cannot pass by testing nothing.

type permCall struct {
	cmd  string
	why  string  // the rule or mode the call is about
	want Outcome // without gotk
}

type permCase struct {
	agent, name string
	setup       func(e *Env)
	calls       []permCall
	skip        string
	// args are more arguments of each call (Droid's riskLevel), by index.
	args []map[string]any
}

// goModule makes the project a Go module, so that `go vet` and `go build`
// have something to do.
func goModule(e *Env) {
	e.WriteFile(filepath.Join(e.Project, "go.mod"), "module example.com/e2e\n\ngo 1.21\n")
}

var permCases = []permCase{
	{
		agent: "claude", name: "settings-rules-default-mode",
		setup: func(e *Env) {
			goModule(e)
			e.editJSON(filepath.Join(e.Home, ".claude", "settings.json"), func(m map[string]any) {
				m["permissions"] = map[string]any{
					"allow": []any{"Bash(go vet:*)"},
					"ask":   []any{"Bash(go build:*)"},
					"deny":  []any{"Bash(git diff:*)"},
				}
			})
		},
		calls: []permCall{
			{"go vet ./...", "allow rule", Ran},
			{"go build ./...", "ask rule (-p cannot ask)", Refused},
			{"git diff", "deny rule", Denied},
			{"git status", "no rule, Claude's read-only set", Ran},
			{"go test ./...", "no rule, not read-only (-p cannot ask)", Refused},
		},
	},
	// Each hole a hostile review found, run with and without gotk.
	{
		agent: "claude", name: "quoted-deny",
		setup: func(e *Env) {
			e.editJSON(filepath.Join(e.Home, ".claude", "settings.json"), func(m map[string]any) {
				m["permissions"] = map[string]any{"allow": []any{"Bash(git:*)"}, "deny": []any{"Bash(git diff:*)"}}
			})
		},
		calls: []permCall{
			{`git "diff"`, "deny rule, the subcommand quoted", Denied},
			{`git di""ff`, "deny rule, an empty quote inside the word", Denied},
			{`git 'log' -1`, "allow rule git:*, quoted", Ran},
		},
	},
	{
		agent: "claude", name: "symlink-outside-read",
		setup: func(e *Env) {
			secret := filepath.Join(e.Home, "secret.txt")
			e.WriteFile(secret, "outside the project\n")
			if err := os.Symlink(secret, filepath.Join(e.Project, "leak")); err != nil {
				e.T.Fatal(err)
			}
		},
		calls: []permCall{
			{"cat leak", "read-only, but the file is outside the project (-p cannot ask)", Refused},
			{"cat main.go", "read-only, inside the project", Ran},
		},
	},
	{
		agent: "claude", name: "disallowed-tools-flag",
		setup: func(e *Env) {
			e.Args = append(e.Args, "--disallowedTools", "Bash(git log:*)")
		},
		calls: []permCall{
			{"git log -1", "--disallowedTools Bash(git log:*)", Denied},
			{"git status", "read-only", Ran},
		},
	},
	{
		// The Agent SDK runs its bundled binary, …/claude-agent-sdk-<platform>/
		// claude, with its flags in the --name=value form.
		agent: "claude", name: "agent-sdk-launcher",
		setup: func(e *Env) {
			e.exe = launchAs(e, filepath.Join("node_modules", "@anthropic-ai", "claude-agent-sdk-linux-x64", "claude"))
			e.Args = append(e.Args, "--disallowedTools=Bash(git log:*)", "--settings", `{"permissions":{"ask":["Bash(git diff:*)"]}}`)
		},
		calls: []permCall{
			{"git log -1", "--disallowedTools=Bash(git log:*)", Denied},
			{"git diff", "--settings ask rule (-p cannot ask)", Refused},
			{"git status", "read-only", Ran},
		},
	},
	{
		// Claude Code under a name gotk does not know: its flags are
		// unknown, so the hook never allows; Claude decides alone.
		agent: "claude", name: "unknown-launcher",
		setup: func(e *Env) {
			e.exe = launchAs(e, filepath.Join("bin", "agent-runner"))
			e.Args = append(e.Args, "--settings", `{"permissions":{"ask":["Bash(git status:*)"]}}`)
		},
		calls: []permCall{
			{"git status", "--settings ask rule gotk cannot see (-p cannot ask)", Refused},
			{"git log -1", "read-only", Ran},
		},
	},
	{
		agent: "claude", name: "nested-claude-dir",
		setup: func(e *Env) {
			e.WriteFile(filepath.Join(e.Project, ".claude", "settings.json"), `{"permissions":{"deny":["Bash(git log:*)"]}}`)
			e.WriteFile(filepath.Join(e.Project, "sub", ".claude", "settings.json"), `{}`)
		},
		calls: []permCall{
			{"cd sub", "read-only", Ran},
			{"git log -1", "the project's deny rule, from a subdirectory with its own empty .claude/", Denied},
		},
	},
	{
		// dontAsk turns every "needs approval" into a denial.
		agent: "claude", name: "dont-ask-mode",
		setup: func(e *Env) {
			e.WriteFile(filepath.Join(e.Project, "Makefile"), "all:\n\t@echo built\n")
			e.Args = append(e.Args, "--permission-mode", "dontAsk")
			e.editJSON(filepath.Join(e.Home, ".claude", "settings.json"), func(m map[string]any) {
				m["permissions"] = map[string]any{"allow": []any{"Bash(make:*)"}, "ask": []any{"Bash(git log:*)"}}
			})
		},
		calls: []permCall{
			{"go test ./...", "no rule, not read-only, dontAsk mode", Denied},
			{"git log -1", "ask rule, dontAsk mode", Denied},
			{"make", "allow rule, dontAsk mode", Ran},
			{"git status", "Claude's read-only set, dontAsk mode", Ran},
		},
	},
	{
		agent: "claude", name: "same-line-function",
		calls: []permCall{
			{"git() { echo dry; }; git status", "a function definition Claude cannot check (-p cannot ask)", Refused},
		},
	},
	// A payload bash runs where it evaluates a variable as arithmetic:
	// gotk must leave the line to Claude's own check.
	{
		agent: "claude", name: "arithmetic-payload",
		calls: []permCall{
			{"x='a[$(touch pwned)]'; (( x )); git status", "(( x )) runs the $(…) in x's value (-p cannot ask)", Refused},
			{`declare "PATH=/tmp/evil"; git status`, "a quoted declaration of PATH (-p cannot ask)", Refused},
		},
	},
	// Read-only commands with a flag that writes, assigns or reads a list
	// of names from a file, and a negated read-only command: Claude's own
	// read-only set takes the last three (Claude Code 2.1.328).
	{
		agent: "claude", name: "readonly-writing-flags",
		calls: []permCall{
			{"file -C -m main.go", "file -C writes main.go.mgc (-p cannot ask)", Refused},
			{"printf -v x %s y", "printf -v assigns a variable (-p cannot ask)", Refused},
			{"du --files0-from=main.go", "du reads names from a file: Claude's read-only set", Ran},
			{"wc --files0-from=main.go", "wc reads names from a file: Claude's read-only set", Ran},
			{"! git status", "a negated read-only command: Claude's read-only set", Ran},
		},
	},
	{
		agent: "gemini", name: "tools-allowed-exclude-default-mode",
		setup: func(e *Env) {
			goModule(e)
			e.ReplaceArgs([]string{"--approval-mode", "yolo"}, "--approval-mode", "default")
			e.editJSON(filepath.Join(e.Home, ".gemini", "settings.json"), func(m map[string]any) {
				m["tools"] = map[string]any{
					"allowed": []any{"run_shell_command(go vet)", "run_shell_command(git)"},
					"exclude": []any{"run_shell_command(git diff)"},
				}
			})
		},
		// Gemini CLI -p words "needs confirmation" and "excluded" alike:
		// "Tool execution denied by policy." So both are Denied here.
		calls: []permCall{
			{"go vet ./...", "tools.allowed run_shell_command(go vet)", Ran},
			{"go build ./...", "no rule, default approval mode (-p cannot ask)", Denied},
			// Measured in 0.61.0: a command-specific tools.exclude is not
			// enforced (tools.exclude is deprecated for the Policy Engine;
			// see policy-toml-deny-yolo for a real deny).
			{"git diff", "tools.exclude run_shell_command(git diff), not enforced", Ran},
			{"git status", "tools.allowed run_shell_command(git)", Ran},
		},
	},
	{
		agent: "gemini", name: "yolo",
		setup: func(e *Env) {
			goModule(e)
			e.editJSON(filepath.Join(e.Home, ".gemini", "settings.json"), func(m map[string]any) {
				m["tools"] = map[string]any{"exclude": []any{"run_shell_command(git diff)"}}
			})
		},
		calls: []permCall{
			{"go vet ./...", "yolo approval mode", Ran},
			// Measured in 0.61.0: a command-specific tools.exclude is not
			// enforced.
			{"git diff", "tools.exclude run_shell_command(git diff), yolo", Ran},
			{"git status", "yolo approval mode", Ran},
		},
	},
	{
		agent: "gemini", name: "policy-toml-deny-yolo",
		setup: func(e *Env) {
			goModule(e)
			e.WriteFile(filepath.Join(e.Home, ".gemini", "policies", "e2e.toml"), `[[rule]]
toolName = "run_shell_command"
commandPrefix = "git diff"
decision = "deny"
priority = 900
`)
		},
		calls: []permCall{
			{"git diff", "policy engine rule commandPrefix git diff, deny", Denied},
			{"git status", "yolo approval mode", Ran},
		},
	},
	{
		// Gemini's own flags: --allowed-tools allows go vet (gotk leaves
		// it alone, as for tools.allowed; the rewrite would lose the
		// allow), --policy loads a deny rule gotk must see.
		agent: "gemini", name: "allowed-tools-and-policy-flags",
		setup: func(e *Env) {
			goModule(e)
			e.ReplaceArgs([]string{"--approval-mode", "yolo"}, "--approval-mode", "default")
			e.WriteFile(filepath.Join(e.Project, "deny.toml"), `[[rule]]
toolName = "run_shell_command"
commandPrefix = "git status"
decision = "deny"
priority = 900
`)
			e.Args = append(e.Args, "--allowed-tools", "run_shell_command(go vet),run_shell_command(git)", "--policy", "deny.toml")
		},
		calls: []permCall{
			{"go vet ./...", "--allowed-tools run_shell_command(go vet)", Ran},
			{"git log -1", "--allowed-tools run_shell_command(git)", Ran},
			{"git status", "--policy deny.toml: deny", Denied},
			{"go build ./...", "no rule, default approval mode (-p cannot ask)", Denied},
		},
	},
	{
		// --policy in yolo mode: its deny must reach `git diff` through
		// gotk too (Gemini matches the rewritten command).
		agent: "gemini", name: "policy-flag-deny-yolo",
		setup: func(e *Env) {
			goModule(e)
			e.WriteFile(filepath.Join(e.Project, "deny.toml"), `[[rule]]
toolName = "run_shell_command"
commandPrefix = "git diff"
decision = "deny"
priority = 900
`)
			e.Args = append(e.Args, "--policy", "deny.toml")
		},
		calls: []permCall{
			{"git diff", "--policy deny.toml: deny", Denied},
			{"git status", "yolo approval mode", Ran},
		},
	},
	{
		// tools.core: only what it lists runs; `gotk git status` is not
		// run_shell_command(git), so gotk must leave `git status` alone.
		agent: "gemini", name: "tools-core-default-mode",
		setup: func(e *Env) {
			goModule(e)
			e.ReplaceArgs([]string{"--approval-mode", "yolo"}, "--approval-mode", "default")
			e.editJSON(filepath.Join(e.Home, ".gemini", "settings.json"), func(m map[string]any) {
				m["tools"] = map[string]any{"core": []any{"run_shell_command(git)"}}
			})
		},
		calls: []permCall{
			{"git status", "tools.core run_shell_command(git)", Ran},
			{"go vet ./...", "tools.core lists no go", Denied},
		},
	},
	{
		// An allow rule naming gotk: Gemini matches its rules on the
		// rewritten command, so `gotk git log -1` would run where `git log
		// -1` is refused in default mode.
		agent: "gemini", name: "allow-rule-names-gotk",
		setup: func(e *Env) {
			e.ReplaceArgs([]string{"--approval-mode", "yolo"}, "--approval-mode", "default")
			e.editJSON(filepath.Join(e.Home, ".gemini", "settings.json"), func(m map[string]any) {
				m["tools"] = map[string]any{"allowed": []any{"run_shell_command(gotk)", "run_shell_command(git status)"}}
			})
		},
		calls: []permCall{
			{"git log -1", "default mode; only run_shell_command(gotk) would allow it", Denied},
			{"git status", "tools.allowed run_shell_command(git status)", Ran},
		},
	},
	{
		agent: "codex", name: "execpolicy-rules-on-request",
		setup: func(e *Env) {
			codexOnRequest(e)
			e.WriteFile(filepath.Join(e.Home, ".codex", "rules", "default.rules"), `prefix_rule(pattern = ["git", "log"], decision = "allow")
prefix_rule(pattern = ["make"], decision = "prompt")
prefix_rule(pattern = ["git", "diff"], decision = "forbidden")
`)
		},
		calls: []permCall{
			{"git log -3", "execpolicy allow", Ran},
			{"make", "execpolicy prompt (exec cannot ask)", Refused},
			{"git diff", "execpolicy forbidden", Denied},
			{"ls -la", "no rule, on-request", Ran},
		},
	},
	{
		agent: "codex", name: "on-request-no-rules",
		setup: codexOnRequest,
		calls: []permCall{
			{"ls -la", "Codex known-safe, on-request", Ran},
			{"make", "on-request, full access", Ran},
			{"git status", "on-request, full access", Ran},
		},
	},
	{
		agent: "codex", name: "approval-never",
		calls: []permCall{
			{"make", "approval_policy never", Ran},
			{"git status", "approval_policy never", Ran},
		},
	},
	{
		agent: "copilot", name: "allow-deny-tool-flags",
		setup: func(e *Env) {
			goModule(e)
			e.ReplaceArgs([]string{"--allow-all-tools"}, "--allow-tool", "shell(go vet)", "--deny-tool", "shell(git diff)")
		},
		calls: []permCall{
			{"go vet ./...", "--allow-tool shell(go vet)", Ran},
			{"go build ./...", "no rule (-p cannot ask)", Refused},
			{"git diff", "--deny-tool shell(git diff)", Denied},
			{"git status", "no rule, Copilot's read-only auto-allow", Ran},
		},
	},
	{
		// --allow-all-tools alone leaves path approvals in force: Copilot
		// refuses a path outside the project in -p. A hook's allow got
		// past that approval (measured on 1.0.102: gotk's rewrite of
		// `cat /etc/hostname` ran), so gotk rewrites no such line.
		agent: "copilot", name: "allow-all-tools-outside-paths",
		setup: goModule,
		calls: []permCall{
			{"cat /etc/hostname", "--allow-all-tools, a path outside the project", Refused},
			{"ls ../", "--allow-all-tools, the parent directory", Refused},
			{"git status", "--allow-all-tools", Ran},
		},
	},
	{
		// Copilot CLI reads hooks from .claude/settings.json; Claude's
		// permission rules there are not Copilot's: a deny in them leaves
		// the command to Copilot's own rules, with gotk as without.
		agent: "copilot", name: "claude-settings-rules",
		setup: func(e *Env) {
			goModule(e)
			for _, dir := range []string{e.Project, e.Home} {
				e.WriteFile(filepath.Join(dir, ".claude", "settings.json"), `{"permissions":{"deny":["Bash(git diff:*)","Bash(go build:*)"],"ask":["Bash(git log:*)"]}}`)
			}
		},
		calls: []permCall{
			{"git diff", "Bash(git diff:*) deny in .claude/settings.json", Ran},
			{"go build ./...", "Bash(go build:*) deny in .claude/settings.json", Ran},
			{"git log -3", "Bash(git log:*) ask in .claude/settings.json", Ran},
		},
	},
	{
		agent: "copilot", name: "allow-all-deny-tool",
		setup: func(e *Env) {
			goModule(e)
			e.Args = append(e.Args, "--deny-tool", "shell(git diff)")
		},
		calls: []permCall{
			{"go build ./...", "--allow-all-tools", Ran},
			{"git diff", "--deny-tool shell(git diff)", Denied},
			{"git status", "--allow-all-tools", Ran},
		},
	},
}

// codexOnRequest: approval_policy "on-request" instead of "never", without
// the exec flag that bypasses approvals (the sandbox stays off: this
// container has no user namespaces for Codex's bwrap). Codex 0.169.0
// refuses "untrusted" ("no longer supported"), so "ask" in Codex is an
// execpolicy prompt rule.
func codexOnRequest(e *Env) {
	e.ReplaceArgs([]string{"--dangerously-bypass-approvals-and-sandbox"})
	p := filepath.Join(e.Home, ".codex", "config.toml")
	cfg := readFile(e.T, p)
	e.WriteFile(p, strings.Replace(cfg, `approval_policy = "never"`, `approval_policy = "on-request"`, 1))
}

func TestPermissionParity(t *testing.T) {
	RequireEnabled(t)
	for _, a := range ContractAgents() {
		for _, c := range permCases {
			if c.agent != a.Name {
				continue
			}
			t.Run(a.Name+"/"+c.name, func(t *testing.T) {
				if c.skip != "" {
					t.Skip(c.skip)
				}
				bin := RequireGotk(t, a)
				var cmds []string
				for _, k := range c.calls {
					cmds = append(cmds, k.cmd)
				}
				script := fakemodel.Script{Commands: cmds, Args: c.args}
				run := func(withGotk bool) *Result {
					e := NewEnv(t, a, script)
					if c.setup != nil {
						c.setup(e)
					}
					if withGotk {
						e.InstallGotk(bin)
					}
					return e.Run()
				}
				raw, got := run(false), run(true)
				for i, k := range c.calls {
					ro, go_ := classifyRun(a.Name, raw, i), classifyRun(a.Name, got, i)
					t.Logf("%-16s %-48s without gotk: %-24s with gotk: %s", k.cmd, k.why, ro, go_)
					t.Logf("  without: %q", tail(raw.ToolResult(i), 300))
					t.Logf("  with:    %q", tail(got.ToolResult(i), 300))
					if ro != k.want {
						t.Errorf("%s: premise: %q (%s) without gotk: %s, want %s", a.Name, k.cmd, k.why, ro, k.want)
					}
					if go_ != ro {
						t.Errorf("%s: PARITY: %q (%s): %s without gotk, %s with gotk", a.Name, k.cmd, k.why, ro, go_)
					} else if ro == Refused && !approvalWording.MatchString(refusalText(a.Name, got, i)) {
						// Same outcome, but the model must still learn that
						// the command did not run for want of approval.
						t.Errorf("%s: MESSAGE: %q (%s) was refused with gotk, but the tool result %q does not say it needs approval (without gotk: %q)",
							a.Name, k.cmd, k.why, got.ToolResult(i), raw.ToolResult(i))
					}
				}
			})
		}
	}
}

// endedEarly names the agents that end the whole run instead of sending
// back a refused call's result (droid exec: "Exec ended early: insufficient
// permission to proceed"): the first call without a result is then Refused,
// and the run's output is what says so.
var endedEarly = map[string]*regexp.Regexp{"droid": regexp.MustCompile(`insufficient permission`)}

func classifyRun(agent string, r *Result, i int) Outcome {
	o := Classify(agent, r.ToolResult(i))
	if re := endedEarly[agent]; o == Unknown && re != nil && i == len(r.ToolResults) && re.MatchString(r.Stderr+r.Stdout) {
		return Refused
	}
	return o
}

func refusalText(agent string, r *Result, i int) string {
	if endedEarly[agent] != nil && r.ToolResult(i) == "" {
		return r.Stderr + r.Stdout
	}
	return r.ToolResult(i)
}

// approvalWording is what a refusal must say, in some words, so that the
// model knows the command did not run.
var approvalWording = regexp.MustCompile(`(?i)approv|permission|grant|confirm|denied|rejected|not run|can.t be checked`)

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// launchAs links the agent's executable at rel under the run's home and
// returns the link: the agent runs under that name.
func launchAs(e *Env, rel string) string {
	exe, err := filepath.EvalSymlinks(e.exe)
	if err != nil {
		e.T.Fatal(err)
	}
	link := filepath.Join(e.Home, "launch", rel)
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(exe, link); err != nil {
		e.T.Fatal(err)
	}
	return link
}
