package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookUnderLauncher runs the real gotk-hook-claude as a grandchild of
// a node process whose command line is the Claude Agent SDK's (`node
// …/@anthropic-ai/claude-agent-sdk/cli.js FLAGS`, as SDKs before 0.2 start
// Claude Code; later ones run a bundled binary named claude) and of a
// launcher gotk does not know. The SDK's flags are read: --disallowedTools
// takes the allow away. A launcher gotk does not know leaves the flags
// unknown, so the hook never allows. It needs node, no agent, and runs in
// `make test`.
func TestHookUnderLauncher(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("needs node")
	}
	_, bin := repoBinaries(t, "./runner/cmd/gotk", "./agents/claude/cmd/gotk-hook-claude")
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	// The launcher script runs the hook through a shell, as Claude Code
	// does, with the payload on its stdin.
	script := `const r = require("child_process").spawnSync("/bin/sh", ["-c", process.env.HOOK], {stdio: "inherit"}); process.exit(r.status ?? 1)`
	for _, f := range []string{
		"app/node_modules/@anthropic-ai/claude-agent-sdk/cli.js",
		"app/agent/run.js",
	} {
		p := filepath.Join(home, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(proj, 0o755)
	sdk := filepath.Join(home, "app/node_modules/@anthropic-ai/claude-agent-sdk/cli.js")
	cwd, _ := json.Marshal(proj)
	payload := `{"tool_name":"Bash","permission_mode":"default","cwd":` + string(cwd) + `,"tool_input":{"command":"git status"}}`
	for _, c := range []struct {
		name  string
		argv  []string
		allow bool
	}{
		{"sdk, no flags", []string{node, sdk, "--output-format", "stream-json", "--setting-sources="}, true},
		{"sdk, node options first", []string{node, "--no-warnings", sdk, "--output-format", "stream-json"}, true},
		{"sdk --disallowedTools", []string{node, sdk, "--output-format", "stream-json", "--disallowedTools=Bash(git status)"}, false},
		{"sdk --disallowedTools Bash", []string{node, sdk, "--disallowedTools", "Bash", "--permission-mode", "default"}, false},
		{"sdk settings over stdin", []string{node, sdk, "--await-initialize", "--initialize-fields=settings"}, false},
		{"unknown launcher", []string{node, filepath.Join(home, "app/agent/run.js"), "--output-format", "stream-json"}, false},
	} {
		cmd := exec.Command(c.argv[0], c.argv[1:]...)
		cmd.Dir = proj
		cmd.Env = []string{"HOME=" + home, "PATH=" + bin + ":/usr/bin:/bin", "CLAUDE_PROJECT_DIR=" + proj,
			"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "GOTK_TRACK=0", "HOOK=" + filepath.Join(bin, "gotk-hook-claude")}
		cmd.Stdin = strings.NewReader(payload)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		allow := strings.Contains(string(out), `"permissionDecision":"allow"`)
		if allow != c.allow {
			t.Errorf("%s: allow=%v, want %v: %s", c.name, allow, c.allow, out)
		}
	}
}
