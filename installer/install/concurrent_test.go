package install

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// testEnv returns an Env over a temporary HOME with stand-in hook binaries.
func testEnv(t *testing.T) (*Env, string) {
	t.Helper()
	dir := t.TempDir()
	home, bin := filepath.Join(dir, "home"), filepath.Join(dir, "bin")
	for _, d := range []string{home, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range []string{"gotk", "gotk-hook-claude", "gotk-hook-cursor", "gotk-hook-copilot", "gotk-hook-gemini", "gotk-hook-vibe", "gotk-hook-codex"} {
		if err := os.WriteFile(filepath.Join(bin, b), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{}
	return &Env{
		Env: agentconf.Env{Home: home, Cwd: dir,
			Getenv:   func(k string) string { return env[k] },
			LookPath: func(string) (string, error) { return "", os.ErrNotExist }},
		BinDir: bin,
		Stdin:  strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{},
	}, home
}

// TestConcurrentInstalls runs installs of the same and of different agents
// at once: the lock serialises them, so the settings file holds exactly one
// gotk entry and the manifest records every agent; concurrent uninstalls
// then leave nothing, not even the data folder they all locked.
func TestConcurrentInstalls(t *testing.T) {
	base, home := testEnv(t)
	settings := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	orig := []byte("{\n  \"model\": \"opus\"\n}\n")
	if err := os.WriteFile(settings, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	agents := []string{"claude", "claude", "claude", "claude", "gemini", "codex", "vibe", "cursor"}
	var wg sync.WaitGroup
	codes := make([]int, len(agents))
	errs := make([]*bytes.Buffer, len(agents))
	for i, a := range agents {
		wg.Add(1)
		go func(i int, a string) {
			defer wg.Done()
			e := *base
			errs[i] = &bytes.Buffer{}
			e.Stdout, e.Stderr = &bytes.Buffer{}, errs[i]
			codes[i] = Main([]string{"--agent", a}, &e)
		}(i, a)
	}
	wg.Wait()
	for i, c := range codes {
		if c != 0 {
			t.Fatalf("install %s: exit %d: %s", agents[i], c, errs[i])
		}
	}
	b, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "gotk-hook-claude"); n != 1 {
		t.Fatalf("settings.json has %d gotk entries:\n%s", n, b)
	}
	if _, err := agentconf.ParseJSONC(b); err != nil {
		t.Fatal(err)
	}
	m, err := agentconf.LoadManifest(&base.Env)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range m.Entries {
		seen[r.Agent] = true
	}
	for _, a := range agents {
		if !seen[a] {
			t.Errorf("manifest lacks %s: %+v", a, m.Entries)
		}
	}
	// And all of it comes out again, concurrently.
	for i, a := range []string{"claude", "gemini", "codex", "vibe", "cursor"} {
		wg.Add(1)
		go func(i int, a string) {
			defer wg.Done()
			e := *base
			e.Stdout, e.Stderr = &bytes.Buffer{}, &bytes.Buffer{}
			if c := Main([]string{"--agent", a, "--uninstall"}, &e); c != 0 {
				t.Errorf("uninstall %s: exit %d: %s", a, c, e.Stderr)
			}
		}(i, a)
	}
	wg.Wait()
	if b, _ := os.ReadFile(settings); !bytes.Equal(b, orig) {
		t.Fatalf("settings.json after uninstall:\n%s", b)
	}
	for _, d := range []string{".gemini", ".codex", ".vibe", ".cursor", ".local"} {
		if _, err := os.Stat(filepath.Join(home, d)); !os.IsNotExist(err) {
			var left []string
			filepath.Walk(filepath.Join(home, d), func(p string, _ os.FileInfo, _ error) error { left = append(left, p); return nil })
			t.Errorf("%s left behind: %v", d, left)
		}
	}
}
