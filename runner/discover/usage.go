package discover

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// The session view: what the agents' model requests read, as the agents
// recorded it, and what gotk removed from it.
//
// Each transcript file is one context: its requests are counted in order,
// and each shell result sits at a position, the number of requests made
// before it. Every later request of the same context re-reads the result
// (uncached, as a cache write, or as a cache read) until the transcript
// shows a compaction, which starts a new context. So a result of t tokens
// at position p in a context whose last request is number R was read
// t × (R − p) times; a token gotk removed from it is a token none of those
// requests read.
//
// Only what can be joined is credited: a call whose transcript or gotk's
// run log proves it ran through gotk, joined to the measured run it made
// (raw and shown bytes, each capped at what the host keeps of one tool
// result), and whose output went straight to the agent — a gotk whose
// output the agent's own `| head` or `| tail` cut is credited nothing
// here, since what the agent would have read raw is unknown. Runs that
// join no transcript record count in `gotk gain`'s per-command view only.

// Usage is what model requests read and wrote, in tokens, as the agent
// recorded them.
type Usage struct {
	Requests int `json:"requests"`
	// Input is the uncached input; CacheWrite the input written to the
	// provider's prompt cache; CacheRead the input read from it.
	Input      int64 `json:"input"`
	CacheWrite int64 `json:"cache_write"`
	CacheRead  int64 `json:"cache_read"`
	Output     int64 `json:"output"`
}

// Read is the input the requests read: uncached, cache writes and reads.
func (u Usage) Read() int64 { return u.Input + u.CacheWrite + u.CacheRead }

func (u *Usage) add(o Usage) {
	u.Requests += o.Requests
	u.Input += o.Input
	u.CacheWrite += o.CacheWrite
	u.CacheRead += o.CacheRead
	u.Output += o.Output
}

// Price is one model's price per million tokens (config.toml, [prices."MODEL"]).
type Price struct {
	Input      float64 `toml:"input" json:"input"`
	CacheWrite float64 `toml:"cache_write" json:"cache_write"`
	CacheRead  float64 `toml:"cache_read" json:"cache_read"`
	Output     float64 `toml:"output" json:"output"`
}

func (p Price) cost(u Usage) float64 {
	return (float64(u.Input)*p.Input + float64(u.CacheWrite)*p.CacheWrite +
		float64(u.CacheRead)*p.CacheRead + float64(u.Output)*p.Output) / 1e6
}

// Session is one session's numbers (a session whose agent split it over
// several files, Claude Code's subagents, sums them).
type Session struct {
	Agent   string    `json:"agent"`
	Session string    `json:"session"`
	Cwd     string    `json:"cwd,omitempty"`
	Start   time.Time `json:"start"`
	Models  []string  `json:"models"`
	Usage   Usage     `json:"usage"`
	// ShellCalls counts the shell results the model received.
	ShellCalls int `json:"shell_calls"`
	Effect
	// Cost is set only when config.toml prices every model of the session.
	Cost *Cost `json:"cost,omitempty"`
}

// Effect is what shell output cost a session's requests (or all of them)
// and what gotk removed from it.
type Effect struct {
	// ShellTokens: the o200k tokens of the shell results, counted once
	// each; ShellReads: those tokens times the requests that read them.
	ShellTokens int64 `json:"shell_output_tokens"`
	ShellReads  int64 `json:"shell_output_reads"`
	// Through counts the calls that ran through gotk; Joined those joined
	// to a measured run of gotk's log whose output the agent read whole.
	Through int `json:"through_gotk"`
	Joined  int `json:"joined"`
	// RemovedTokens: what gotk removed from the joined results, once each
	// (an estimate: see Sessions.Method); ReadsAvoided: those tokens times
	// the requests that would have read them.
	RemovedTokens int64 `json:"removed_tokens"`
	ReadsAvoided  int64 `json:"reads_avoided"`
	// RemovedPct is ReadsAvoided over what the requests would have read
	// without gotk (Usage.Read() + ReadsAvoided), in percent: the headline.
	RemovedPct float64 `json:"removed_pct"`
}

func (e *Effect) add(o Effect) {
	e.ShellTokens += o.ShellTokens
	e.ShellReads += o.ShellReads
	e.Through += o.Through
	e.Joined += o.Joined
	e.RemovedTokens += o.RemovedTokens
	e.ReadsAvoided += o.ReadsAvoided
}

// Cost is money, in the unit of the configured prices.
type Cost struct {
	Spent   float64 `json:"spent"`   // the recorded usage, priced
	Avoided float64 `json:"avoided"` // the reads avoided, priced as one cache write then cache reads
}

// Sessions is the session view of a scan.
type Sessions struct {
	Count int   `json:"count"` // sessions with recorded usage
	Usage Usage `json:"usage"`
	// Effect sums the sessions'; its RemovedPct is over all of them.
	Effect
	// PerCommandPct is `gotk gain`'s share over the same period: the bytes
	// gotk removed from the outputs of its runs, capped per run.
	PerCommandPct float64 `json:"per_command_pct"`
	// Windowed counts calls through gotk whose output the agent's own pipe
	// (| head, | tail, …) cut: not credited.
	Windowed int `json:"windowed"`
	// Unjoined counts calls through gotk that matched no measured run.
	Unjoined int `json:"unjoined"`
	// Cost sums the priced sessions (Priced of Count); absent without prices.
	Cost   *Cost `json:"cost,omitempty"`
	Priced int   `json:"priced_sessions"`
	// NoUsage names, once each, the transcripts that record no usage:
	// their calls count in the lists above, not here (NoUsageCount: all of
	// them; the names are capped).
	NoUsage      []string `json:"no_usage"`
	NoUsageCount int      `json:"no_usage_count"`
	// Method says how each number was made.
	Method string `json:"method"`
	// List holds the sessions, most reads avoided first (cut by --limit).
	List []Session `json:"list"`
}

// SessionMethod is Sessions.Method.
const SessionMethod = "usage: the requests' token counts as the agent recorded them; " +
	"shell output: o200k tokens of each shell result as received; " +
	"removed: (raw - shown bytes of each gotk run joined to its call, each capped at 30,000, what the host keeps) / 4; " +
	"reads: tokens x the later requests of the same context, up to a compaction; " +
	"cost: configured prices only, a removed token priced as one cache write then cache reads"

// maxNoUsage caps the transcripts named for recording no usage.
const maxNoUsage = 20

// sessionLog is what the reader records of one transcript file, in order.
type sessionLog struct {
	agent, id, file, cwd string
	start                time.Time
	// requests counts the file's requests so far; bounds are the counts at
	// each compaction (a result of context e is read by the requests up to
	// bounds[e], or to requests for the last context).
	requests int
	bounds   []int
	// pending is the request being recorded (agents write one record per
	// content block, each with the request's usage): committed when the
	// next one starts, or at the end of the file.
	pendingID    string
	pending      Usage
	pendingModel string
	pendingAt    time.Time
	since        time.Time
	usage        Usage
	byModel      map[string]Usage
	hasUsage     bool
}

func newSessionLog(agent, file string, since time.Time) *sessionLog {
	return &sessionLog{agent: agent, file: file, since: since}
}

// request records one model request's usage. id names the request when
// the agent writes several records of one (a repeat replaces the earlier
// figures: the last record has the final output count).
func (l *sessionLog) request(id, model string, at time.Time, u Usage) {
	if l == nil {
		return
	}
	l.hasUsage = l.hasUsage || u != Usage{}
	if id != "" && id == l.pendingID {
		l.pending, l.pendingModel = u, cmp.Or(model, l.pendingModel)
		return
	}
	l.commit()
	l.requests++
	l.pendingID, l.pending, l.pendingModel, l.pendingAt = cmp.Or(id, "\x00"), u, model, at
}

func (l *sessionLog) commit() {
	if l.pendingID == "" {
		return
	}
	l.pendingID = ""
	if !l.since.IsZero() && !l.pendingAt.IsZero() && l.pendingAt.Before(l.since) {
		return
	}
	u := l.pending
	u.Requests = 1
	l.usage.add(u)
	if l.byModel == nil {
		l.byModel = map[string]Usage{}
	}
	m := l.byModel[l.pendingModel]
	m.add(u)
	l.byModel[l.pendingModel] = m
}

// compacted records a compaction or clear: later requests no longer read
// what came before.
func (l *sessionLog) compacted() {
	if l == nil {
		return
	}
	l.bounds = append(l.bounds, l.requests)
}

// at is where a result received now sits: its context and position.
func (l *sessionLog) at() (epoch, pos int) {
	if l == nil {
		return 0, 0
	}
	return len(l.bounds), l.requests
}

// end of context e.
func (l *sessionLog) end(e int) int {
	if e < len(l.bounds) {
		return l.bounds[e]
	}
	return l.requests
}

// note records the session's id, directory and start, first seen wins.
func (l *sessionLog) note(id, cwd string, at time.Time) {
	if l == nil {
		return
	}
	if l.id == "" {
		l.id = id
	}
	if l.cwd == "" {
		l.cwd = cwd
	}
	if l.start.IsZero() {
		l.start = at
	}
}

// sessionAcc is what the aggregator sums of one file's results: per
// context, Σt and Σt·p of shell tokens and of removed tokens, so that the
// reads (Σ t·(R − p)) need no list of results.
type sessionAcc struct {
	calls, through, joined, windowed, unjoined int
	shell, removed                             []moments
}

// moments of one context.
type moments struct {
	sum, sumPos int64
	// last is the highest position seen and atLast the tokens there (read
	// by no request when the context ends at that position).
	last   int
	atLast int64
}

func (m *moments) add(t int64, pos int) {
	m.sum += t
	m.sumPos += t * int64(pos)
	switch {
	case pos > m.last:
		m.last, m.atLast = pos, t
	case pos == m.last:
		m.atLast += t
	}
}

// reads is Σ t·(R − p) for a context ending at request R; written is the
// tokens some request read at all.
func (m moments) reads(r int) (reads, written int64) {
	reads = int64(r)*m.sum - m.sumPos
	written = m.sum
	if m.last >= r {
		written -= m.atLast
	}
	return reads, written
}

func grow(ms []moments, e int) []moments {
	for len(ms) <= e {
		ms = append(ms, moments{})
	}
	return ms
}

func (a *sessionAcc) add(r result) {
	a.calls++
	a.shell = grow(a.shell, r.epoch)
	a.shell[r.epoch].add(r.tokens, r.pos)
	if r.v.kind != through {
		return
	}
	a.through++
	switch {
	case r.windowed:
		a.windowed++
	case !r.joined:
		a.unjoined++
	default:
		a.joined++
		a.removed = grow(a.removed, r.epoch)
		a.removed[r.epoch].add(r.removed, r.pos)
	}
}

// sessions builds the session view from the files read and their results.
func sessionsView(logs []*sessionLog, accs map[*sessionLog]*sessionAcc, o Options, perCommand float64) *Sessions {
	out := &Sessions{Method: SessionMethod, PerCommandPct: round1(perCommand), NoUsage: []string{}, List: []Session{}}
	byKey := map[string]*Session{}
	costs := map[string]*Cost{}
	unpriced, named := map[string]bool{}, map[string]bool{}
	var keys []string
	for _, l := range logs {
		l.commit()
		acc := accs[l]
		if acc == nil {
			acc = &sessionAcc{}
		}
		if !l.hasUsage {
			// A file is named once, however many of its contexts lack usage.
			if name := l.agent + ": " + homeRel(l.file, o.Env.Home); acc.calls > 0 && !named[name] {
				named[name] = true
				if out.NoUsageCount++; len(out.NoUsage) < maxNoUsage {
					out.NoUsage = append(out.NoUsage, name)
				}
			}
			continue
		}
		if l.usage.Requests == 0 && acc.calls == 0 {
			continue // nothing in the period
		}
		id := cmp.Or(l.id, strings.TrimSuffix(filepath.Base(l.file), filepath.Ext(l.file)))
		key := l.agent + "\x00" + id
		s := byKey[key]
		if s == nil {
			s = &Session{Agent: l.agent, Session: id, Cwd: l.cwd, Start: l.start}
			byKey[key] = s
			keys = append(keys, key)
		}
		if !l.start.IsZero() && (s.Start.IsZero() || l.start.Before(s.Start)) {
			s.Start = l.start
		}
		s.Usage.add(l.usage)
		s.ShellCalls += acc.calls
		s.Through += acc.through
		s.Joined += acc.joined
		out.Windowed += acc.windowed
		out.Unjoined += acc.unjoined
		var reads, written int64
		for e, m := range acc.shell {
			s.ShellTokens += m.sum
			r, _ := m.reads(l.end(e))
			s.ShellReads += r
		}
		for e, m := range acc.removed {
			r, w := m.reads(l.end(e))
			s.RemovedTokens += m.sum
			reads += r
			written += w
		}
		s.ReadsAvoided += reads
		// Cost: every model of the file priced, or none of it.
		main, mainN := "", -1
		var spent float64
		priced := len(l.byModel) > 0
		for _, model := range sortedKeys(l.byModel) {
			u := l.byModel[model]
			if !slices.Contains(s.Models, model) && model != "" {
				s.Models = append(s.Models, model)
			}
			p, ok := o.Prices[model]
			if !ok {
				priced = false
				continue
			}
			spent += p.cost(u)
			if u.Requests > mainN {
				main, mainN = model, u.Requests
			}
		}
		if !priced {
			unpriced[key] = true
			continue
		}
		p := o.Prices[main]
		c := costs[key]
		if c == nil {
			c = &Cost{}
			costs[key] = c
		}
		c.Spent += spent
		c.Avoided += (float64(written)*p.CacheWrite + float64(reads-written)*p.CacheRead) / 1e6
	}
	for _, key := range keys {
		s := byKey[key]
		slices.Sort(s.Models)
		s.RemovedPct = pct(s.ReadsAvoided, s.Usage.Read()+s.ReadsAvoided)
		if c := costs[key]; c != nil && !unpriced[key] {
			s.Cost = &Cost{Spent: round6(c.Spent), Avoided: round6(c.Avoided)}
			if out.Cost == nil {
				out.Cost = &Cost{}
			}
			out.Cost.Spent += c.Spent
			out.Cost.Avoided += c.Avoided
			out.Priced++
		}
		out.Count++
		out.Usage.add(s.Usage)
		out.Effect.add(s.Effect)
		out.List = append(out.List, *s)
	}
	if out.Cost != nil {
		out.Cost.Spent, out.Cost.Avoided = round6(out.Cost.Spent), round6(out.Cost.Avoided)
	}
	out.RemovedPct = pct(out.ReadsAvoided, out.Usage.Read()+out.ReadsAvoided)
	slices.SortStableFunc(out.List, func(x, y Session) int {
		return cmp.Or(cmp.Compare(y.ReadsAvoided, x.ReadsAvoided), cmp.Compare(y.Usage.Read(), x.Usage.Read()),
			x.Start.Compare(y.Start), cmp.Compare(x.Agent+x.Session, y.Agent+y.Session))
	})
	if o.Limit > 0 && len(out.List) > o.Limit {
		out.List = out.List[:o.Limit]
	}
	return out
}

// homeRel writes a path under home as ~/….
func homeRel(path, home string) string {
	if home != "" && within(path, home) && path != home {
		return "~" + string(filepath.Separator) + strings.TrimPrefix(path[len(home):], string(filepath.Separator))
	}
	return path
}

func pct(part, whole int64) float64 {
	if whole <= 0 {
		return 0
	}
	return round1(100 * float64(part) / float64(whole))
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }

// ParsePrices reads the [prices."MODEL"] tables of config.toml (per million
// tokens: input, cache_write, cache_read, output); other keys are not its
// business.
func ParsePrices(data string) (map[string]Price, error) {
	var c struct {
		Prices map[string]Price `toml:"prices"`
	}
	if _, err := toml.Decode(strings.TrimPrefix(data, "\uFEFF"), &c); err != nil {
		return nil, err
	}
	return c.Prices, nil
}

// Text writes the session view a person reads.
func (s *Sessions) Text(w io.Writer, scope string) {
	if s.Count == 0 {
		fmt.Fprintf(w, "gotk gain --sessions: no transcript records the usage of its requests (%s)\n", scope)
		s.noUsage(w)
		return
	}
	u := s.Usage
	fmt.Fprintf(w, "gotk gain --sessions: %s with recorded usage (%s)\n", plural(s.Count, "session"), scope)
	fmt.Fprintf(w, "gotk removed %.1f%% of what your agents read (per command: %.1f%% of the output gotk filtered)\n", s.RemovedPct, s.PerCommandPct)
	fmt.Fprintf(w, "requests      %s read %s tokens (%s uncached, %s cache writes, %s cache reads), wrote %s\n",
		thousands(int64(u.Requests)), thousands(u.Read()), thousands(u.Input), thousands(u.CacheWrite), thousands(u.CacheRead), thousands(u.Output))
	fmt.Fprintf(w, "shell output  %s tokens, read %s times over: %.1f%% of what the requests read\n",
		thousands(s.ShellTokens), thousands(s.ShellReads), pct(s.ShellReads, u.Read()))
	fmt.Fprintf(w, "gotk removed  %s tokens from the %s results joined to its runs, %s token-reads avoided\n",
		thousands(s.RemovedTokens), thousands(int64(s.Joined)), thousands(s.ReadsAvoided))
	if s.Cost != nil {
		fmt.Fprintf(w, "cost          %.4f spent, %.4f avoided (your configured prices; %d of %d sessions priced)\n",
			s.Cost.Spent, s.Cost.Avoided, s.Priced, s.Count)
	}
	if s.Windowed+s.Unjoined > 0 {
		fmt.Fprintf(w, "not credited  %d through gotk into the agent's own pipe (| head, | tail…), %d with no measured run in gotk's log\n", s.Windowed, s.Unjoined)
	}
	s.noUsage(w)
	fmt.Fprintf(w, "\n  %-16s %-8s %-10s %8s %12s %12s %12s %7s\n", "start", "agent", "session", "requests", "read", "shell reads", "avoided", "removed")
	for _, x := range s.List {
		start := "-"
		if !x.Start.IsZero() {
			start = x.Start.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(w, "  %-16s %-8s %-10s %8s %12s %12s %12s %6.1f%%\n", start, x.Agent, clip(x.Session, 10), thousands(int64(x.Usage.Requests)),
			thousands(x.Usage.Read()), thousands(x.ShellReads), thousands(x.ReadsAvoided), x.RemovedPct)
	}
	fmt.Fprintf(w, "\n(%s)\n", s.Method)
}

func (s *Sessions) noUsage(w io.Writer) {
	if s.NoUsageCount == 0 {
		return
	}
	fmt.Fprintf(w, "no usage recorded in %s (their calls count per command only):\n", plural(s.NoUsageCount, "transcript"))
	for _, n := range s.NoUsage {
		fmt.Fprintf(w, "  %s\n", n)
	}
	if n := s.NoUsageCount - len(s.NoUsage); n > 0 {
		fmt.Fprintf(w, "  and %d more\n", n)
	}
}
