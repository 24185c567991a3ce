package hookio

import (
	"bytes"
	"path/filepath"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/shell"
)

// guard is the Decider Handle receives: decision.Engine, built on first use
// from the injected environment, plus the checks every hook shares.
type guard struct {
	agent Agent
	env   Env
	diag  *diagnostics

	eng     *decision.Engine
	gotk    string // the resolved gotk, "" when missing
	decided bool
	req     decision.Request
	last    decision.Decision
	skip    string // why a rewrite was dropped
}

func newGuard(a Agent, env Env, diag *diagnostics) *guard {
	return &guard{agent: a, env: env, diag: diag}
}

// Decide decides req with the agent's host rules. A rewrite becomes a
// passthrough when the gotk it would run cannot be found, or when it would
// leave the command unchanged.
func (g *guard) Decide(req decision.Request) decision.Decision {
	g.decided, g.req = true, req
	if d, ok := decision.Nothing(req); ok {
		// no rule could take the line: no config, rule file or PATH is read
		g.last = d
		return d
	}
	e := g.engine()
	d := e.Decide(req)
	g.diag.warn(d.Warnings...)
	if IsRewrite(d) {
		switch {
		case g.gotk == "":
			g.skip = "gotk-missing"
			g.diag.warn("gotk-hook-" + g.agent.Name + ": gotk is not on PATH, so commands run unchanged; install gotk or add its directory to PATH")
			d = passthrough(d, "gotk is not on the hook's PATH")
		case d.Command == req.Command:
			d = passthrough(d, "already gotk")
		}
	}
	g.last = d
	return d
}

func passthrough(d decision.Decision, reason string) decision.Decision {
	d.Verdict, d.Command, d.Reason = decision.Passthrough, "", reason
	return d
}

// engine builds the engine on first use: config and rule files are read
// only for inputs that carry a command.
func (g *guard) engine() *decision.Engine {
	if g.eng != nil {
		return g.eng
	}
	g.gotk = resolveGotk(g.env.LookPath)
	cwd := g.env.Cwd
	if cwd == "" && g.env.Getwd != nil {
		cwd, _ = g.env.Getwd()
	}
	g.eng = decision.New(g.agent.Host, permission.Env{Getenv: g.env.Getenv, Home: g.env.Home, Cwd: cwd})
	g.eng.LoadSession = func() host.Session { return g.env.Session(g.agent.Host) }
	if g.agent.AbsoluteGotk && g.gotk != "" {
		g.eng.Prefix = shell.Quote(g.gotk)
	}
	return g.eng
}

// resolveGotk returns the absolute path of the gotk on PATH, or "". A gotk
// found only through a relative PATH entry (".") does not count: the
// agent's command may run in another directory.
func resolveGotk(lookPath func(string) (string, error)) string {
	p, err := lookPath("gotk")
	if err != nil || p == "" || !filepath.IsAbs(p) {
		return ""
	}
	return p
}

// audit appends one line for the decision Handle asked for, if any, when
// GOTK_HOOK_AUDIT=1. answered tells whether the hook printed more than its
// no-op.
func (g *guard) audit(answer, noop []byte) {
	if !g.decided || g.env.Getenv("GOTK_HOOK_AUDIT") != "1" {
		return
	}
	answered := len(answer) > 0 && !bytes.Equal(answer, noop)
	action := g.last.Verdict.String()
	rewritten := ""
	rewrite := IsRewrite(g.last)
	switch {
	case g.skip != "":
		action = "skip:" + g.skip
	case rewrite && answered:
		rewritten = g.last.Command
	case rewrite:
		action = "skip:" + action
	}
	line := AuditLine(g.env.Now().Format("2006-01-02T15:04:05Z07:00"), g.agent.Name, action, g.req.Command, rewritten)
	// Failures are ignored: the answer is already out.
	_ = g.env.AppendFile(AuditPath(g.env.Getenv, g.env.Home), []byte(line))
}
