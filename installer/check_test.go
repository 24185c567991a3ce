package installer_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/check"
	"github.com/gotk-dev/gotk/installer/install"
)

// setup installs gotk for agents into a temporary HOME whose hook binaries
// are the given shell scripts, and returns the check Env for it.
func setup(t *testing.T, hooks map[string]string, agents ...string) (check.Env, string) {
	t.Helper()
	dir := t.TempDir()
	home, bin := filepath.Join(dir, "home"), filepath.Join(dir, "bin")
	for _, d := range []string{home, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range []string{"gotk", "gotk-hook-claude", "gotk-hook-cursor", "gotk-hook-copilot", "gotk-hook-gemini", "gotk-hook-vibe", "gotk-hook-codex"} {
		script := "#!/bin/sh\ncat >/dev/null\n"
		if s, ok := hooks[b]; ok {
			script = "#!/bin/sh\ncat >/dev/null\n" + s + "\n"
		}
		if err := os.WriteFile(filepath.Join(bin, b), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(string) string { return "" }
	lookPath := func(name string) (string, error) {
		p := filepath.Join(bin, name)
		if _, err := os.Stat(p); err != nil {
			return "", err
		}
		return p, nil
	}
	for _, a := range agents {
		var out bytes.Buffer
		ie := &install.Env{Env: agentconf.Env{Home: home, Cwd: dir, Getenv: getenv, LookPath: lookPath}, BinDir: bin,
			Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}
		if c := install.Main([]string{"--agent", a}, ie); c != 0 {
			t.Fatalf("install %s: %s", a, out.String())
		}
	}
	return check.Env{Home: home, Cwd: dir, Getenv: getenv, LookPath: lookPath}, bin
}

func TestVerifyPasses(t *testing.T) {
	env, _ := setup(t, map[string]string{
		"gotk-hook-claude": `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"gotk git status"}}}'`,
		"gotk-hook-cursor": `echo '{"permission":"allow"}'`,
	}, "claude", "cursor", "gemini", "pi")
	var w bytes.Buffer
	if c := check.Verify(&w, env); c != 0 {
		t.Fatalf("exit %d:\n%s", c, w.String())
	}
	for _, want := range []string{
		"PASS  claude (global): hook ", "PASS  cursor (global): hook ", "PASS  gemini (global): hook ",
		"PASS  pi (global): installed in ",
	} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("missing %q in:\n%s", want, w.String())
		}
	}
}

func TestVerifyFails(t *testing.T) {
	env, bin := setup(t, map[string]string{
		"gotk-hook-claude": `echo 'not json'`,
		"gotk-hook-cursor": `echo '{"permission":"maybe"}'`,
		"gotk-hook-gemini": `exit 3`,
	}, "claude", "cursor", "gemini", "codex", "opencode", "vibe")
	if err := os.Remove(filepath.Join(bin, "gotk-hook-codex")); err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(env.Home, ".config", "opencode", "plugins", "gotk.ts")
	if err := os.WriteFile(plugin, []byte("// edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(env.Home, ".vibe", "config.toml")
	if err := os.WriteFile(cfg, []byte("enable_experimental_hooks = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	if c := check.Verify(&w, env); c != 1 {
		t.Fatalf("exit %d, want 1:\n%s", c, w.String())
	}
	for _, want := range []string{
		"FAIL  claude (global): " + bin + "/gotk-hook-claude answered a probe with something that is not a JSON object",
		"FAIL  cursor (global): " + bin + "/gotk-hook-cursor answered a probe in the wrong shape: permission is maybe",
		"FAIL  gemini (global): " + bin + "/gotk-hook-gemini did not answer a probe: exit status 3",
		"FAIL  codex (global): " + bin + "/gotk-hook-codex is missing or not executable",
		"FAIL  opencode (global): " + plugin + " was changed after gotk-install wrote it",
		"FAIL  vibe (global): enable_experimental_hooks = true is missing from " + cfg,
	} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("missing %q in:\n%s", want, w.String())
		}
	}
}

func TestVerifyWarnsConflictAndSkips(t *testing.T) {
	env, _ := setup(t, nil)
	settings := filepath.Join(env.Home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	rtk := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"rtk hook claude"}]}]}}`
	if err := os.WriteFile(settings, []byte(rtk), 0o644); err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	check.Verify(&w, env)
	if !strings.Contains(w.String(), "SKIP  claude (global): not installed") {
		t.Errorf("no SKIP:\n%s", w.String())
	}
	setupIn(t, env, "claude")
	w.Reset()
	if c := check.Verify(&w, env); c != 0 {
		t.Fatalf("exit %d:\n%s", c, w.String())
	}
	if !strings.Contains(w.String(), `WARN  claude (global): conflict: hooks.PreToolUse[0].hooks[0] runs "rtk hook claude"`) {
		t.Errorf("no conflict warning:\n%s", w.String())
	}
}

func setupIn(t *testing.T, env check.Env, agent string) {
	t.Helper()
	var out bytes.Buffer
	bin := filepath.Join(filepath.Dir(env.Home), "bin")
	ie := &install.Env{Env: agentconf.Env{Home: env.Home, Cwd: env.Cwd, Getenv: env.Getenv, LookPath: env.LookPath}, BinDir: bin,
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}
	if c := install.Main([]string{"--agent", agent}, ie); c != 0 {
		t.Fatalf("install %s: %s", agent, out.String())
	}
}

func TestDoctor(t *testing.T) {
	env, bin := setup(t, map[string]string{"gotk": `echo "gotk 0.1.0"`}, "codex", "vibe")
	if err := os.WriteFile(filepath.Join(env.Home, ".vibe", "config.toml"), []byte("enable_experimental_hooks = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(env.Home, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	if c := check.Doctor(&w, env); c != 1 {
		t.Fatalf("exit %d, want 1:\n%s", c, w.String())
	}
	for _, want := range []string{
		"codex   global   no     installed      " + bin + "/gotk-hook-codex",
		"gemini  global   yes    not installed",
		"gotk               " + bin + "/gotk (gotk 0.1.0)",
		"gemini is used here but gotk is not installed for it: gotk-install --agent gemini",
		"Vibe runs no hooks until enable_experimental_hooks = true",
		"run /hooks to trust gotk's",
		"is not on a login shell's PATH",
		"sudo ln -s " + bin + "/gotk /usr/local/bin/gotk",
	} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("missing %q in:\n%s", want, w.String())
		}
	}
}
