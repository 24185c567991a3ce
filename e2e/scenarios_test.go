package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/e2e/fakemodel"
)

// Scenarios 3, 5, 6, 7 and 8 of docs/agents.md. Scenario 4 is permission_test.go.

// requireCompactStatus fails t unless got is gotk's compact `git status`.
func requireCompactStatus(t *testing.T, agent, got string) {
	t.Helper()
	for _, h := range append([]string{gitStatusRaw}, gitStatusHints...) {
		if strings.Contains(got, h) {
			t.Errorf("%s: tool result is git's raw status (has %q), not gotk's compact form:\n%s", agent, h, got)
		}
	}
	for _, f := range []string{"## main", "main.go", "untracked.txt"} {
		if !strings.Contains(got, f) {
			t.Errorf("%s: compact status lacks %q:\n%s", agent, f, got)
		}
	}
	if strings.Contains(got, "command not found") {
		t.Errorf("%s: the rewritten command could not find gotk:\n%s", agent, got)
	}
}

// requireRawStatus fails t unless got is git's own, unfiltered status.
func requireRawStatus(t *testing.T, agent, got string) {
	t.Helper()
	if !strings.Contains(got, gitStatusRaw) || !strings.Contains(got, gitStatusHints[0]) || !strings.Contains(got, "untracked.txt") {
		t.Errorf("%s: tool result is not git's raw status (the command must run unfiltered):\n%s", agent, got)
	}
}

// goOnLoginPath makes `go` visible to a login shell (Codex runs every
// command in one, and Debian's /etc/profile resets PATH): a user who has Go
// has it on the PATH of their profile, as ~/.bash_profile does here. It
// adds only go's own directory, never gotk's.
func goOnLoginPath(t *testing.T, e *Env) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	e.WriteFile(filepath.Join(e.Home, ".bash_profile"), "export PATH=\"$PATH:"+filepath.Dir(goBin)+"\"\n")
}

// TestGotkCompoundAndAudit — scenarios 3 and 7 in one run per agent, with
// GOTK_HOOK_AUDIT=1 in the agent's environment (its hook inherits it):
//   - `git status && go version`: both parts ran, in order, and only the
//     first was filtered;
//   - `echo hi`: not rewritten;
//   - the audit log has one line per decision: the rewrite of the compound
//     (original and rewritten command) and the passthrough of `echo hi`.
func TestGotkCompoundAndAudit(t *testing.T) {
	RequireEnabled(t)
	const compound = "git status && go version"
	script := fakemodel.Script{Commands: []string{compound, "echo hi"}}
	for _, a := range SelectedAgents() {
		t.Run(a.Name, func(t *testing.T) {
			bin := RequireGotk(t, a)
			e := NewEnv(t, a, script)
			goOnLoginPath(t, e)
			if a.Name == "claude" {
				// Claude Code -p refuses `go version` in a compound ("The
				// following part requires approval: go version") with or
				// without gotk: allow it, as a user would.
				e.editJSON(filepath.Join(e.Home, ".claude", "settings.json"), func(m map[string]any) {
					m["permissions"] = map[string]any{"allow": []any{"Bash(go version)"}}
				})
			}
			e.Vars["GOTK_HOOK_AUDIT"] = "1"
			e.InstallGotk(bin)
			res := e.Run()
			res.Require(t, a.Name, len(script.Commands))

			got := res.ToolResult(0)
			t.Logf("tool result 0: %q", got)
			requireCompactStatus(t, a.Name, got)
			st, gv := strings.Index(got, "## main"), strings.Index(got, "go version go1.")
			switch {
			case gv < 0:
				t.Errorf("%s: `go version` did not run (or ran filtered):\n%s", a.Name, got)
			case st > gv:
				t.Errorf("%s: the parts ran out of order:\n%s", a.Name, got)
			}
			if !strings.Contains(res.ToolResult(1), "hi") {
				t.Errorf("%s: `echo hi` gave %q", a.Name, res.ToolResult(1))
			}

			// Scenario 7.
			log := e.AuditLog()
			for _, l := range log {
				t.Logf("audit: %q", l)
			}
			if a.addHook == nil {
				if len(log) > 0 {
					t.Errorf("%s: the plugin wrote an audit log; update this test and docs/agents.md", a.Name)
				}
				t.Logf("%s: audit log not applicable: the plugin calls `gotk rewrite --json`, which keeps no audit log", a.Name)
				return
			}
			if filtered[a.Name] && len(log) == 1 {
				// The agent calls the hook only for commands that name a
				// program gotk may rewrite: `echo hi` never reached it.
				t.Logf("%s: the hook entry's filter kept `echo hi` from the hook: no passthrough line", a.Name)
				log = append(log, []string{"", a.Name, "passthrough", "echo hi", ""})
			}
			if len(log) != 2 {
				t.Fatalf("%s: audit log has %d lines, want 2 (one per decision)", a.Name, len(log))
			}
			rw, pt := log[0], log[1]
			if len(rw) != 5 || len(pt) != 5 {
				t.Fatalf("%s: audit lines do not have 5 fields: %q", a.Name, log)
			}
			if rw[1] != a.Name || pt[1] != a.Name {
				t.Errorf("%s: audit lines name agent %q, %q", a.Name, rw[1], pt[1])
			}
			if rw[2] != "allow" && rw[2] != "ask" {
				t.Errorf("%s: the compound's audit action is %q, want a rewrite (allow or ask)", a.Name, rw[2])
			}
			if rw[3] != compound || !strings.HasSuffix(rw[4], "gotk "+compound) {
				t.Errorf("%s: the compound's audit line says %q → %q", a.Name, rw[3], rw[4])
			}
			if pt[2] != "passthrough" || pt[3] != "echo hi" || pt[4] != "" {
				t.Errorf("%s: `echo hi`'s audit line is %q", a.Name, pt)
			}
		})
	}
}

// filtered names the agents whose hook entry filters commands before the
// hook runs (Droid's commandRegex).
var filtered = map[string]bool{"droid": true}

// TestGotkLoginShellPath — scenario 8: gotk lives only in $HOME/go/bin,
// which the agent's PATH has and a login shell's does not; the rewritten
// command still runs and the model gets gotk's compact output.
func TestGotkLoginShellPath(t *testing.T) {
	RequireEnabled(t)
	for _, a := range SelectedAgents() {
		t.Run(a.Name, func(t *testing.T) {
			bin := RequireGotk(t, a)
			e := NewEnv(t, a, fakemodel.Script{Commands: []string{"git status"}})
			e.BasePath = PathWithoutGotk()
			goBin := e.CopyGotk(bin, filepath.Join(e.Home, "go", "bin"))
			e.InstallGotk(goBin)
			if out, err := e.Shell("command -v gotk"); err != nil || strings.TrimSpace(out) != filepath.Join(goBin, "gotk") {
				t.Fatalf("the agent's PATH does not find gotk in %s: %q %v", goBin, out, err)
			}
			if out, err := e.Shell("bash -lc 'command -v gotk'"); err == nil {
				t.Fatalf("a login shell finds gotk (%q); the scenario needs one that does not", out)
			}
			res := e.Run()
			res.Require(t, a.Name, 1)
			t.Logf("tool result: %q", res.ToolResult(0))
			requireCompactStatus(t, a.Name, res.ToolResult(0))
		})
	}
}

// crashScripts replace a hook binary in scenario 5 (b).
var crashScripts = []struct{ name, script string }{
	// A crash: garbage on stdout and stderr, exit 1 (not 2, which Claude
	// Code and Codex define as "block").
	{"exit1-garbage", "#!/bin/sh\ncat >/dev/null\necho '{\"hookSpecificOutput\": garbage'\necho 'panic: boom' >&2\nexit 1\n"},
	// Killed by SIGSEGV halfway through its answer.
	{"sigsegv", "#!/bin/bash\ncat >/dev/null\nprintf '{\"decision\":'\nkill -SEGV $$\n"},
}

// crashBlocksByDesign names the agents whose documented hook contract
// turns a failing pre-tool hook into a deny: there the test records that
// the agent does so, and the garbage-stdin case proves that gotk's real hook
// binary never fails.
var crashBlocksByDesign = map[string]string{
	"copilot": "Copilot CLI: a preToolUse hook exiting non-zero denies the call (\"Denied by preToolUse hook (hook errored)\")",
}

// TestGotkBroken — scenario 5: a broken gotk never blocks the agent's
// command; it runs unfiltered (or, with a broken config, still filtered
// with the defaults).
func TestGotkBroken(t *testing.T) {
	RequireEnabled(t)
	script := fakemodel.Script{Commands: []string{"git status"}}
	for _, a := range ContractAgents() {
		t.Run(a.Name, func(t *testing.T) {
			bin := RequireGotk(t, a)
			hook := "gotk-hook-" + a.Name

			// (a) the runner `gotk` is missing from PATH: the hook (or the
			// plugin) finds no gotk and leaves the command alone.
			t.Run("runner-missing", func(t *testing.T) {
				e := NewEnv(t, a, script)
				e.BasePath = PathWithoutGotk()
				dir := e.CopyGotk(bin, filepath.Join(e.Home, "gotk-bin"), "gotk")
				e.InstallGotk(dir)
				if out, err := e.Shell("command -v gotk"); err == nil {
					t.Fatalf("gotk is still on the agent's PATH: %s", out)
				}
				res := e.Run()
				res.Require(t, a.Name, 1)
				t.Logf("tool result: %q", res.ToolResult(0))
				requireRawStatus(t, a.Name, res.ToolResult(0))
			})

			// (b) the hook binary crashes (hook agents), or the runner that
			// plugins ask crashes (plugin agents).
			for i, c := range crashScripts {
				t.Run("crash-"+c.name, func(t *testing.T) {
					if i > 0 && a.contractOnly() {
						t.Skipf("%s: the first crash only in a default run (GOTK_E2E_AGENTS=%s runs all)", a.Name, a.Name)
					}
					e := NewEnv(t, a, script)
					e.BasePath = PathWithoutGotk()
					dir := e.CopyGotk(bin, filepath.Join(e.Home, "gotk-bin"))
					e.InstallGotk(dir)
					victim := hook
					if a.addHook == nil {
						victim = "gotk" // the plugin runs `gotk rewrite --json`
					}
					e.WriteFile(filepath.Join(dir, victim), c.script)
					os.Chmod(filepath.Join(dir, victim), 0o755)
					res := e.Run()
					res.Require(t, a.Name, 1)
					got := res.ToolResult(0)
					t.Logf("tool result: %q", got)
					if why, ok := crashBlocksByDesign[a.Name]; ok {
						if o := Classify(a.Name, got); o != Blocked {
							t.Errorf("%s: a crashing hook was documented to block (%s), but the outcome is %s; update crashBlocksByDesign and docs/agents.md", a.Name, why, o)
						}
						t.Logf("%s: blocked by design: %s", a.Name, why)
						return
					}
					requireRawStatus(t, a.Name, got)
				})
			}

			// (b') garbage on the REAL hook's stdin, inside the agent: the
			// wrapper throws the agent's payload away and feeds the real
			// binary garbage; the agent must still run the command.
			t.Run("hook-garbage-stdin", func(t *testing.T) {
				if a.addHook == nil {
					t.Skipf("%s: no hook binary (plugin); the plugin's own tests feed `gotk rewrite --json` garbage", a.Name)
				}
				e := NewEnv(t, a, script)
				dir := e.CopyGotk(bin, filepath.Join(e.Home, "gotk-bin"))
				e.InstallGotk(dir)
				real := filepath.Join(dir, hook+".real")
				if err := os.Rename(filepath.Join(dir, hook), real); err != nil {
					t.Fatal(err)
				}
				e.WriteFile(filepath.Join(dir, hook), "#!/bin/sh\ncat >/dev/null\nprintf '\\357\\273\\277{\"tool_name\": [garbage\\000' | exec "+shellQuote(real)+"\n")
				os.Chmod(filepath.Join(dir, hook), 0o755)
				res := e.Run()
				res.Require(t, a.Name, 1)
				t.Logf("tool result: %q", res.ToolResult(0))
				requireRawStatus(t, a.Name, res.ToolResult(0))
			})

			// (c) gotk's own config file is broken: a warning, the defaults,
			// and the command runs (still filtered).
			t.Run("broken-config", func(t *testing.T) {
				if a.contractOnly() {
					t.Skipf("%s: not in a default run (GOTK_E2E_AGENTS=%s runs it)", a.Name, a.Name)
				}
				e := NewEnv(t, a, script)
				e.WriteFile(filepath.Join(e.Home, ".config", "gotk", "config.toml"), "[hooks\nexclude_commands = [\"git\n\x00\xff")
				e.InstallGotk(bin)
				res := e.Run()
				res.Require(t, a.Name, 1)
				t.Logf("tool result: %q", res.ToolResult(0))
				requireCompactStatus(t, a.Name, res.ToolResult(0))
			})
		})
	}
}

// TestGotkUninstall — scenario 6: after `gotk-install` and `gotk-install
// --uninstall`, HOME is exactly as before install (every file byte for
// byte, nothing of gotk's left) and the agent's tool result equals the
// no-gotk baseline; `gotk verify` passes the install and has nothing to say
// after the uninstall.
func TestGotkUninstall(t *testing.T) {
	RequireEnabled(t)
	script := fakemodel.Script{Commands: []string{"git status", "echo hi"}}
	for _, a := range SelectedAgents() {
		t.Run(a.Name, func(t *testing.T) {
			bin := RequireGotk(t, a)
			base := NewEnv(t, a, script)
			baseRes := base.Run()
			baseRes.Require(t, a.Name+" (without gotk)", len(script.Commands))

			e := NewEnv(t, a, script)
			before := Snapshot(e.Home)
			e.InstallGotk(bin)
			if d := SnapshotDiff(before, Snapshot(e.Home)); len(d) == 0 {
				t.Fatalf("%s: gotk-install changed nothing under HOME", a.Name)
			}
			// gotk verify, in the run's environment, passes the install
			// (it probes the hook and checks gotk is on PATH).
			out, code := e.Verify(bin)
			if code != 0 || !strings.Contains(out, "PASS  "+a.Name+" (global): ") || strings.Contains(out, "FAIL") {
				t.Errorf("%s: gotk verify after install (exit %d):\n%s", a.Name, code, out)
			}
			e.UninstallGotk(bin)
			if out, code := e.Verify(bin); code != 0 || strings.Contains(out, "PASS  "+a.Name) || strings.Contains(out, "FAIL") {
				t.Errorf("%s: gotk verify after uninstall (exit %d):\n%s", a.Name, code, out)
			}
			var leftovers, changed []string
			for _, d := range SnapshotDiff(before, Snapshot(e.Home)) {
				if isGotkLeftover(d) {
					leftovers = append(leftovers, d)
				} else {
					changed = append(changed, d)
				}
			}
			if len(changed) > 0 {
				t.Errorf("%s: HOME after uninstall differs from before install:\n%s", a.Name, strings.Join(changed, "\n"))
			}
			if len(leftovers) > 0 {
				// Uninstall takes out its backups, its lock and
				// the folders it made, too.
				t.Errorf("%s: gotk left files of its own after uninstall:\n%s", a.Name, strings.Join(leftovers, "\n"))
			}
			res := e.Run()
			res.Require(t, a.Name, len(script.Commands))
			for i, cmd := range script.Commands {
				want, got := Normalize(baseRes.ToolResult(i)), Normalize(res.ToolResult(i))
				if got != want {
					t.Errorf("%s: %q after uninstall gave\n%q\nthe no-gotk baseline\n%q", a.Name, cmd, got, want)
				}
			}
		})
	}
}

// isGotkLeftover tells apart a file of gotk's own (its data dir, a
// FILE.gotk.bak backup) from a change to the agent's configuration.
func isGotkLeftover(diff string) bool {
	_, p, _ := strings.Cut(diff, " ")
	return strings.HasPrefix(diff, "added ") &&
		(p == ".local" || p == ".local/share" || strings.HasPrefix(p, ".local/share/gotk") || strings.HasSuffix(p, ".gotk.bak"))
}
