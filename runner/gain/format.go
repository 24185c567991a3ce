package gain

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// TextRows is how many periods the text report lists, the most recent;
// --json and --csv have them all.
const TextRows = 30

// Text writes the report a person reads: the totals, the commands, and the
// last TextRows periods of p.
func (rep Report) Text(w io.Writer, p Period) {
	scope := "all projects"
	if rep.Project != "" {
		scope = rep.Project
	}
	t := rep.Total
	fmt.Fprintf(w, "gotk gain: %s since %s (%s)\n", runs(t.Runs), rep.Since.Local().Format("2006-01-02 15:04"), scope)
	fmt.Fprintf(w, "saved ≈ %s tokens (%.1f%%): %s raw bytes shown as %s, in %s of commands\n",
		Thousands(t.SavedTokens()), t.Percent(), Thousands(t.Raw), Thousands(t.Shown), Duration(t.Time))
	if n := t.Runs - t.Measured; n > 0 {
		fmt.Fprintf(w, "%s passed straight through (no filter, or --raw): not measured, counted as 0\n", runs(n))
	}
	fmt.Fprintf(w, "(tokens ≈ bytes/4; each run's raw output counts at most %s bytes, what the agent would have kept anyway)\n", Thousands(rep.Limit))
	if rep.Exact != nil {
		rep.Exact.text(w)
	}
	table(w, "by command", rep.ByRule)
	rows := rep.Periods(p)
	title := "by " + string(p)
	if n := len(rows) - TextRows; n > 0 {
		rows = rows[n:]
		title = fmt.Sprintf("by %s, last %d (%d earlier: --json)", p, TextRows, n)
	}
	table(w, title, rows)
}

func table(w io.Writer, title string, rows []Row) {
	width := utf8.RuneCountInString(title)
	for _, r := range rows {
		width = max(width, utf8.RuneCountInString(r.Key))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-utf8.RuneCountInString(s)) }
	fmt.Fprintf(w, "\n%s %6s %11s %11s %10s %7s %8s\n", pad(title), "runs", "raw B", "shown B", "saved tok", "saved", "time")
	for _, r := range rows {
		pct := "-"
		if r.Measured > 0 {
			pct = fmt.Sprintf("%.1f%%", r.Percent())
		}
		fmt.Fprintf(w, "%s %6s %11s %11s %10s %7s %8s\n", pad(r.Key), Thousands(int64(r.Runs)), Thousands(r.Raw), Thousands(r.Shown),
			Thousands(r.SavedTokens()), pct, Duration(r.Time))
	}
}

// Graph writes a bar chart of the tokens saved in each active period of p
// (the last TextRows), width columns wide; color adds ANSI colours.
func (rep Report) Graph(w io.Writer, p Period, width int, color bool) {
	rows := rep.Periods(p)
	if n := len(rows) - TextRows; n > 0 {
		rows = rows[n:]
	}
	keyW, valW := 0, 0
	var peak int64
	for _, r := range rows {
		v := r.SavedTokens()
		keyW = max(keyW, len(r.Key))
		valW = max(valW, len(Thousands(v)))
		peak = max(peak, v, -v)
	}
	barW := max(width-keyW-valW-2, 10)
	fmt.Fprintf(w, "tokens saved per active %s (%d shown)\n", p, len(rows))
	negative := false
	for _, r := range rows {
		v := r.SavedTokens()
		n := 0
		if peak > 0 {
			n = int((max(v, -v)*int64(barW) + peak - 1) / peak)
		}
		bar, on := strings.Repeat("█", n), "\x1b[32m"
		if v < 0 {
			bar, on, negative = strings.Repeat("░", n), "\x1b[33m", true
		}
		if color && bar != "" {
			bar = on + bar + "\x1b[0m"
		}
		fmt.Fprintf(w, "%-*s %s%s %*s\n", keyW, r.Key, bar, strings.Repeat(" ", barW-n), valW, Thousands(v))
	}
	if negative {
		fmt.Fprintf(w, "(░ = a %s whose output grew: negative savings)\n", p)
	}
}

type jsonRow struct {
	Row
	SavedTokens int64   `json:"saved_tokens"`
	Percent     float64 `json:"saved_percent"`
	Seconds     float64 `json:"seconds"`
}

func jsonRows(rows []Row) []jsonRow {
	out := make([]jsonRow, len(rows))
	for i, r := range rows {
		out[i] = jsonRow{r, r.SavedTokens(), round1(r.Percent()), seconds(r.Time)}
	}
	return out
}

func seconds(d time.Duration) float64 { return float64(d.Milliseconds()) / 1000 }

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
		ByWeek  []jsonRow `json:"by_week"`
		ByMonth []jsonRow `json:"by_month"`
		Exact   *Exact    `json:"exact,omitempty"`
	}{Project: rep.Project, Limit: rep.Limit, Per: BytesPerToken, Total: jsonRows([]Row{rep.Total})[0],
		ByRule: jsonRows(rep.ByRule), ByDay: jsonRows(rep.ByDay), ByWeek: jsonRows(rep.ByWeek), ByMonth: jsonRows(rep.ByMonth), Exact: rep.Exact}
	if !rep.Since.IsZero() {
		s := rep.Since.UTC().Format(time.RFC3339)
		v.Since = &s
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// CSV writes one line per row: the total, each command, each period of p.
func (rep Report) CSV(w io.Writer, p Period) error {
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
	put(string(p), rep.Periods(p))
	cw.Flush()
	return cw.Error()
}

// runs writes "1 run" / "3 runs".
func runs[N int | int64](n N) string {
	if n == 1 {
		return "1 run"
	}
	return Thousands(int64(n)) + " runs"
}

// Thousands writes n with a comma between groups of three digits: 1,234,567.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Duration writes d for a person: 340ms, 12.3s, 4m12s, 2h05m.
func Duration(d time.Duration) string {
	switch {
	case d <= 0:
		return "-"
	case d < time.Millisecond:
		return "<1ms"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}
