package cli

import (
	"fmt"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scenarios run a `gotk` that knows rewrite and explain,
// the part of the binary this package implements.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gotk": func() {
			if len(os.Args) < 2 {
				fmt.Fprintln(os.Stderr, "gotk: missing command")
				os.Exit(ExitUsage)
			}
			switch os.Args[1] {
			case "rewrite":
				os.Exit(Rewrite(os.Args[2:], Std()))
			case "explain":
				os.Exit(Explain(os.Args[2:], Std()))
			}
			fmt.Fprintf(os.Stderr, "gotk: %s: not part of this test binary\n", os.Args[1])
			os.Exit(ExitUsage)
		},
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/home/.config")
			env.Setenv("CLAUDE_CONFIG_DIR", "")
			env.Setenv("GOTK_CONFIG", "")
			return nil
		},
	})
}
