package installer_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/installer/assets"
	"github.com/gotk-dev/gotk/installer/install"
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
	})
}

// hookBins are the binaries gotk-install names in hook entries; the
// scenarios get stand-ins in $BIN that answer with the agent's no-op.
var hookBins = []string{"gotk", "gotk-hook-claude", "gotk-hook-cursor", "gotk-hook-copilot", "gotk-hook-gemini", "gotk-hook-vibe", "gotk-hook-codex",
	"gotk-hook-cline", "gotk-hook-droid", "gotk-hook-crush"}

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
			for _, b := range hookBins {
				// gotk-hook-droid also answers --command-regex.
				stub := "#!/bin/sh\n[ \"$1\" = --command-regex ] && { printf '%s\\n' '\\b(git|go)\\b'; exit 0; }\ncat >/dev/null\n"
				if err := os.WriteFile(filepath.Join(bin, b), []byte(stub), 0o755); err != nil {
					return err
				}
			}
			env.Setenv("HOME", home)
			env.Setenv("BIN", bin)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// rulesbody FILE...: replace the line @RULES@ with the body of the
			// rules text the installer writes (generated from the registry).
			"rulesbody": func(ts *testscript.TestScript, neg bool, args []string) {
				body := strings.TrimPrefix(string(assets.Must("rules.md")), "<!-- gotk v1 -->\n")
				body = strings.TrimSuffix(body, "<!-- /gotk -->\n")
				for _, a := range args {
					p := ts.MkAbs(a)
					b, err := os.ReadFile(p)
					ts.Check(err)
					ts.Check(os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "@RULES@\n", body)), 0o644))
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
