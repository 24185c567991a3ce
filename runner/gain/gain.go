// Package gain turns recorded runs (runner/store) into the `gotk gain`
// report: totals, by command, by day (week, month), a bar chart, the last
// runs, JSON and CSV.
//
// Savings are honest: computed from bytes, signed (a run whose output grew
// counts negative), and capped per run at what the agent's own tool-output
// limit would have shown anyway — Claude Code keeps the first 30,000
// characters of a Bash result, so raw bytes past that never reached the
// model and saving them saves nothing. Tokens are estimated as bytes/4;
// `gotk gain --exact` recounts kept samples with the o200k tokenizer.
package gain

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/core/shell"
	"github.com/gotk-dev/gotk/runner/store"
)

// AgentLimit is the number of output bytes an agent keeps from one command
// (Claude Code: 30,000 characters, counted here as bytes).
const AgentLimit = 30000

// BytesPerToken is the hot-path token estimate.
const BytesPerToken = 4

// Row is a group of runs.
type Row struct {
	Key      string `json:"key"`
	Runs     int    `json:"runs"`
	Measured int    `json:"measured"`    // runs whose bytes are known (filtered or captured)
	Raw      int64  `json:"raw_bytes"`   // raw bytes the agent would have seen (capped per run)
	Shown    int64  `json:"shown_bytes"` // bytes shown instead (capped per run)
	Saved    int64  `json:"saved_bytes"` // Raw - Shown; negative when gotk made it longer
	// Time is the time the runs took, from their recorded durations.
	Time time.Duration `json:"-"`
}

// SavedTokens estimates the tokens saved.
func (r Row) SavedTokens() int64 { return r.Saved / BytesPerToken }

// Percent is Saved as a share of Raw, 0 when nothing was measured.
func (r Row) Percent() float64 {
	if r.Raw == 0 {
		return 0
	}
	return 100 * float64(r.Saved) / float64(r.Raw)
}

func (r *Row) add(run store.Run, limit int64) {
	r.Runs++
	r.Time += run.Duration
	if !run.Measured {
		return
	}
	r.Measured++
	raw, shown := min(run.RawBytes, limit), min(run.Shown, limit)
	r.Raw += raw
	r.Shown += shown
	r.Saved += raw - shown
}

// Report is the whole of `gotk gain`.
type Report struct {
	Project string    `json:"project,omitempty"` // "" for all projects
	Since   time.Time `json:"since"`
	Limit   int64     `json:"agent_limit_bytes"`
	Total   Row       `json:"total"`
	ByRule  []Row     `json:"by_command"` // Key = CommandName ("git status"), most saved first
	ByDay   []Row     `json:"by_day"`     // active days, oldest first, Key = YYYY-MM-DD (local time)
	ByWeek  []Row     `json:"by_week"`    // Key = ISO week, YYYY-Www
	ByMonth []Row     `json:"by_month"`   // Key = YYYY-MM
	Exact   *Exact    `json:"exact,omitempty"`
}

// Period is the span gain groups runs by in time.
type Period string

// The periods of `gotk gain --daily|--weekly|--monthly`.
const (
	Day   Period = "day"
	Week  Period = "week"
	Month Period = "month"
)

// key names the period t falls in, in local time.
func (p Period) key(t time.Time) string {
	t = t.Local()
	switch p {
	case Week:
		y, w := t.ISOWeek()
		return fmt.Sprintf("%04d-W%02d", y, w)
	case Month:
		return t.Format("2006-01")
	}
	return t.Format(time.DateOnly)
}

// Periods returns the rows of one period, oldest first.
func (rep Report) Periods(p Period) []Row {
	switch p {
	case Week:
		return rep.ByWeek
	case Month:
		return rep.ByMonth
	}
	return rep.ByDay
}

// CommandName names a recorded command line for a report: "git status",
// "go test" (core/registry.CommandName).
func CommandName(line string) string {
	var argv []string
	if s, err := shell.Parse(line); err == nil && len(s.Commands) > 0 {
		for _, w := range s.Commands[0].Words {
			if w.Literal {
				argv = append(argv, w.Value)
			} else {
				argv = append(argv, w.Raw)
			}
		}
	} else {
		argv = strings.Fields(line)
	}
	if n := registry.CommandName(argv); n != "" {
		return n
	}
	return "(none)"
}

// Build groups runs (oldest first, as store.Runs returns them).
func Build(runs []store.Run, project string, limit int64) Report {
	rep := Report{Project: project, Limit: limit, Total: Row{Key: "total"}}
	if len(runs) > 0 {
		rep.Since = runs[0].At
	}
	byCommand := map[string]*Row{}
	byPeriod := map[Period]map[string]*Row{Day: {}, Week: {}, Month: {}}
	for _, r := range runs {
		rep.Total.add(r, limit)
		row(byCommand, CommandName(r.Command)).add(r, limit)
		for p, m := range byPeriod {
			row(m, p.key(r.At)).add(r, limit)
		}
	}
	rep.ByRule = sorted(byCommand, func(a, b Row) int {
		return cmp.Or(cmp.Compare(b.Saved, a.Saved), cmp.Compare(b.Runs, a.Runs), cmp.Compare(a.Key, b.Key))
	})
	oldestFirst := func(a, b Row) int { return cmp.Compare(a.Key, b.Key) }
	rep.ByDay = sorted(byPeriod[Day], oldestFirst)
	rep.ByWeek = sorted(byPeriod[Week], oldestFirst)
	rep.ByMonth = sorted(byPeriod[Month], oldestFirst)
	return rep
}

func row(m map[string]*Row, key string) *Row {
	r, ok := m[key]
	if !ok {
		r = &Row{Key: key}
		m[key] = r
	}
	return r
}

func sorted(m map[string]*Row, by func(a, b Row) int) []Row {
	out := make([]Row, 0, len(m))
	for _, r := range m {
		out = append(out, *r)
	}
	slices.SortFunc(out, by)
	return out
}
