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

type options struct {
	json bool
	host string
	mode string // the permission mode a hook payload would carry
	cmd  string
}

// parse reads `[--json] [--host H] [--] CMD…`: options come first; the
// first other word starts the command, and all words are joined by spaces.
func parse(name string, args []string) (options, error) {
	o := options{host: "claude"}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--json":
			o.json = true
		case a == "--host":
			if i+1 >= len(args) {
				return o, fmt.Errorf("--host needs a value (one of %s)", HostList())
			}
			i++
			o.host = args[i]
		case strings.HasPrefix(a, "--host="):
			o.host = strings.TrimPrefix(a, "--host=")
		case a == "--mode":
			if i+1 >= len(args) {
				return o, fmt.Errorf("--mode needs a value (a permission mode, e.g. bypassPermissions)")
			}
			i++
			o.mode = args[i]
		case strings.HasPrefix(a, "--mode="):
			o.mode = strings.TrimPrefix(a, "--mode=")
		case a == "--":
			i++
			goto done
		case strings.HasPrefix(a, "-") && a != "-":
			return o, fmt.Errorf("unknown flag %s (usage: gotk %s [--json] [--host HOST] [--mode MODE] COMMAND…)", a, name)
		default:
			goto done
		}
	}
done:
	if i < len(args) {
		o.cmd = strings.Join(args[i:], " ")
	}
	if d := hosts.ByName(o.host); d == nil || d.RulesOnly {
		return o, fmt.Errorf("unknown host %q (one of %s)", o.host, HostList())
	}
	if strings.TrimSpace(o.cmd) == "" {
		return o, fmt.Errorf("no command given (usage: gotk %s [--json] [--host HOST] [--mode MODE] COMMAND…)", name)
	}
	return o, nil
}

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

func (e Env) decide(o options) decision.Decision {
	eng := e.engine(o.host)
	mode := o.mode
	if mode == "" && eng.LoadSession != nil {
		mode = eng.LoadSession().Mode // the host process's own --permission-mode
	}
	d := eng.Decide(decision.Request{Command: o.cmd, ReadOnlyAutoAllow: eng.Host.ReadOnly, AutoAllow: mode == "bypassPermissions", Explain: true})
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
	_, err := parse("rewrite", args)
	return err == nil
}

// Rewrite runs `gotk rewrite` and returns its exit code.
func Rewrite(args []string, env Env) int {
	o, err := parse("rewrite", args)
	if err != nil {
		fmt.Fprintf(env.Stderr, "gotk rewrite: %v\n", err)
		if o.json {
			writeJSON(env.Stdout, answer{Verdict: "passthrough", Command: o.cmd})
			return 0
		}
		return ExitUsage
	}
	d := env.decide(o)
	if o.json {
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

// Explain runs `gotk explain` and returns its exit code.
func Explain(args []string, env Env) int {
	o, err := parse("explain", args)
	if err != nil {
		fmt.Fprintf(env.Stderr, "gotk explain: %v\n", err)
		return ExitUsage
	}
	d := env.decide(o)
	if o.json {
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
		}{d.Verdict.String(), d.Command, d.Rule, d.Permission.String(), o.host, d.Reason, segs})
		return 0
	}
	w := env.Stdout
	fmt.Fprintf(w, "command:   %s\n", o.cmd)
	fmt.Fprintf(w, "host:      %s\n", o.host)
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
