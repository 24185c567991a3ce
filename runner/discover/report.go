package discover

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/core/registry"
)

// Report is the whole of `gotk discover`. Its JSON form is a stable
// contract (README.md, "gotk discover --json"): fields are only ever added.
type Report struct {
	// Since is the start of the scanned period (null: everything).
	Since *time.Time `json:"since"`
	// Missed: calls that ran raw and that gotk would rewrite today, by
	// command, most tokens saved first.
	Missed []Row `json:"missed"`
	// Declined: calls gotk has a rule for but would not rewrite today (the
	// agent's permissions, a pipe, a redirect…), by command and reason.
	Declined []Row `json:"declined"`
	// Through: calls that ran through gotk.
	Through Through `json:"through_gotk"`
	// Unhandled: calls gotk has no rule for, by command, most output first.
	Unhandled []Unhandled `json:"unhandled"`
	// Scanned counts what was read, over all agents.
	Scanned Stats `json:"scanned"`
	// Agents is the same per agent, with its calls.
	Agents map[string]AgentStats `json:"agents"`
	// Sessions is the session view: what the agents' requests read, as
	// they recorded it, and what gotk removed from it (usage.go).
	Sessions *Sessions `json:"sessions"`

	// Totals over every row (the lists above may be cut by --limit).
	MissedTotal, DeclinedTotal, UnhandledTotal Total `json:"-"`
	// cut counts the rows --limit left out of each list.
	cut struct{ missed, declined, unhandled int }
}

// Row is one command of Missed or Declined.
type Row struct {
	Command        string `json:"command"`
	Rule           string `json:"rule"`
	Count          int    `json:"count"`
	OutputTokens   int64  `json:"output_tokens"`
	EstSavedTokens int64  `json:"est_saved_tokens"`
	Reason         string `json:"reason,omitempty"` // Declined only
	Category       string `json:"category"`
	// Estimate says how EstSavedTokens was estimated: "filter",
	// "ratio:your-runs", "ratio:corpus", "no-filter", or several joined by
	// "+" when the calls of the row differ.
	Estimate     string `json:"estimate"`
	SampleOutput string `json:"sample_output,omitempty"` // only with --show-output
}

// Unhandled is one command gotk has no rule for.
type Unhandled struct {
	Command      string `json:"command"`
	Count        int    `json:"count"`
	OutputTokens int64  `json:"output_tokens"`
	Lines        int64  `json:"lines"` // output lines, over all calls
	// SuggestedFilter is a TOML filter skeleton (RTK's schema) for the top
	// rows.
	SuggestedFilter string `json:"suggested_filter,omitempty"`
	SampleOutput    string `json:"sample_output,omitempty"` // only with --show-output
}

// Through is what already went through gotk.
type Through struct {
	Count       int   `json:"count"`
	ShownTokens int64 `json:"shown_tokens"`
	// AdoptionPct is Count over Count + the missed calls, in percent: of
	// the calls gotk rewrites today, the share that went through it.
	AdoptionPct float64 `json:"adoption_pct"`
}

// AgentStats is one agent's part of the scan.
type AgentStats struct {
	Stats
	Sessions int `json:"sessions"`
	Calls    int `json:"calls"` // ran: through gotk, missed, declined or unhandled
	// NotRun counts the calls the agent refused to run (its transcript
	// says so); they are in no other count.
	NotRun    int `json:"not_run"`
	Through   int `json:"through_gotk"`
	Missed    int `json:"missed"`
	Declined  int `json:"declined"`
	Unhandled int `json:"unhandled"`
}

// Total sums a list.
type Total struct {
	Count  int
	Tokens int64
	Saved  int64
}

// result is one classified, measured call.
type result struct {
	agent, session string
	refused        bool
	v              verdict
	tokens         int64 // what the model received
	saved          int64
	method         string
	lines          int
	sample         string
	// The session view's part: where the result sits in its transcript,
	// and what gotk removed from it (tokens) when joined to its run.
	sess       *sessionLog
	epoch, pos int
	removed    int64
	joined     bool
	windowed   bool
}

type group struct {
	row     Row
	lines   int64
	methods map[string]bool
	best    int64 // tokens of the sample kept
}

type aggregate struct {
	o        Options
	groups   [4]map[string]*group
	through  Through
	agents   map[string]*AgentStats
	sessions map[*sessionLog]*sessionAcc
	ids      map[string]map[string]bool
}

func newAggregate(o Options) *aggregate {
	a := &aggregate{o: o, agents: map[string]*AgentStats{}, sessions: map[*sessionLog]*sessionAcc{}, ids: map[string]map[string]bool{}}
	for i := range a.groups {
		a.groups[i] = map[string]*group{}
	}
	return a
}

func (a *aggregate) add(r result) {
	as := a.agents[r.agent]
	if as == nil {
		as = &AgentStats{}
		a.agents[r.agent] = as
		a.ids[r.agent] = map[string]bool{}
	}
	a.ids[r.agent][r.session] = true
	if r.refused {
		as.NotRun++
		return
	}
	as.Calls++
	if r.sess != nil {
		acc := a.sessions[r.sess]
		if acc == nil {
			acc = &sessionAcc{}
			a.sessions[r.sess] = acc
		}
		acc.add(r)
	}
	v := r.v
	switch v.kind {
	case through:
		as.Through++
		a.through.Count++
		a.through.ShownTokens += r.tokens
		return
	case missed:
		as.Missed++
	case declined:
		as.Declined++
	case unhandled:
		as.Unhandled++
	}
	key := v.command + "\x00" + v.rule + "\x00" + v.reason
	g := a.groups[v.kind][key]
	if g == nil && len(a.groups[v.kind]) >= maxGroups {
		// Memory stays bounded however many distinct commands there are.
		v = verdict{kind: v.kind, command: "(other commands)"}
		key = v.command + "\x00\x00"
		g = a.groups[v.kind][key]
	}
	if g == nil {
		g = &group{row: Row{Command: v.command, Rule: v.rule, Reason: v.reason, Category: string(v.category)}, methods: map[string]bool{}}
		a.groups[v.kind][key] = g
	}
	g.row.Count++
	g.row.OutputTokens += r.tokens
	g.row.EstSavedTokens += r.saved
	g.lines += int64(r.lines)
	if r.method != "" {
		g.methods[r.method] = true
	}
	// The sample is the call whose output was largest (ties: the smaller
	// text, so that the report does not depend on the workers' order).
	if r.sample != "" && (r.tokens > g.best || r.tokens == g.best && r.sample < g.row.SampleOutput) {
		g.best, g.row.SampleOutput = r.tokens, strings.Clone(r.sample)
	}
}

func (a *aggregate) report(stats map[string]Stats) *Report {
	rep := &Report{Agents: map[string]AgentStats{}, Through: a.through,
		Missed: []Row{}, Declined: []Row{}, Unhandled: []Unhandled{}}
	if !a.o.Since.IsZero() {
		s := a.o.Since
		rep.Since = &s
	}
	for _, name := range AgentNames() {
		st, read := stats[name]
		as := a.agents[name]
		if !read && as == nil {
			continue
		}
		out := AgentStats{Stats: st}
		if as != nil {
			out = *as
			out.Stats = st
			out.Sessions = len(a.ids[name])
		}
		rep.Agents[name] = out
		rep.Scanned.add(st)
	}
	groups := func(k kind) []*group {
		var out []*group
		for _, key := range sortedKeys(a.groups[k]) {
			g := a.groups[k][key]
			var m []string
			for _, x := range []string{ByFilter, ByYourRuns, ByCorpus, NoFilter} {
				if g.methods[x] {
					m = append(m, x)
				}
			}
			g.row.Estimate = strings.Join(m, "+")
			out = append(out, g)
		}
		return out
	}
	rows := func(k kind) []Row {
		var out []Row
		for _, g := range groups(k) {
			out = append(out, g.row)
		}
		return out
	}
	rep.Missed = append(rep.Missed, rows(missed)...)
	slices.SortStableFunc(rep.Missed, func(x, y Row) int {
		return cmp.Or(cmp.Compare(y.EstSavedTokens, x.EstSavedTokens), cmp.Compare(y.OutputTokens, x.OutputTokens), cmp.Compare(y.Count, x.Count))
	})
	rep.Declined = append(rep.Declined, rows(declined)...)
	slices.SortStableFunc(rep.Declined, func(x, y Row) int {
		return cmp.Or(cmp.Compare(y.OutputTokens, x.OutputTokens), cmp.Compare(y.Count, x.Count))
	})
	for _, g := range groups(unhandled) {
		rep.Unhandled = append(rep.Unhandled, Unhandled{Command: g.row.Command, Count: g.row.Count,
			OutputTokens: g.row.OutputTokens, Lines: g.lines, SampleOutput: g.row.SampleOutput})
	}
	slices.SortStableFunc(rep.Unhandled, func(x, y Unhandled) int {
		return cmp.Or(cmp.Compare(y.OutputTokens, x.OutputTokens), cmp.Compare(y.Count, x.Count))
	})
	for _, r := range rep.Missed {
		rep.MissedTotal.add(r.Count, r.OutputTokens, r.EstSavedTokens)
	}
	for _, r := range rep.Declined {
		rep.DeclinedTotal.add(r.Count, r.OutputTokens, r.EstSavedTokens)
	}
	for _, r := range rep.Unhandled {
		rep.UnhandledTotal.add(r.Count, r.OutputTokens, 0)
	}
	if n := rep.Through.Count + rep.MissedTotal.Count; n > 0 {
		rep.Through.AdoptionPct = float64(int(1000*float64(rep.Through.Count)/float64(n)+0.5)) / 10
	}
	if l := a.o.Limit; l > 0 {
		rep.cut.missed, rep.Missed = cutRows(rep.Missed, l)
		rep.cut.declined, rep.Declined = cutRows(rep.Declined, l)
		rep.cut.unhandled, rep.Unhandled = cutRows(rep.Unhandled, l)
	}
	for i := range rep.Unhandled {
		if i < suggestions && rep.Unhandled[i].OutputTokens >= minSuggest && !strings.HasPrefix(rep.Unhandled[i].Command, "(") {
			rep.Unhandled[i].SuggestedFilter = skeleton(rep.Unhandled[i], a.o.ShowOutput)
		}
	}
	return rep
}

// maxGroups caps the rows of each list; calls of further commands are
// counted in one row, "(other commands)".
var maxGroups = 20000 // a var for tests

// suggestions is how many of the top unhandled commands get a filter
// skeleton, when their output came to at least minSuggest tokens.
const (
	suggestions = 3
	minSuggest  = 200
)

func cutRows[T any](rows []T, limit int) (int, []T) {
	if len(rows) <= limit {
		return 0, rows
	}
	return len(rows) - limit, rows[:limit]
}

func (t *Total) add(n int, tokens, saved int64) {
	t.Count += n
	t.Tokens += tokens
	t.Saved += saved
}

// category is a rule's registry category, for labels.
func category(rule string) registry.Category {
	if r := rules()[rule]; r != nil {
		return r.Category
	}
	return ""
}
