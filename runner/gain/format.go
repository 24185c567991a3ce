package gain

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Text writes the report a person reads.
func (rep Report) Text(w io.Writer) {
	scope := "all projects"
	if rep.Project != "" {
		scope = rep.Project
	}
	t := rep.Total
	fmt.Fprintf(w, "gotk gain: %s since %s (%s)\n", runs(t.Runs), rep.Since.Local().Format("2006-01-02 15:04"), scope)
	fmt.Fprintf(w, "saved ≈ %d tokens (%.1f%%): %d raw bytes shown as %d\n", t.SavedTokens(), t.Percent(), t.Raw, t.Shown)
	if n := t.Runs - t.Measured; n > 0 {
		fmt.Fprintf(w, "%s passed straight through (no filter, or --raw): not measured, counted as 0\n", runs(n))
	}
	fmt.Fprintf(w, "(tokens ≈ bytes/4; each run's raw output counts at most %d bytes, what the agent would have kept anyway)\n", rep.Limit)
	if rep.Exact != nil {
		rep.Exact.text(w)
	}
	table(w, "by command", rep.ByRule)
	table(w, "by day", rep.ByDay)
}

func table(w io.Writer, title string, rows []Row) {
	fmt.Fprintf(w, "\n%-18s %6s %10s %10s %12s %7s\n", title, "runs", "raw B", "shown B", "saved tok", "saved")
	for _, r := range rows {
		pct := "-"
		if r.Measured > 0 {
			pct = fmt.Sprintf("%.1f%%", r.Percent())
		}
		fmt.Fprintf(w, "%-18s %6d %10d %10d %12d %7s\n", r.Key, r.Runs, r.Raw, r.Shown, r.SavedTokens(), pct)
	}
}

// Graph writes a bar chart of the tokens saved on each of the last days
// days, ending today.
func (rep Report) Graph(w io.Writer, now time.Time, days int) {
	const width = 40
	saved := map[string]int64{}
	for _, r := range rep.ByDay {
		saved[r.Key] = r.SavedTokens()
	}
	today := now.Local()
	var peak int64
	keys := make([]string, days)
	for i := range days {
		keys[i] = today.AddDate(0, 0, i-days+1).Format(time.DateOnly)
		peak = max(peak, saved[keys[i]], -saved[keys[i]])
	}
	fmt.Fprintf(w, "tokens saved per day, last %d days\n", days)
	for _, k := range keys {
		v := saved[k]
		bar := ""
		if peak > 0 {
			n := int((max(v, -v)*width + peak - 1) / peak)
			if v < 0 {
				bar = strings.Repeat("░", n)
			} else {
				bar = strings.Repeat("█", n)
			}
		}
		fmt.Fprintf(w, "%s %-*s %d\n", k[5:], width, bar, v)
	}
	if peak > 0 {
		fmt.Fprintln(w, "(░ = a day whose output grew: negative savings)")
	}
}

type jsonRow struct {
	Row
	SavedTokens int64   `json:"saved_tokens"`
	Percent     float64 `json:"saved_percent"`
}

func jsonRows(rows []Row) []jsonRow {
	out := make([]jsonRow, len(rows))
	for i, r := range rows {
		out[i] = jsonRow{r, r.SavedTokens(), round1(r.Percent())}
	}
	return out
}

func round1(f float64) float64 { return float64(int64(f*10+0.5*sign(f))) / 10 }

func sign(f float64) float64 {
	if f < 0 {
		return -1
	}
	return 1
}

// JSON writes the report as one JSON object.
func (rep Report) JSON(w io.Writer) error {
	v := struct {
		Project string    `json:"project"`
		Since   *string   `json:"since"`
		Limit   int64     `json:"agent_limit_bytes"`
		Per     int       `json:"bytes_per_token"`
		Total   jsonRow   `json:"total"`
		ByRule  []jsonRow `json:"by_command"`
		ByDay   []jsonRow `json:"by_day"`
		Exact   *Exact    `json:"exact,omitempty"`
	}{Project: rep.Project, Limit: rep.Limit, Per: BytesPerToken, Total: jsonRows([]Row{rep.Total})[0],
		ByRule: jsonRows(rep.ByRule), ByDay: jsonRows(rep.ByDay), Exact: rep.Exact}
	if !rep.Since.IsZero() {
		s := rep.Since.UTC().Format(time.RFC3339)
		v.Since = &s
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// CSV writes one line per row: the total, each command, each day.
func (rep Report) CSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"section", "key", "runs", "measured", "raw_bytes", "shown_bytes", "saved_bytes", "saved_tokens", "saved_percent"})
	put := func(section string, rows []Row) {
		for _, r := range rows {
			cw.Write([]string{section, r.Key, strconv.Itoa(r.Runs), strconv.Itoa(r.Measured),
				strconv.FormatInt(r.Raw, 10), strconv.FormatInt(r.Shown, 10), strconv.FormatInt(r.Saved, 10),
				strconv.FormatInt(r.SavedTokens(), 10), strconv.FormatFloat(round1(r.Percent()), 'f', 1, 64)})
		}
	}
	if rep.Total.Runs > 0 {
		put("total", []Row{rep.Total})
	}
	put("command", rep.ByRule)
	put("day", rep.ByDay)
	cw.Flush()
	return cw.Error()
}

// runs writes "1 run" / "3 runs".
func runs[N int | int64](n N) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}
