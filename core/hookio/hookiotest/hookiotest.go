// Package hookiotest holds what the hook binaries' tests share: the world a
// testscript scenario runs in (a private HOME, a fake gotk on PATH), padded
// payloads for the stdin cap, a check of the output contract, and the
// benchmark that times a built hook against a minimal Go program, and the
// scenario, fuzz and stub harness every agent's tests call.
package hookiotest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/core/hookio"
)

// FakeGotk is the gotk a scenario finds on PATH: a script that only says
// what it was asked to run.
const FakeGotk = "#!/bin/sh\necho \"fake gotk: $*\"\n"

// Setup prepares a scenario's environment in work: HOME, XDG and agent
// config directories inside work, and PATH = the directory of the hook
// commands (the first entry of the current PATH) followed by work/bin,
// which holds a fake gotk. A scenario removes $WORK/bin/gotk to test a
// missing gotk, and writes settings files under $WORK to test rules.
func Setup(work string, setenv func(k, v string), getenv func(string) string) error {
	bin := filepath.Join(work, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(bin, "gotk"), []byte(FakeGotk), 0o755); err != nil {
		return err
	}
	hookDir, _, _ := strings.Cut(getenv("PATH"), string(os.PathListSeparator))
	for k, v := range map[string]string{
		"HOME":            work,
		"XDG_CONFIG_HOME": filepath.Join(work, ".config"),
		"XDG_DATA_HOME":   filepath.Join(work, ".local", "share"),
		"CODEX_HOME":      filepath.Join(work, ".codex"),
		"PATH":            hookDir + string(os.PathListSeparator) + bin,
		"GOTK":            filepath.Join(bin, "gotk"),
	} {
		setenv(k, v)
	}
	// Vibe runs its default allowlist (git status, ls…) without asking,
	// and would ask about their rewrites: the stories' Vibe has none.
	vibe := filepath.Join(work, ".vibe", "config.toml")
	if err := os.MkdirAll(filepath.Dir(vibe), 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(vibe); errors.Is(err, fs.ErrNotExist) { // a script's own stays
		if err := os.WriteFile(vibe, []byte("[tools.bash]\nallowlist = []\n"), 0o644); err != nil {
			return err
		}
	}
	for _, k := range []string{"CLAUDE_CONFIG_DIR", "CURSOR_CONFIG_DIR", "GEMINI_CLI_HOME", "GOTK_CONFIG", "GOTK_DISABLED", "RTK_DISABLED", "GOTK_HOOK_AUDIT", "GEMINI_CLI_TRUST_WORKSPACE", "VIBE_HOME"} {
		setenv(k, "")
	}
	return nil
}

// Pad is the placeholder Payload replaces.
const Pad = "@PAD@"

// Payload returns template with Pad replaced by as many 'x' as make the
// result exactly size bytes.
func Payload(template []byte, size int) ([]byte, error) {
	i := bytes.Index(template, []byte(Pad))
	if i < 0 {
		return nil, errors.New("template has no " + Pad)
	}
	n := size - (len(template) - len(Pad))
	if n < 0 {
		return nil, fmt.Errorf("template is already %d bytes", len(template))
	}
	out := make([]byte, 0, size)
	out = append(out, template[:i]...)
	out = append(out, bytes.Repeat([]byte("x"), n)...)
	return append(out, template[i+len(Pad):]...), nil
}

// CheckOutput checks the stdout contract of a hook: nothing, or exactly one
// line holding one compact JSON object.
func CheckOutput(out []byte) error {
	if len(out) == 0 {
		return nil
	}
	if !bytes.HasSuffix(out, []byte("\n")) || bytes.Count(out, []byte("\n")) != 1 {
		return fmt.Errorf("output is not exactly one line: %q", out)
	}
	line := out[:len(out)-1]
	if !json.Valid(line) || len(line) == 0 || line[0] != '{' {
		return fmt.Errorf("output is not a JSON object: %q", out)
	}
	var c bytes.Buffer
	json.Compact(&c, line)
	if !bytes.Equal(c.Bytes(), line) {
		return fmt.Errorf("output is not compact: %q", out)
	}
	return nil
}

// Strict decodes a JSON answer into v, rejecting unknown fields and
// trailing data.
func Strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

// Cmds are the testscript commands the hook scenarios share, written
// without the testscript package: each gets its arguments and a function
// that makes a path absolute in the scenario's directory.
//
//	payload SIZE TEMPLATE OUT  write TEMPLATE with @PAD@ padded to SIZE bytes
//	bom N IN OUT               write IN with N UTF-8 BOMs in front
var Cmds = map[string]func(args []string, abs func(string) string) error{
	"payload": func(args []string, abs func(string) string) error {
		if len(args) != 3 {
			return errors.New("usage: payload SIZE TEMPLATE OUT")
		}
		var size int
		if _, err := fmt.Sscan(args[0], &size); err != nil {
			return err
		}
		t, err := os.ReadFile(abs(args[1]))
		if err != nil {
			return err
		}
		p, err := Payload(t, size)
		if err != nil {
			return err
		}
		return os.WriteFile(abs(args[2]), p, 0o644)
	},
	"bom": func(args []string, abs func(string) string) error {
		if len(args) != 3 {
			return errors.New("usage: bom N IN OUT")
		}
		var n int
		if _, err := fmt.Sscan(args[0], &n); err != nil {
			return err
		}
		in, err := os.ReadFile(abs(args[1]))
		if err != nil {
			return err
		}
		return os.WriteFile(abs(args[2]), append(bytes.Repeat([]byte("\uFEFF"), n), in...), 0o644)
	},
}

// Env is a hook environment for in-process tests and fuzzing: HOME is
// home, gotk is found at /usr/local/bin/gotk, the clock is fixed and the
// audit log is discarded.
func Env(home string, vars ...string) hookio.Env {
	m := map[string]string{"HOME": home}
	for _, kv := range vars {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return hookio.Env{
		Getenv:     func(k string) string { return m[k] },
		Home:       home,
		Cwd:        home,
		Now:        func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		LookPath:   func(string) (string, error) { return "/usr/local/bin/gotk", nil },
		AppendFile: func(string, []byte) error { return nil },
	}
}
