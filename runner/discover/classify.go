package discover

import (
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/registry"
)

// kind is what one call tells about gotk.
type kind int

const (
	through   kind = iota // it ran through gotk
	missed                // it ran raw, and gotk would rewrite it today
	declined              // gotk has a rule for it, but would not rewrite it (reason says why)
	unhandled             // gotk has no rule for it
)

// verdict is the classification of one call.
type verdict struct {
	kind     kind
	command  string // the normalized command (see commandKey)
	rule     string // registry rule id (missed, declined)
	category registry.Category
	reason   string   // declined: why not
	argv     []string // the segment the call is named after
	single   bool     // the call is that one simple command (its output is that command's alone)
}

// hookAnswers is which of Decide's rewrite verdicts each agent's hook or
// plugin acts on, with why the others are not rewritten there. Claude's,
// Gemini's, OpenCode's and Pi's act on both allow and ask; Codex's core
// Decide already answers only allows (host.Answers.AllowOnly); Copilot
// CLI's hook answers only allows, because Copilot re-checks its rules on
// the rewritten command (agents/copilot).
var askNotRewritten = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"copilot": "Copilot CLI takes gotk's rewrite only in sessions started with --allow-all-tools, and this session asked for permissions",
		"codex":   "Codex takes a rewrite only as an allow, and would not have run the original without asking",
	}
})

// deciders are core/decision engines, one per agent and session kind, as
// the agent's hook builds it: the host's rule files as they are today
// (read from the user's home), with the session facts the transcript
// records (Claude's permission mode, Codex's approval policy, whether a
// Copilot session asked for permissions).
type deciders struct {
	env permission.Env
	mu  sync.Mutex
	m   map[engineKey]*decision.Engine
}

type engineKey struct {
	host     string
	allowAll bool
}

func (d *deciders) engine(hostName string, allowAll bool) *decision.Engine {
	d.mu.Lock()
	defer d.mu.Unlock()
	k := engineKey{hostName, allowAll}
	if e := d.m[k]; e != nil {
		return e
	}
	s := host.Session{}
	if allowAll {
		s = host.Session{Found: true, AllowAll: true}
	}
	e := decision.NewInSession(hosts.ByName(hostName), d.env, s)
	if d.m == nil {
		d.m = map[engineKey]*decision.Engine{}
	}
	d.m[k] = e
	return e
}

// rules maps a rule id to its registry row (built on first use: gotk's
// other commands never pay for it).
var rules = sync.OnceValue(func() map[string]*registry.Rule {
	m := map[string]*registry.Rule{}
	for i, r := range registry.Rules() {
		if _, dup := m[r.ID]; !dup {
			m[r.ID] = &registry.Rules()[i]
		}
	}
	return m
})

// wentThrough reports whether a call ran through gotk: the transcript
// shows gotk ran (the model typed it, or a hook's rewrite is recorded), or
// gotk's run log holds a run of one of its commands in its project and
// time (see gotkruns.go). A run the transcript proves also claims its log
// entry, so that it cannot vouch for a later call. Calls must be passed in
// the order they ran.
func wentThrough(c *Call, runs *runIndex) (bool, join) {
	ran := c.Ran
	if ran == "" {
		ran = c.Command
	}
	var j join
	if proven := gotkCommands(ran); len(proven) > 0 {
		for _, s := range proven {
			j.add(runs.claim(commandKey(s.argv), c.Cwd, c.Start, c.End), s)
		}
		return true, j
	}
	if isGotk(c.Command) {
		return true, join{missing: true}
	}
	segs := segments(c.Command, nil)
	if segs == nil {
		if r := runs.claim(fallbackKey(c.Command), c.Cwd, c.Start, c.End); r != nil {
			j.add(r, segment{piped: strings.Contains(c.Command, "|")})
			return true, j
		}
		return false, j
	}
	for _, s := range segs {
		if s.ok {
			if r := runs.claim(commandKey(s.argv), c.Cwd, c.Start, c.End); r != nil {
				j.add(r, s)
				return true, j
			}
		}
	}
	return false, j
}

// join is what gotk's run log says of a call that ran through gotk.
type join struct {
	removed int64 // bytes gotk removed from what the agent would have read
	// windowed: a gotk's output went into another command of the line (the
	// agent's own | head), so what the agent would have read raw is
	// unknown; missing: a gotk of the line matched no measured run.
	windowed, missing bool
}

func (j *join) add(r *gotkRun, s segment) {
	switch {
	case r == nil || !r.measured:
		j.missing = true
	case s.piped && !s.window:
		j.windowed = true
	default:
		j.removed += r.removedBytes()
	}
}

// classify decides what the agent's hook would do with a call today (a
// call that did not go through gotk).
func (d *deciders) classify(c *Call, hostName string) verdict {
	e := d.engine(hostName, c.AllowAll)
	segs := segments(c.Command, e.Config.Hooks.Prefixes()) // the user's transparent_prefixes, as Decide sees them
	dec := e.Decide(decision.Request{Command: c.Command, Cwd: c.Cwd, AutoAllow: c.AutoAllow,
		ReadOnlyAutoAllow: hosts.ByName(hostName).ReadOnly, Explain: true})
	v := verdict{single: len(segs) == 1}
	if len(dec.Segments) != len(segs) {
		// Decide stopped before the commands: the line does not parse, or
		// the host's rule files cannot be read (gotk then steps aside: a
		// deny, with the reason, which is worth reporting).
		v.kind, v.command = unhandled, fallbackKey(c.Command)
		for _, s := range segs {
			if !s.ok {
				continue
			}
			v.command, v.argv = commandKey(s.argv), s.argv
			if m, ok := registry.Classify(s.argv); ok && dec.Verdict == decision.Deny {
				v.kind, v.reason, v.rule, v.category = declined, dec.Reason, m.Rule.ID, m.Rule.Category
			}
			break
		}
		return v
	}
	pick := func(ok func(decision.Segment) bool) int {
		for i, s := range dec.Segments {
			if segs[i].ok && ok(s) {
				return i
			}
		}
		return -1
	}
	name := func(i int) {
		if i < 0 {
			v.command = fallbackKey(c.Command)
			return
		}
		v.command, v.argv = commandKey(segs[i].argv), segs[i].argv
		if r := rules()[dec.Segments[i].Rule]; r != nil {
			v.rule, v.category = r.ID, r.Category
		}
	}
	rewrite := dec.Verdict == decision.AllowRewrite || dec.Verdict == decision.AskRewrite
	if rewrite {
		i := pick(func(s decision.Segment) bool { return s.Rewritten })
		if i < 0 {
			i = pick(func(s decision.Segment) bool { return s.Rule != "" })
		}
		name(i)
		if why, ok := askNotRewritten()[hostName]; ok && dec.Verdict == decision.AskRewrite {
			v.kind, v.reason = declined, why
			return v
		}
		v.kind = missed
		return v
	}
	if i := pick(func(s decision.Segment) bool { return s.Rule != "" }); i >= 0 {
		name(i)
		v.kind, v.reason = declined, dec.Segments[i].Reason
		if dec.Verdict == decision.Deny || v.reason == "" {
			v.reason = dec.Reason
		}
		return v
	}
	v.kind = unhandled
	i := pick(func(s decision.Segment) bool { return true })
	for j, s := range segs {
		if s.ok && !setup()[programName(s.argv[0])] {
			i = j
			break
		}
	}
	if i < 0 {
		v.command = fallbackKey(c.Command)
		return v
	}
	v.command, v.argv = commandKey(segs[i].argv), segs[i].argv
	return v
}
