package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/hookio/hookiotest"
)

// TestHookRewriteParity: for every host, a sample of the
// decision corpus and a set of session and mode variants, the hook's
// answer equals `gotk rewrite --json --host X` — the command, and for
// hosts whose answer says allow or ask, which — in and out of a host
// session. Both are the real binaries, built here, run in the same world.
// It needs no agent and runs in `make test`.
func TestHookRewriteParity(t *testing.T) {
	pkgs := []string{"./runner/cmd/gotk", "./runner/cmd/gotk-report"}
	for _, a := range []string{"claude", "cursor", "gemini", "codex", "vibe", "copilot", "cline", "droid", "crush"} {
		pkgs = append(pkgs, "./agents/"+a+"/cmd/gotk-hook-"+a)
	}
	root, bin := repoBinaries(t, pkgs...)

	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	for f, data := range map[string]string{
		".claude/settings.json":   `{"permissions":{"allow":["Bash(go test:*)","Bash(make)","Bash(npm run:*)"],"ask":["Bash(git log:*)"],"deny":["Bash(git push:*)","Bash(rm:*)"]}}`,
		".cursor/cli-config.json": `{"permissions":{"allow":["Shell(git)","Shell(go)","Shell(ls)"],"deny":["Shell(rm)","Shell(git:push*)"]}}`,
		".gemini/settings.json":   `{"tools":{"allowed":["run_shell_command(go test)","run_shell_command(ls)"],"exclude":["run_shell_command(git push)"],"confirmationRequired":["run_shell_command(git log)"]}}`,
		".codex/rules/r.rules":    "prefix_rule(pattern=[\"git\", \"push\"], decision=\"forbidden\")\nprefix_rule(pattern=[\"git\", \"log\"], decision=\"prompt\")\nprefix_rule(pattern=[\"go\"], decision=\"allow\")\n",
		".vibe/config.toml":       "[tools.bash]\nallowlist = [\"git status\", \"ls\"]\ndenylist = [\"git push\", \"rm\"]\nsensitive_patterns = [\"git log\"]\n",
		"proj/notes.txt":          "x\n",
		"proj/team.toml":          "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"git diff\"\ndecision = \"deny\"\npriority = 900\n",
		"wrap/claude":             fakeHost,
		"wrap/copilot":            fakeHost,
		"wrap/droid":              fakeHost,
		"wrap/gemini":             fakeHost,
	} {
		p := filepath.Join(home, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home, "PATH=" + bin + ":/usr/bin:/bin", "CLAUDE_PROJECT_DIR=" + proj,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "GOTK_TRACK=0"}

	// a session variant runs both binaries as children of a fake host
	// process whose flags core/host reads
	type variant struct {
		host, name string
		payload    func(cmd string) string
		mode       string   // --mode for gotk rewrite, as the payload says
		wrap       []string // the fake host process and its flags
		allow      func(answer map[string]any) (bool, bool)
	}
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	pd := func(a map[string]any) (bool, bool) {
		h, _ := a["hookSpecificOutput"].(map[string]any)
		p, ok := h["permissionDecision"].(string)
		return p == "allow", ok
	}
	variants := []variant{
		// a hook finds its agent above it (without one it never allows)
		{"claude", "default", func(c string) string {
			return `{"tool_name":"Bash","permission_mode":"default","tool_input":{"command":` + js(c) + `}}`
		}, "", []string{filepath.Join(home, "wrap", "claude")}, pd},
		{"claude", "bypass", func(c string) string {
			return `{"tool_name":"Bash","permission_mode":"bypassPermissions","tool_input":{"command":` + js(c) + `}}`
		}, "bypassPermissions", []string{filepath.Join(home, "wrap", "claude")}, pd},
		{"claude", "session-disallowed", func(c string) string {
			return `{"tool_name":"Bash","permission_mode":"default","tool_input":{"command":` + js(c) + `}}`
		}, "", []string{filepath.Join(home, "wrap", "claude"), "--disallowedTools", "Bash(git status:*)", "--add-dir", "/etc"}, pd},
		{"cursor", "default", func(c string) string { return `{"tool_name":"Shell","tool_input":{"command":` + js(c) + `}}` }, "", nil,
			func(a map[string]any) (bool, bool) { p, ok := a["permission"].(string); return p == "allow", ok }},
		{"gemini", "default", func(c string) string {
			return `{"tool_name":"run_shell_command","tool_input":{"command":` + js(c) + `}}`
		}, "", []string{filepath.Join(home, "wrap", "gemini")}, nil},
		{"gemini", "session-flags", func(c string) string {
			return `{"tool_name":"run_shell_command","tool_input":{"command":` + js(c) + `}}`
		}, "", []string{filepath.Join(home, "wrap", "gemini"), "--allowed-tools", "run_shell_command(git status),run_shell_command(make)", "--policy", filepath.Join(home, "proj", "team.toml")}, nil},
		{"codex", "default", func(c string) string {
			return `{"tool_name":"Bash","permission_mode":"default","tool_input":{"command":` + js(c) + `}}`
		}, "", nil, nil},
		{"codex", "bypass", func(c string) string {
			return `{"tool_name":"Bash","permission_mode":"bypassPermissions","tool_input":{"command":` + js(c) + `}}`
		}, "bypassPermissions", nil, nil},
		{"vibe", "default", func(c string) string { return `{"tool_name":"bash","tool_input":{"command":` + js(c) + `}}` }, "", nil, nil},
		{"copilot", "vscode", func(c string) string {
			return `{"tool_name":"run_in_terminal","tool_input":{"command":` + js(c) + `}}`
		}, "", nil, pd},
		{"copilot", "cli-allow-all", func(c string) string {
			return `{"toolName":"bash","toolArgs":` + js(`{"command":`+js(c)+`}`) + `}`
		}, "", []string{filepath.Join(home, "wrap", "copilot"), "--allow-all-tools"}, nil},
		{"cline", "default", func(c string) string {
			return `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":[` + js(c) + `]}}}`
		}, "", nil, nil},
		// Droid: a risk level within the autonomy is what --mode
		// bypassPermissions stands for; off (or above) is no mode.
		{"droid", "off", func(c string) string {
			return `{"tool_name":"Execute","permission_mode":"off","tool_input":{"command":` + js(c) + `,"riskLevel":"low"}}`
		}, "", []string{filepath.Join(home, "wrap", "droid")}, pd},
		{"droid", "risk-within", func(c string) string {
			return `{"tool_name":"Execute","permission_mode":"auto-medium","tool_input":{"command":` + js(c) + `,"riskLevel":"medium"}}`
		}, "bypassPermissions", []string{filepath.Join(home, "wrap", "droid")}, pd},
		{"crush", "default", func(c string) string {
			return `{"event":"PreToolUse","tool_name":"bash","tool_input":{"command":` + js(c) + `}}`
		}, "", nil, func(a map[string]any) (bool, bool) { return a["decision"] == "allow", true }},
	}

	cmds := sample(t, filepath.Join(root, "core", "decision", "testdata", "commands.jsonl"), 90)
	cmds = append(cmds, "git status", "ls -la", "git log -3", "git push", "go test ./...", `git "status"`, "cat notes.txt", "cat /etc/hostname")
	diffs := 0
	for _, v := range variants {
		for _, c := range cmds {
			hook := exec.Command(filepath.Join(bin, "gotk-hook-"+v.host))
			args := []string{"rewrite", "--json", "--host", v.host}
			if v.mode != "" {
				args = append(args, "--mode", v.mode)
			}
			rw := exec.Command(filepath.Join(bin, "gotk"), append(args, "--", c)...)
			if v.wrap != nil {
				// wrap/<host> FLAGS -- PROGRAM ARGS runs PROGRAM as its child
				hook = exec.Command(v.wrap[0], append(append(v.wrap[1:], "--"), hook.Path)...)
				rw = exec.Command(v.wrap[0], append(append(v.wrap[1:], "--"), rw.Args...)...)
			}
			hook.Env, hook.Dir, hook.Stdin = env, proj, strings.NewReader(v.payload(c))
			out, err := hook.Output()
			if err != nil {
				t.Fatalf("%s/%s %q: hook failed: %v", v.host, v.name, c, err)
			}
			rw.Env, rw.Dir = env, proj
			rout, err := rw.Output()
			if err != nil {
				t.Fatalf("%s/%s %q: gotk rewrite failed: %v", v.host, v.name, c, err)
			}
			var ans struct{ Verdict, Command string }
			if err := json.Unmarshal(rout, &ans); err != nil {
				t.Fatalf("%s/%s %q: rewrite --json: %v: %s", v.host, v.name, c, err, rout)
			}
			want := ""
			if ans.Verdict == "allow" || ans.Verdict == "ask" {
				want = ans.Command
			}
			var answer map[string]any
			json.Unmarshal(out, &answer)
			got := strings.ReplaceAll(hookiotest.RewrittenCommand(answer), filepath.Join(bin, "gotk")+" ", "gotk ")
			if got != want {
				diffs++
				t.Errorf("%s/%s %q:\n  hook:    %q (%s)\n  rewrite: %q (%s)", v.host, v.name, c, got, strings.TrimSpace(string(out)), want, ans.Verdict)
				continue
			}
			if v.allow != nil && got != "" {
				if allow, ok := v.allow(answer); ok && allow != (ans.Verdict == "allow") {
					diffs++
					t.Errorf("%s/%s %q: hook allow=%v, rewrite verdict %s", v.host, v.name, c, allow, ans.Verdict)
				}
			}
		}
	}
	t.Logf("%d commands × %d variants, %d differences", len(cmds), len(variants), diffs)
}

// fakeHost is a host process: `claude FLAGS -- PROGRAM ARGS` runs PROGRAM
// as its child, so PROGRAM finds the flags among its ancestors.
const fakeHost = "#!/bin/sh\nwhile [ \"$1\" != \"--\" ]; do shift; done\nshift\n\"$@\"\n"

// sample returns about n commands spread over the corpus.
func sample(t *testing.T, path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var all []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var s string
		if json.Unmarshal(sc.Bytes(), &s) == nil {
			all = append(all, s)
		}
	}
	step := len(all)/n + 1
	var out []string
	for i := 0; i < len(all); i += step {
		out = append(out, all[i])
	}
	return out
}

// repoBinaries returns the repo's root and a directory holding its
// binaries pkgs: make e2e runs this package with GOWORK=off and hands over
// the binaries it built (GOTK_E2E_GOTK_BIN); make test builds them here,
// through the repo's go.work named explicitly (so GOWORK=off in the caller
// cannot hide it). It skips t in -short mode or outside the repo.
func repoBinaries(t *testing.T, pkgs ...string) (root, bin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds binaries")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.work")); err != nil {
		t.Skip("needs the repo's go.work to build the binaries")
	}
	if bin = os.Getenv("GOTK_E2E_GOTK_BIN"); bin != "" {
		return root, bin
	}
	bin = t.TempDir()
	build := exec.Command("go", append([]string{"build", "-o", bin}, pkgs...)...)
	build.Dir = root
	build.Env = append(os.Environ(), "GOWORK="+filepath.Join(root, "go.work"))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return root, bin
}
