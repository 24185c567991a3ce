package installer_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gotk-dev/gotk/core/check"
	"github.com/gotk-dev/gotk/installer/install"
	"github.com/gotk-dev/gotk/plugins"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gotk-install": func() {
			e, err := install.OSEnv()
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			os.Exit(install.Main(os.Args[1:], e))
		},
		// gotk-check verify|doctor is `gotk verify` / `gotk doctor`.
		"gotk-check": func() {
			env := check.OSEnv()
			if len(os.Args) == 2 && os.Args[1] == "doctor" {
				os.Exit(check.Doctor(os.Stdout, env))
			}
			os.Exit(check.Verify(os.Stdout, env))
		},
	})
}

// standIns are the binaries gotk-install names in hook entries, as the
// scenarios get them in $BIN: each hook answers the probe of gotk verify as
// the real one does — the rewrite when gotk is on its PATH, else nothing
// and gotk-hook's warning — and gotk says its version.
var standIns = map[string]string{
	"gotk":             `case "$1" in --version) echo "gotk test";; esac`,
	"gotk-report":      `case "$1" in --version) echo "gotk test";; esac`,
	"gotk-hook-claude": hook("claude", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"gotk git status"}}}`),
	"gotk-hook-cursor": hook("cursor", `{"permission":"allow","updated_input":{"command":"gotk git status"}}`),
	"gotk-hook-gemini": hook("gemini", `{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"gotk git status"}}}`),
	"gotk-hook-vibe":   hook("vibe", `{"hook_specific_output":{"tool_input":{"command":"gotk git status"}}}`),
	"gotk-hook-codex":  hook("codex", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"'"$g"' ls"}}}`),
	// Outside a --allow-all-tools session Copilot's hook answers nothing.
	"gotk-hook-copilot": hook("copilot", ``),
	"gotk-hook-cline":   hook("cline", `{"overrideInput":{"commands":["gotk git status"]}}`),
	"gotk-hook-crush":   hook("crush", `{"version":1,"decision":"allow","updated_input":{"command":"gotk git status"}}`),
	"gotk-hook-auggie":  hook("auggie", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"'"$g"' git status","wait":true,"max_wait_seconds":600,"cwd":"/w"}}}`),
	// gotk-hook-droid also prints its entry's commandRegex.
	"gotk-hook-droid": `case "$1" in --command-regex) printf '%s\n' '\b(git|go)\b'; exit 0;; esac
` + hook("droid", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"gotk git status"}}}`),
}

// hook is a stand-in hook script answering answer ($g is gotk's path).
func hook(agent, answer string) string {
	return `case "$1" in --version) echo "gotk-hook-` + agent + ` test"; exit 0;; esac
cat >/dev/null
g=$(command -v gotk) || { echo "gotk-hook-` + agent + `: gotk is not on PATH, so commands run unchanged" >&2; exit 0; }
[ -n '` + strings.ReplaceAll(answer, `'`, `'\''`) + `' ] && echo '` + answer + `'
exit 0`
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			bin := filepath.Join(env.WorkDir, "bin")
			for _, d := range []string{home, bin} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
			for b, script := range standIns {
				if err := os.WriteFile(filepath.Join(bin, b), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
					return err
				}
			}
			env.Setenv("HOME", home)
			env.Setenv("BIN", bin)
			return nil
		},
		// [immutable]: chattr +i is permitted here (root on a file system
		// with attributes).
		Condition: func(cond string) (bool, error) {
			if cond != "immutable" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			return canChattr(), nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// rulesbody FILE...: replace the line @RULES@ with the body of the
			// rules text the installer writes (generated from the registry).
			"rulesbody": func(ts *testscript.TestScript, neg bool, args []string) {
				body := strings.TrimPrefix(string(plugins.File(plugins.Rules)), "<!-- gotk v1 -->\n")
				body = strings.TrimSuffix(body, "<!-- /gotk -->\n")
				for _, a := range args {
					p := ts.MkAbs(a)
					b, err := os.ReadFile(p)
					ts.Check(err)
					ts.Check(os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "@RULES@\n", body)), 0o644))
				}
			},
			// pluginsrc NAME FILE: FILE holds exactly the plugin file NAME
			// of module plugins (one source, no copy).
			"pluginsrc": func(ts *testscript.TestScript, neg bool, args []string) {
				b, err := os.ReadFile(ts.MkAbs(args[1]))
				ts.Check(err)
				if eq := bytes.Equal(b, plugins.File(args[0])); eq == neg {
					ts.Fatalf("%s: same as plugins %s: %v", args[1], args[0], eq)
				}
			},
			// crlf FILE...: turn LF line endings into CRLF.
			"crlf": func(ts *testscript.TestScript, neg bool, args []string) {
				for _, a := range args {
					p := ts.MkAbs(a)
					b, err := os.ReadFile(p)
					ts.Check(err)
					b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
					ts.Check(os.WriteFile(p, b, 0o644))
				}
			},
			// bom FILE...: put a UTF-8 byte order mark before FILE's text.
			"bom": func(ts *testscript.TestScript, neg bool, args []string) {
				for _, a := range args {
					p := ts.MkAbs(a)
					b, err := os.ReadFile(p)
					ts.Check(err)
					ts.Check(os.WriteFile(p, append([]byte("\uFEFF"), b...), 0o644))
				}
			},
			// islink PATH: PATH is a symbolic link.
			"islink": func(ts *testscript.TestScript, neg bool, args []string) {
				fi, err := os.Lstat(ts.MkAbs(args[0]))
				ts.Check(err)
				if is := fi.Mode()&os.ModeSymlink != 0; is == neg {
					ts.Fatalf("%s: symlink=%v", args[0], is)
				}
			},
			// mode PATH PERM: PATH has permission bits PERM (octal).
			"mode": func(ts *testscript.TestScript, neg bool, args []string) {
				fi, err := os.Stat(ts.MkAbs(args[0]))
				ts.Check(err)
				if got := fmt.Sprintf("%04o", fi.Mode().Perm()); got != args[1] {
					ts.Fatalf("%s: mode %s, want %s", args[0], got, args[1])
				}
			},
			// immutable on|off FILE: set or clear FILE's immutable attribute
			// (chattr; guard the scenario with [immutable]).
			"immutable": func(ts *testscript.TestScript, neg bool, args []string) {
				flag := map[string]string{"on": "+i", "off": "-i"}[args[0]]
				if out, err := exec.Command("chattr", flag, ts.MkAbs(args[1])).CombinedOutput(); err != nil {
					ts.Fatalf("chattr %s %s: %v: %s", flag, args[1], err, out)
				}
			},
			// count N PATTERN FILE: FILE holds PATTERN exactly N times.
			"count": func(ts *testscript.TestScript, neg bool, args []string) {
				b, err := os.ReadFile(ts.MkAbs(args[2]))
				ts.Check(err)
				if got := fmt.Sprint(strings.Count(string(b), args[1])); got != args[0] {
					ts.Fatalf("%s: %q occurs %s times, want %s", args[2], args[1], got, args[0])
				}
			},
		},
	})
}

var chattrOK = sync.OnceValue(func() bool {
	f, err := os.CreateTemp("", "gotk-chattr-*")
	if err != nil {
		return false
	}
	f.Close()
	defer os.Remove(f.Name())
	if exec.Command("chattr", "+i", f.Name()).Run() != nil {
		return false
	}
	return exec.Command("chattr", "-i", f.Name()).Run() == nil
})

func canChattr() bool { return chattrOK() }
