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

	"github.com/gotk-dev/gotk/runner/store"
)

// Last returns the last n of runs (oldest first, as store.Runs returns
// them).
func Last(runs []store.Run, n int) []store.Run {
	return runs[max(len(runs)-n, 0):]
}

// commandWidth is where a long command line is cut in the history table.
const commandWidth = 60

// History writes runs, one line each, oldest first: when, the command line,
// raw → shown bytes, exit code and duration.
func History(w io.Writer, runs []store.Run) {
	cw := len("command")
	for _, r := range runs {
		cw = max(cw, min(utf8.RuneCountInString(r.Command), commandWidth))
	}
	right := func(s string, n int) string { return strings.Repeat(" ", max(n-utf8.RuneCountInString(s), 0)) + s }
	fmt.Fprintf(w, "%-19s  %-*s  %s  %4s  %8s\n", "time", cw, "command", right("raw → shown B", 21), "exit", "took")
	for _, r := range runs {
		cmd := r.Command
		if utf8.RuneCountInString(cmd) > commandWidth {
			cmd = string([]rune(cmd)[:commandWidth-1]) + "…"
		}
		sizes := "not measured"
		if r.Measured {
			sizes = Thousands(r.RawBytes) + " → " + Thousands(r.Shown)
		}
		fmt.Fprintf(w, "%-19s  %s%*s  %s  %4d  %8s\n", r.At.Local().Format(time.DateTime), cmd,
			cw-utf8.RuneCountInString(cmd), "", right(sizes, 21), r.Exit, Duration(r.Duration))
	}
}

type historyRun struct {
	At       string  `json:"at"`
	Command  string  `json:"command"`
	Name     string  `json:"name"`
	Measured bool    `json:"measured"`
	Raw      int64   `json:"raw_bytes"`
	Shown    int64   `json:"shown_bytes"`
	Exit     int     `json:"exit"`
	Seconds  float64 `json:"seconds"`
}

func historyRuns(runs []store.Run) []historyRun {
	out := make([]historyRun, len(runs))
	for i, r := range runs {
		out[i] = historyRun{r.At.UTC().Format(time.RFC3339), r.Command, CommandName(r.Command), r.Measured, r.RawBytes, r.Shown, r.Exit, seconds(r.Duration)}
	}
	return out
}

// HistoryJSON writes runs as a JSON array.
func HistoryJSON(w io.Writer, runs []store.Run) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(historyRuns(runs))
}

// HistoryCSV writes runs as CSV.
func HistoryCSV(w io.Writer, runs []store.Run) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"at", "command", "name", "measured", "raw_bytes", "shown_bytes", "exit", "seconds"})
	for _, r := range historyRuns(runs) {
		cw.Write([]string{r.At, r.Command, r.Name, strconv.FormatBool(r.Measured), strconv.FormatInt(r.Raw, 10),
			strconv.FormatInt(r.Shown, 10), strconv.Itoa(r.Exit), strconv.FormatFloat(r.Seconds, 'f', 3, 64)})
	}
	cw.Flush()
	return cw.Error()
}
