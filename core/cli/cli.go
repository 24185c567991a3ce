// Package cli implements the decision commands of the gotk binary,
// `gotk rewrite` and `gotk explain`: the rewrite contract that plugins and
// scripts call, and the trace a person reads. The runner module wires them
// in; they live here so the contract sits beside the code it exposes.
package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts"
)

// Exit codes of `gotk rewrite` (compatible with RTK's). A usage error exits
// 2 like every gotk command's: a wrapper reads it as deny, "leave the
// command to the host", which is also right for a call it got wrong.
const (
	ExitAllow = 0 // rewritten; the host may run it without asking
	ExitNone  = 1 // nothing to rewrite
	ExitDeny  = 2 // a deny rule matches; leave it to the host
	ExitAsk   = 3 // rewritten; the host must ask
	ExitUsage = 2 // bad flags or no command
)

// Env is the outside world for the commands (tests inject their own).
type Env struct {
	Stdout, Stderr io.Writer
	// NewEngine builds the engine for a host; nil uses decision.NewEngine.
	NewEngine func(*host.Def) *decision.Engine
}

// Args is the command line of `gotk rewrite` and `gotk explain`, defined
// once: gotk's grammar embeds it (kong reads these tags for --help and
// completion), and Parse reads the same fields to parse every call — also
// the plugins' fast path, which must not build the grammar of every gotk
// command. Flags come first; the first other word starts the command, and
// the words after it are the command's own.
type Args struct {
	JSON    bool     `name:"json" help:"Print one JSON object; rewrite --json always exits 0."`
	Host    string   `placeholder:"HOST" help:"Whose rules and session: one of ${hosts} (default claude)."`
	Mode    string   `placeholder:"MODE" help:"The permission mode a hook payload would carry (e.g. bypassPermissions)."`
	Command []string `arg:"" name:"command" optional:"" passthrough:"all" help:"The command line, as the agent would run it."`
}

// flag is one of Args's flags: its field, and whether it takes a value.
type flag struct {
	field int
	value string // the placeholder of a flag that takes a value, or ""
}

// argFlags are Args's flags by their --name, read from its fields.
var argFlags = func() map[string]flag {
	out := map[string]flag{}
	t := reflect.TypeFor[Args]()
	for i := range t.NumField() {
		f := t.Field(i)
		if _, ok := f.Tag.Lookup("arg"); ok {
			continue
		}
		name := f.Tag.Get("name")
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		var value string
		if f.Type.Kind() != reflect.Bool {
			value = f.Tag.Get("placeholder")
		}
		out["--"+name] = flag{i, value}
	}
	return out
}()

// usage is the one-line usage of a command over Args.
func usage(name string) string {
	return "usage: gotk " + name + " [--json] [--host HOST] [--mode MODE] COMMAND…"
}

// Parse reads args as Args does: flags, then the command.
func Parse(name string, args []string) (Args, error) {
	var a Args
	v := reflect.ValueOf(&a).Elem()
	i := 0
	for ; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			i++
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			break
		}
		key, val, hasVal := strings.Cut(arg, "=")
		f, ok := argFlags[key]
		switch {
		case !ok:
			return a, fmt.Errorf("unknown flag %s (%s)", arg, usage(name))
		case f.value == "":
			v.Field(f.field).SetBool(true)
			continue
		case !hasVal:
			if i+1 >= len(args) {
				return a, fmt.Errorf("%s needs a value, %s (%s)", key, f.value, usage(name))
			}
			i++
			val = args[i]
		}
		v.Field(f.field).SetString(val)
	}
	a.Command = args[i:]
	return a, a.check(name)
}

// check refuses an unknown host and a missing command.
func (a *Args) check(name string) error {
	if a.Host == "" {
		a.Host = "claude"
	}
	if d := hosts.ByName(a.Host); d == nil || d.RulesOnly {
		return fmt.Errorf("unknown host %q (one of %s)", a.Host, HostList())
	}
	if strings.TrimSpace(a.line()) == "" {
		return fmt.Errorf("no command given (%s)", usage(name))
	}
	return nil
}

// line is the command line: the command's words joined by spaces.
func (a Args) line() string { return strings.Join(a.Command, " ") }

// HostList names every host --host takes, comma-separated (the --host help
// and its errors read it, so neither can drift from the hosts defined).
func HostList() string { return strings.Join(hosts.Names(), ", ") }

func (e Env) engine(name string) *decision.Engine {
	h := hosts.ByName(name)
	var eng *decision.Engine
	if e.NewEngine != nil {
		eng = e.NewEngine(h)
	} else {
		eng = decision.NewEngine(h)
	}
	if load := eng.LoadSession; load != nil {
		// Run by hand, outside any agent, gotk rewrite and explain preview
		// a session started without flags; a hook under an agent gotk does
		// not find stays unsure (host.ReadSession), and so does this run
		// under one whose flags it cannot read.
		eng.LoadSession = func() host.Session {
			if s := load(); !s.Missing {
				return s
			}
			return host.Session{}
		}
	}
	return eng
}

func (e Env) decide(o Args) decision.Decision {
	eng := e.engine(o.Host)
	mode := o.Mode
	if mode == "" && eng.LoadSession != nil {
		mode = eng.LoadSession().Mode // the host process's own --permission-mode
	}
	req := decision.Request{Command: o.line(), ReadOnlyAutoAllow: eng.Host.ReadOnly, AutoAllow: mode == "bypassPermissions", Explain: true}
	if eng.Host.ModeMayRun != nil {
		req.ModeMayRun = eng.Host.ModeMayRun(mode)
	}
	d := eng.Decide(req)
	for _, w := range d.Warnings {
		fmt.Fprintln(e.Stderr, w)
	}
	return d
}

// RewriteArgs reports whether args are a well-formed `gotk rewrite` call
// (flags, a known host, a command): such a call needs no other parsing, so
// the binary may hand it to Rewrite at once. The plugins make one on every
// shell command; building the whole CLI's grammar first cost each ~1 ms.
func RewriteArgs(args []string) bool {
	_, err := Parse("rewrite", args)
	return err == nil
}

// Rewrite runs `gotk rewrite ARGS…` and returns its exit code.
func Rewrite(args []string, env Env) int {
	o, err := Parse("rewrite", args)
	return rewrite(o, err, env)
}

func rewrite(o Args, err error, env Env) int {
	if err != nil {
		fmt.Fprintf(env.Stderr, "gotk rewrite: %v\n", err)
		if o.JSON {
			writeJSON(env.Stdout, answer{Verdict: "passthrough", Command: o.line()})
			return 0
		}
		return ExitUsage
	}
	d := env.decide(o)
	if o.JSON {
		writeJSON(env.Stdout, answer{Verdict: d.Verdict.String(), Command: d.Command, Rule: d.Rule})
		return 0
	}
	switch d.Verdict {
	case decision.AllowRewrite:
		fmt.Fprintln(env.Stdout, d.Command)
		return ExitAllow
	case decision.AskRewrite:
		fmt.Fprintln(env.Stdout, d.Command)
		return ExitAsk
	case decision.Deny:
		return ExitDeny
	}
	return ExitNone
}

type answer struct {
	Verdict string `json:"verdict"`
	Command string `json:"command"`
	Rule    string `json:"rule"`
}

// writeJSON prints v as one line; `&&`, `<` and `>` stay as typed.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// Explain runs `gotk explain ARGS…` and returns its exit code.
func Explain(args []string, env Env) int {
	o, err := Parse("explain", args)
	return explain(o, err, env)
}

func explain(o Args, err error, env Env) int {
	if err != nil {
		fmt.Fprintf(env.Stderr, "gotk explain: %v\n", err)
		return ExitUsage
	}
	d := env.decide(o)
	if o.JSON {
		segs := d.Segments
		if segs == nil {
			segs = []decision.Segment{}
		}
		writeJSON(env.Stdout, struct {
			Verdict    string             `json:"verdict"`
			Command    string             `json:"command"`
			Rule       string             `json:"rule"`
			Permission string             `json:"permission"`
			Host       string             `json:"host"`
			Reason     string             `json:"reason,omitempty"`
			Segments   []decision.Segment `json:"segments"`
		}{d.Verdict.String(), d.Command, d.Rule, d.Permission.String(), o.Host, d.Reason, segs})
		return 0
	}
	w := env.Stdout
	fmt.Fprintf(w, "command:   %s\n", o.line())
	fmt.Fprintf(w, "host:      %s\n", o.Host)
	for i, s := range d.Segments {
		fmt.Fprintf(w, "  %d. %s\n", i+1, s.Text)
		switch {
		case s.Rewritten:
			fmt.Fprintf(w, "     rule:       %s → rewritten\n", s.Rule)
		case s.Rule != "":
			fmt.Fprintf(w, "     rule:       %s, not rewritten: %s\n", s.Rule, s.Reason)
		default:
			fmt.Fprintf(w, "     rule:       none (%s)\n", s.Reason)
		}
		if s.Pipe != "" {
			fmt.Fprintf(w, "     pipe:       %s\n", s.Pipe)
		}
		perm := s.Permission
		if s.PermissionRule != "" {
			perm += " by " + s.PermissionRule
		}
		fmt.Fprintf(w, "     permission: %s\n", perm)
	}
	fmt.Fprintf(w, "permission: %s\n", d.Permission)
	fmt.Fprintf(w, "verdict:    %s", d.Verdict)
	if d.Reason != "" {
		fmt.Fprintf(w, " (%s)", d.Reason)
	}
	fmt.Fprintln(w)
	if d.Verdict == decision.AllowRewrite || d.Verdict == decision.AskRewrite {
		fmt.Fprintf(w, "rewritten:  %s\n", d.Command)
	}
	return 0
}

// Std is the Env of a real process.
func Std() Env { return Env{Stdout: os.Stdout, Stderr: os.Stderr} }
