// Package discover is `gotk discover`: it reads the coding agents' own
// session transcripts — local files only, read-only — and reports which
// shell commands ran without gotk that gotk would rewrite today (Missed,
// and Declined when the agent's permissions keep gotk out), how many went
// through gotk (adoption), and which commands gotk has no rule for yet
// (Unhandled, with a filter skeleton to start from). Where the transcripts
// record the usage of each model request, it also reports what the
// requests read and the share gotk removed from it (Sessions, usage.go).
//
// It sits beside the flow, after the fact: the transcripts say what each
// agent ran and what its model received; core/decision's Decide, for that
// agent's host, says what the hook would do with the same command today;
// runner/filter estimates the saving on the recorded output; runner/store
// (gotk's run log) says which calls gotk ran when the transcript cannot.
//
// Memory stays bounded whatever the transcripts weigh: files are streamed
// a line at a time (a line longer than MaxLine is skipped and counted),
// calls flow through a small pool of workers, and only per-command totals
// are kept.
package discover

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/runner/gain"
	"github.com/gotk-dev/gotk/runner/store"
)

// Options is one scan.
type Options struct {
	Env Env
	// Since drops calls that ended before it (zero: all).
	Since time.Time
	// Project keeps only calls run in this directory or below it ("": all).
	Project string
	// Agents limits the scan to these agents (nil: all).
	Agents []string
	// Limit caps each list of the report (0: no cap).
	Limit int
	// ShowOutput keeps the largest recorded output of each row, for
	// --show-output. Output text is never kept otherwise.
	ShowOutput bool
	// Runs is gotk's own run log (runner/store), oldest first: which calls
	// went through gotk when the transcript does not say, and the share gotk
	// saves on each rule for the estimates.
	Runs []store.Run
	// Workers counts tokens and runs filters in parallel (0: GOMAXPROCS).
	Workers int
	// Prices are the user's prices per model (config.toml), for the session
	// view's cost; nil: no cost.
	Prices map[string]Price
}

// Scan reads the transcripts and builds the report.
func Scan(o Options) *Report {
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	project := ""
	if o.Project != "" {
		project = filepath.Clean(o.Project)
	}
	d := &deciders{env: permission.Env{Getenv: agentEnv(o.Env.get), Home: o.Env.Home}}
	var recent []store.Run
	for _, r := range o.Runs {
		if o.Since.IsZero() || !r.At.Before(o.Since.Add(-runSlack)) {
			recent = append(recent, r)
		}
	}
	runs := newRunIndex(recent)
	est := newEstimator(o.Runs)
	agg := newAggregate(o)

	type job struct {
		c       *Call
		host    string
		through bool
		j       join
	}
	jobs := make(chan job, 2*workers)
	results := make(chan result, 2*workers)
	statsc := make(chan map[string]Stats, 1)
	logsc := make(chan []*sessionLog, 1)

	go func() { // the reader: one file at a time, in order
		stats := map[string]Stats{}
		var logs []*sessionLog
		for _, a := range agents {
			if !wanted(a.name, o.Agents) {
				continue
			}
			s := &scan{agent: a.name, since: o.Since}
			s.emit = func(c *Call) {
				if project != "" && (c.Cwd == "" || !within(filepath.Clean(c.Cwd), project)) {
					return
				}
				// In the reader, in order: a run in gotk's log vouches for the
				// first call that claims it.
				ok, j := wentThrough(c, runs)
				jobs <- job{c, a.host, ok, j}
			}
			for _, f := range a.find(o.Env) {
				if !o.Since.IsZero() {
					if fi, err := os.Stat(f); err == nil && fi.ModTime().Before(o.Since) {
						continue // nothing in it is recent enough
					}
				}
				s.begin(newSessionLog(a.name, f, o.Since))
				a.read(f, s)
				for _, l := range s.fileLogs {
					l.commit()
					if project == "" || l.cwd != "" && within(filepath.Clean(l.cwd), project) {
						logs = append(logs, l)
					}
				}
			}
			stats[a.name] = s.stats
		}
		close(jobs)
		statsc <- stats
		logsc <- logs
	}()
	done := make(chan struct{})
	for range workers {
		go func() {
			tok := newCounter()
			for j := range jobs {
				results <- work(j.c, j.host, j.through, j.j, d, est, tok, o.ShowOutput)
			}
			done <- struct{}{}
		}()
	}
	go func() {
		for range workers {
			<-done
		}
		close(results)
	}()
	for r := range results {
		agg.add(r)
	}
	rep := agg.report(<-statsc)
	var mine []store.Run // the per-command share is over the runs of the scanned projects
	for _, r := range recent {
		if project == "" || related(r.Project, project) {
			mine = append(mine, r)
		}
	}
	rep.Sessions = sessionsView(<-logsc, agg.sessions, o, gain.Build(mine, "", gain.AgentLimit).Total.Percent())
	return rep
}

// work classifies one call and measures it.
func work(c *Call, hostName string, wentThrough bool, j join, d *deciders, est *estimator, tok *counter, show bool) result {
	if c.Refused {
		return result{agent: c.Agent, session: c.Session, refused: true}
	}
	v := verdict{kind: through}
	if !wentThrough {
		v = d.classify(c, hostName)
	}
	r := result{agent: c.Agent, session: c.Session, v: v, tokens: tok.count(c.Output),
		sess: c.sess, epoch: c.epoch, pos: c.pos, windowed: j.windowed, joined: wentThrough && !j.missing && !j.windowed,
		removed: j.removed / gain.BytesPerToken}
	plain, exit := c.plain()
	if v.kind == missed || v.kind == declined {
		pt := r.tokens
		if plain != c.Output {
			pt = tok.count(plain)
		}
		r.saved, r.method = est.estimate(v, plain, exit, pt, tok)
	}
	r.lines = countLines(plain)
	if show && v.kind != through {
		r.sample = sample(plain)
	}
	return r
}

// agentEnv is the environment the agents' hooks would see, as far as
// discover can tell: this process's, without what describes this process
// rather than the agent sessions (a GOTK_DISABLED or CLAUDE_PROJECT_DIR set
// where discover runs says nothing about them).
func agentEnv(getenv func(string) string) func(string) string {
	return func(k string) string {
		switch k {
		case "GOTK_DISABLED", "RTK_DISABLED", "CLAUDE_PROJECT_DIR":
			return ""
		}
		return getenv(k)
	}
}

func wanted(name string, list []string) bool {
	if len(list) == 0 {
		return true
	}
	for _, n := range list {
		if n == name {
			return true
		}
	}
	return false
}

func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	if s[len(s)-1] != '\n' {
		n++
	}
	return n
}

// sampleLines and sampleBytes cap the output kept for --show-output.
const (
	sampleLines = 40
	sampleBytes = 4 << 10
)

func sample(s string) string {
	n, lines := 0, 0
	for n < len(s) && lines < sampleLines && n < sampleBytes {
		if s[n] == '\n' {
			lines++
		}
		n++
	}
	return strings.Clone(s[:n]) // not the whole output behind it
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
