// Package decision is the one function every entry point calls: hooks,
// plugins (through `gotk rewrite --json`) and `gotk explain`. Decide parses
// the command (shell), asks the host's rules (permission), finds each
// rewritable simple command (registry), and returns a Verdict with the
// rewritten command and a trace a person can read.
package decision

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/config"
	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/core/shell"
)

// Verdict is the outcome of a decision.
type Verdict int

const (
	// Passthrough: nothing to rewrite, or not provably safe to; the host
	// runs the command unchanged under its own rules.
	Passthrough Verdict = iota
	// AllowRewrite: run the rewritten command without asking — the host
	// would have run the original without asking.
	AllowRewrite
	// AskRewrite: run the rewritten command, but the host must apply its
	// own approval (it would have asked about the original).
	AskRewrite
	// Deny: a deny rule matches the original; gotk stays out of the way and
	// the host's own deny applies.
	Deny
)

func (v Verdict) String() string {
	switch v {
	case AllowRewrite:
		return "allow"
	case AskRewrite:
		return "ask"
	case Deny:
		return "deny"
	}
	return "passthrough"
}

// Request is one command to decide, with what the agent told the hook.
type Request struct {
	Command string
	// Cwd is the agent's working directory ("" = the process's).
	Cwd string
	// AutoAllow: the host runs every command without asking in this session
	// (e.g. Claude Code's bypassPermissions mode). Deny and ask rules still
	// apply.
	AutoAllow bool
	// ReadOnlyAutoAllow: the host runs its read-only commands without asking
	// inside its working directories (Claude Code does); the registry marks
	// which rules are read-only.
	ReadOnlyAutoAllow bool
	// ModeMayRun: programs the session's permission mode may run without
	// asking where no rule matches them (Claude Code's acceptEdits runs
	// mkdir, touch, rm… within limits gotk does not model). A line the
	// host might then run without asking gets no "ask" from gotk: it is
	// left to the host.
	ModeMayRun []string
	// Explain asks for the whole trace and the deny verdict even when
	// nothing on the line could be rewritten (`gotk explain`, `gotk
	// rewrite`). Hooks leave it off: with nothing to rewrite their answer
	// is the no-op whatever the rules say, so no rule file is read.
	Explain bool
}

// Segment is the trace of one simple command.
type Segment struct {
	Text           string `json:"text"`
	Rewritten      bool   `json:"rewritten"`
	Rule           string `json:"rule,omitempty"`
	Reason         string `json:"reason,omitempty"` // why it was not rewritten
	Pipe           string `json:"pipe,omitempty"`   // its pipeline stage, in plain words
	Permission     string `json:"permission"`       // allow | ask | deny | default
	PermissionRule string `json:"permission_rule,omitempty"`
	ReadOnly       bool   `json:"read_only,omitempty"`
	byRule         bool   // allowed by an allow rule of the host
}

// Decision is the answer.
type Decision struct {
	Verdict    Verdict
	Command    string // the rewritten command; the original when not rewritten
	Rule       string // the first rewriting rule's id
	Permission permission.Verdict
	Reason     string // for passthrough and deny: why
	Segments   []Segment
	Warnings   []string // config and rule-file problems, one line each
}

// Decider is what agent binaries need from the core.
type Decider interface {
	Decide(Request) Decision
}

// Engine decides for one host. It is safe for concurrent use.
type Engine struct {
	Host *host.Def
	// Env is Getenv, Home, Cwd (default working directory) and the host
	// process's Session.
	Env permission.Env
	// Session is what the host process's flags say (core/host). When they
	// could not be read (Unreadable), flags that deny may be in force, so
	// nothing is allowed. Env.Session holds its rules. LoadSession, when
	// set, reads it on first need (a decision that can rewrite something).
	Session     host.Session
	LoadSession func() host.Session
	Config      config.Config
	// Prefix is inserted before each rewritten program word; default "gotk".
	// Hooks whose agent runs commands in a login shell name gotk by absolute
	// path here.
	Prefix string

	once        sync.Once
	sessionOnce sync.Once
	exclude     config.Exclusion
	prefixes    [][]string
	warnings    []string
	mu          sync.Mutex
	rules       map[string]*permission.Rules
}

// NewEngine returns an Engine for host, reading config, rules and the host
// process's flags from the real environment.
func NewEngine(h *host.Def) *Engine {
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	e := New(h, permission.Env{Getenv: os.Getenv, Home: home, Cwd: cwd})
	e.LoadSession = func() host.Session { return host.ReadSession(h, host.System(), os.Getppid()) }
	return e
}

// NewInSession is New for a host process started with the flags s.
func NewInSession(h *host.Def, env permission.Env, s host.Session) *Engine {
	env.Session = s.Rules
	e := New(h, env)
	e.Session = s
	return e
}

// session reads the host's session once, when LoadSession is set.
func (e *Engine) session() {
	e.sessionOnce.Do(func() {
		if e.LoadSession != nil {
			e.Session = e.LoadSession()
			e.Env.Session = e.Session.Rules
		}
	})
}

// New returns an Engine for host in env, with the user's config loaded from
// env; a config warning comes back in every Decision's Warnings.
func New(h *host.Def, env permission.Env) *Engine {
	cfg, warn := config.Load(config.Env{Getenv: env.Getenv, Home: env.Home})
	e := &Engine{Host: h, Env: env, Config: cfg}
	if warn != "" {
		e.warnings = append(e.warnings, warn)
	}
	return e
}

// Disabled reports whether getenv says GOTK_DISABLED=1 (or RTK_DISABLED=1):
// gotk then rewrites nothing.
func Disabled(getenv func(string) string) bool {
	return getenv("GOTK_DISABLED") == "1" || getenv("RTK_DISABLED") == "1"
}

func (e *Engine) init() {
	e.once.Do(func() {
		var warn []string
		e.exclude, warn = config.CompileExcludes(e.Config.Hooks.ExcludeCommands)
		e.warnings = append(e.warnings, warn...)
		e.prefixes = e.Config.Hooks.Prefixes()
		if e.Env.Getenv == nil {
			e.Env.Getenv = func(string) string { return "" }
		}
		if e.Prefix == "" {
			e.Prefix = "gotk"
		}
		if e.Host == nil {
			e.Host = &host.Def{} // no rules, no flags: every command Default
		}
	})
}

func (e *Engine) rulesFor(cwd string) *permission.Rules {
	e.mu.Lock()
	defer e.mu.Unlock()
	if r, ok := e.rules[cwd]; ok {
		return r
	}
	env := e.Env
	env.Cwd = cwd
	r := e.Host.LoadRules(env)
	if e.rules == nil {
		e.rules = map[string]*permission.Rules{}
	}
	e.rules[cwd] = r
	return r
}

// Disabled reports whether GOTK_DISABLED=1 (or RTK_DISABLED=1) is set in
// the engine's environment: gotk then rewrites nothing.
func (e *Engine) Disabled() bool {
	e.init()
	return Disabled(e.Env.Getenv)
}

// Decide decides one command. A command gotk would rewrite that the line
// as a whole keeps as written says why in its segment: the line's reason.
func (e *Engine) Decide(req Request) Decision {
	d := e.decide(req)
	for i := range d.Segments {
		if s := &d.Segments[i]; s.Rule != "" && !s.Rewritten && s.Reason == "" {
			s.Reason = d.Reason
		}
	}
	return d
}

func (e *Engine) decide(req Request) Decision {
	e.init()
	d := Decision{Command: req.Command, Warnings: append([]string(nil), e.warnings...)}
	if e.Disabled() {
		d.Reason = "GOTK_DISABLED=1 is set"
		return d
	}
	if strings.TrimSpace(req.Command) == "" {
		d.Reason = "empty command"
		return d
	}
	if n, ok := Nothing(req); ok {
		n.Warnings = d.Warnings
		return n
	}
	script, err := shell.Parse(req.Command)
	if err != nil {
		d.Reason = "cannot parse the command: " + oneLine(err.Error())
		return d
	}
	plans := make([]plan, len(script.Commands))
	for i := range script.Commands {
		plans[i] = e.plan(script, i, req)
	}
	if !req.Explain && !anyRewrite(plans) {
		// Nothing here could be rewritten: the answer is the host's no-op
		// whatever its rules say, so none is read.
		d.Reason = "nothing to rewrite"
		return d
	}
	e.session()
	if e.Session.AllowAll && len(e.Session.Rules.Deny) == 0 {
		// Copilot CLI started with --allow-all-tools and no --deny-tool:
		// it runs every command without asking.
		req.AutoAllow = true
	}
	cwd := req.Cwd
	if cwd == "" {
		cwd = e.Env.Cwd
	}
	cwd = filepath.Clean(cwd)
	rules := e.rulesFor(cwd)
	d.Warnings = append(d.Warnings, rules.Warnings...)
	if rules.Unreadable {
		// Unknown rules could deny this very command: gotk steps aside.
		d.Verdict, d.Permission = Deny, permission.Deny
		d.Reason = "gotk cannot read the host's permission rules (see warnings); gotk steps aside"
		return d
	}

	var why string
	d.Permission, why = e.permit(rules, script, plans, req, cwd, &d)
	if d.Permission == permission.Default && why == "" && e.Host.KnownSafe != nil {
		switch safe, alone := e.Host.KnownSafe(req.Command); {
		case safe && !alone:
			why = "the host's own safe-command check passes the line without seeing each command bash runs"
		case safe:
			d.Permission = permission.Allow
			for i := range d.Segments {
				if d.Segments[i].Permission == "default" {
					d.Segments[i].Permission, d.Segments[i].PermissionRule = "allow", "the host's own known-safe commands"
				}
			}
		}
	}
	if d.Permission == permission.Deny {
		d.Verdict = Deny
		d.Reason = "a deny rule matches"
		return d
	}
	for _, refusal := range []struct {
		list []string
		text string
	}{
		{script.Redefines, "the line may change what a name runs: "},
		{script.Unsafe, "not provably safe: "},
	} {
		if len(refusal.list) > 0 {
			d.Reason = refusal.text + strings.Join(refusal.list, ", ")
			for i := range d.Segments {
				if d.Segments[i].Reason == "" && plans[i].match.Rule != nil {
					d.Segments[i].Reason = d.Reason
				}
			}
			return d
		}
	}
	if why != "" {
		// gotk cannot tell how the host would decide: it says nothing, and
		// the host decides on the original as if gotk were not there.
		d.Reason = "gotk cannot be sure how the host decides (" + why + "); the host decides alone"
		return d
	}
	var at []int
	for i, p := range plans {
		if p.rewrite {
			at = append(at, p.offset)
			d.Segments[i].Rewritten = true
			if d.Rule == "" {
				d.Rule = p.match.Rule.ID
			}
		}
	}
	if len(at) == 0 {
		d.Reason = "nothing to rewrite"
		return d
	}
	switch a := e.Host.Answers; {
	case a.AllowOnly && d.Permission != permission.Allow:
		d.Reason = "the host takes a rewrite only as an allow, and would not run the original without asking"
		return d
	case a.NoAsk && d.Permission == permission.Ask:
		d.Reason = "an ask rule matches, and the host checks its rules on the rewritten command"
		return d
	case a.KeepAllowed && d.Permission == permission.Allow:
		d.Reason = "an allow rule matches, and the host checks its rules on the rewritten command"
		return d
	case a.KeepRuleAllowed && slices.ContainsFunc(d.Segments, func(s Segment) bool { return s.byRule }):
		d.Reason = "an allow rule matches, and the host runs what its allow rules match outside its sandbox, which the rewritten command would lose"
		return d
	}
	d.Command = insertPrefixes(req.Command, plans, e.Prefix)
	// The host judges the rewritten command: where it would judge it
	// otherwise than the original, the original goes unchanged.
	keep := func(why string) Decision {
		d.Command, d.Reason = req.Command, why
		for i := range d.Segments {
			d.Segments[i].Rewritten = false
		}
		return d
	}
	v, allowed := e.rewriteVerdict(rules, d.Command, req)
	gained := func(had func(Segment) bool) bool {
		for i, a := range allowed {
			if a && (len(d.Segments) != len(allowed) || !had(d.Segments[i])) {
				return true
			}
		}
		return false
	}
	switch a := e.Host.Answers; {
	case v == permission.Deny && d.Permission != permission.Deny,
		v == permission.Ask && (d.Permission == permission.Allow || a.NoAsk):
		// Under NoAsk the original matched no ask rule (it would have
		// gone unchanged): this prompt is the rewrite's own.
		return keep("a " + v.String() + " rule matches the rewritten command, which the host tests its rules on")
	case a.KeepAllowed && gained(func(s Segment) bool { return s.Permission == "allow" }):
		return keep("an allow rule matches the rewritten command where the original was not allowed, and the host tests its allow rules on the rewritten command")
	case a.KeepRuleAllowed && gained(func(s Segment) bool { return s.byRule }):
		return keep("an allow rule matches the rewritten command but not the original, and the host runs what its allow rules match outside its sandbox")
	}
	if rules.Same != nil && !rules.Same(req.Command, d.Command) {
		return keep("a rule of the host would judge the rewritten command otherwise than the original")
	}
	if d.Permission == permission.Allow {
		d.Verdict = AllowRewrite
	} else {
		d.Verdict = AskRewrite
	}
	return d
}

// Nothing returns the decision for a line no rule could take (no word of
// it names a program gotk has a rule or a user filter for;
// registry.MayMatch), found without parsing the line or reading any
// config or rule file: a hook asked about such a line answers its no-op at
// once. ok is false when the line needs the engine, and always for Explain.
func Nothing(req Request) (d Decision, ok bool) {
	if req.Explain || registry.MayMatch(req.Command) {
		return Decision{}, false
	}
	return Decision{Command: req.Command, Reason: "nothing to rewrite"}, true
}

// anyRewrite: some simple command of the line would get gotk in front,
// were the line safe.
func anyRewrite(plans []plan) bool {
	for _, p := range plans {
		if p.rewrite {
			return true
		}
	}
	return false
}

// rewriteVerdict is what the host's rules say about the rewritten line: a
// hook's allow does not skip the host's deny and ask rules (Claude tests
// them on the updated command), and a rule may name gotk or match only
// its longer text (`Bash(gotk *)`, `Bash(* git status)`). allowed says,
// for each command of the line in order, whether an allow rule matches it.
func (e *Engine) rewriteVerdict(rules *permission.Rules, line string, req Request) (v permission.Verdict, allowed []bool) {
	s, err := shell.Parse(line)
	if err != nil {
		return permission.Deny, nil
	}
	allowed = make([]bool, len(s.Commands))
	v = permission.Default
	worse := func(x permission.Verdict) {
		if x == permission.Deny || x == permission.Ask && v != permission.Deny {
			v = x
		}
	}
	for i := range s.Commands {
		c := &s.Commands[i]
		p := e.plan(s, i, req)
		for _, run := range []bool{false, true} {
			seg := segmentFor(c, p, run)
			seg.Source, seg.Line = s.Src[c.Start:c.End], s.Src
			x := rules.Check(seg).Verdict
			worse(x)
			allowed[i] = allowed[i] || x == permission.Allow
		}
	}
	if rules.LineForms != nil {
		worse(rules.Check(permission.Segment{Forms: rules.LineForms(line), AllowForm: line}).Verdict)
	}
	return v, allowed
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
