package runner

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"time"
	"unicode"

	"github.com/gotk-dev/gotk/core/cli"
	"github.com/gotk-dev/gotk/runner/filter"
	"github.com/gotk-dev/gotk/runner/window"
)

// app is one invocation of gotk; its fields are the outside world.
type app struct {
	name           string // the binary's, for --version: gotk or gotk-report
	stdout, stderr io.Writer
	getenv         func(string) string
	environ        func() []string
	getwd          func() (string, error)
	now            func() time.Time
	filter         func(handler string) filter.Filter
	// dieOf is the signal gotk ends by, as the program it ran did (endLike);
	// nil: it exits with the code main returns.
	dieOf os.Signal
	// win is the display window gotk's output feeds (`gotk --tail 30 …`).
	win window.Window
}

// subcommands are gotk's own commands, read from its grammar (each
// defined once, there), and help (gotk --help); any other first word is a
// program to run (`gotk -- recall` runs a program named recall).
var subcommands = func() map[string]bool {
	out := map[string]bool{"help": true}
	t := reflect.TypeFor[grammar]()
	for i := range t.NumField() {
		f := t.Field(i)
		if _, ok := f.Tag.Lookup("cmd"); !ok {
			continue
		}
		name := f.Tag.Get("name")
		if name == "" {
			name = kebab(f.Name)
		}
		out[name] = true
	}
	return out
}()

// kebab is a field's command name as kong makes it: FoldPending →
// fold-pending.
func kebab(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('-')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Exit codes of gotk's own failures (a program's exit code passes through).
const (
	exitFail  = 1 // a gotk command failed (unknown recall id, unreadable database)
	exitUsage = 2 // bad flags or arguments
)

func (a *app) main(args []string) int {
	if len(args) == 0 {
		return a.usage("no command given (usage: gotk <program> [args…]; gotk --help lists the commands)")
	}
	raw := on(a.getenv("GOTK_RAW"))
	switch first := args[0]; {
	case first == "--":
		return a.runProgram(args[1:], raw)
	case first == "--raw":
		rest := args[1:]
		if len(rest) > 0 && rest[0] == "--" {
			rest = rest[1:]
		}
		return a.runProgram(rest, true)
	case first == "--head" || first == "--tail":
		w, rest, err := window.Parse(args)
		if err != nil {
			return a.usage(err.Error())
		}
		if len(rest) > 0 && rest[0] == "--" {
			rest = rest[1:]
		}
		a.win = w
		return a.runProgram(rest, raw)
	case first == "help":
		return a.command(append([]string{"--help"}, args[1:]...))
	case subcommands[first] && needsCompanion(args):
		return a.companion(args)
	case first == "rewrite" && cli.RewriteArgs(args[1:]):
		// the plugins' call on every command: straight to the decision,
		// without building the grammar of every gotk command (--help and
		// malformed calls go through it, below)
		return cli.Rewrite(args[1:], cli.Env{Stdout: a.stdout, Stderr: a.stderr})
	case subcommands[first] || strings.HasPrefix(first, "-"):
		return a.command(args)
	}
	return a.runProgram(args, raw)
}

// on reads a boolean environment variable.
func on(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// off reads a boolean environment variable that defaults to on.
func off(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}

// usage reports bad input: one line, exit 2.
func (a *app) usage(msg string) int {
	fmt.Fprintf(a.stderr, "gotk: %s\n", msg)
	return exitUsage
}

// fail reports a failed gotk command: one line, exit 1.
func (a *app) fail(format string, args ...any) int {
	fmt.Fprintf(a.stderr, "gotk: "+format+"\n", args...)
	return exitFail
}

// warn prints one warning line; the command's own result is unaffected.
func (a *app) warn(format string, args ...any) {
	fmt.Fprintf(a.stderr, "gotk: warning: "+format+"\n", args...)
}

// sameFile reports whether stdout and stderr are one file (2>&1, or one
// terminal): raw output is then printed in arrival order.
func (a *app) sameFile() bool {
	o, ok1 := a.stdout.(*os.File)
	e, ok2 := a.stderr.(*os.File)
	if !ok1 || !ok2 {
		return false
	}
	oi, err1 := o.Stat()
	ei, err2 := e.Stat()
	return err1 == nil && err2 == nil && os.SameFile(oi, ei)
}
