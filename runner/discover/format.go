package discover

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// JSON writes the report's stable JSON form.
func (r *Report) JSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Text writes the report a person reads. Output text appears only in the
// samples, which exist only with --show-output.
func (r *Report) Text(w io.Writer, scope string) {
	calls, sessions := 0, 0
	var names []string
	for _, n := range AgentNames() {
		if a, ok := r.Agents[n]; ok && (a.Files > 0 || a.Calls > 0) {
			calls += a.Calls
			sessions += a.Sessions
			names = append(names, n)
		}
	}
	since := "all time"
	if r.Since != nil {
		since = "since " + r.Since.Local().Format("2006-01-02 15:04")
	}
	if len(names) == 0 {
		fmt.Fprintf(w, "gotk discover: no transcripts found (%s, %s)\n", since, scope)
		fmt.Fprintf(w, "looked for: %s\n", strings.Join(AgentNames(), ", "))
		return
	}
	fmt.Fprintf(w, "gotk discover: %s in %s of %s, %s (%s)\n",
		plural(calls, "shell call"), plural(sessions, "session"), strings.Join(names, ", "), since, scope)
	s := r.Scanned
	fmt.Fprintf(w, "read %s, %s", plural(s.Files, "file"), plural(s.Records, "record"))
	if s.Skipped > 0 {
		var why []string
		for _, x := range []struct {
			n    int
			what string
		}{{s.Unknown, "of a type this gotk does not know"}, {s.Malformed, "malformed or cut off"}, {s.Oversized, "longer than 8 MiB"}} {
			if x.n > 0 {
				why = append(why, fmt.Sprintf("%s %s", thousands(int64(x.n)), x.what))
			}
		}
		fmt.Fprintf(w, "; skipped %s (%s)", thousands(int64(s.Skipped)), strings.Join(why, ", "))
	}
	fmt.Fprintln(w)
	for _, u := range s.Unreadable {
		fmt.Fprintf(w, "could not read %s\n", u)
	}

	fmt.Fprintln(w)
	t := r.Through
	fmt.Fprintf(w, "through gotk  %s, %s tokens shown", plural(t.Count, "call"), thousands(t.ShownTokens))
	if t.Count+r.MissedTotal.Count > 0 {
		fmt.Fprintf(w, "; adoption %.1f%% of the calls gotk rewrites today", t.AdoptionPct)
	}
	fmt.Fprintln(w)
	if s := r.Sessions; s != nil && s.Count > 0 {
		fmt.Fprintf(w, "sessions      gotk removed %.1f%% of what your agents read (per command: %.1f%%): gotk gain --sessions\n", s.RemovedPct, s.PerCommandPct)
	}
	m := r.MissedTotal
	fmt.Fprintf(w, "missed        %s, %s output tokens, ≈ %s could have been saved\n", plural(m.Count, "call"), thousands(m.Tokens), thousands(m.Saved))
	if d := r.DeclinedTotal; d.Count > 0 {
		fmt.Fprintf(w, "declined      %s, %s output tokens (gotk has a rule, but would not rewrite them)\n", plural(d.Count, "call"), thousands(d.Tokens))
	}
	if u := r.UnhandledTotal; u.Count > 0 {
		fmt.Fprintf(w, "unhandled     %s, %s output tokens (no rule yet)\n", plural(u.Count, "call"), thousands(u.Tokens))
	}

	if len(r.Missed) > 0 {
		fmt.Fprintf(w, "\nMissed: ran raw, and gotk would rewrite them today\n")
		fmt.Fprintf(w, "  %-24s %6s %11s %11s  %-16s %s\n", "command", "calls", "output tok", "est. saved", "rule", "estimated by")
		for _, x := range r.Missed {
			fmt.Fprintf(w, "  %-24s %6d %11s %11s  %-16s %s\n", clip(x.Command, 24), x.Count, thousands(x.OutputTokens), thousands(x.EstSavedTokens), x.Rule, estimateWords(x))
			sampleOut(w, x.SampleOutput)
		}
		more(w, r.cut.missed)
	}
	if len(r.Declined) > 0 {
		fmt.Fprintf(w, "\nDeclined: gotk has a rule, but would not rewrite these today\n")
		fmt.Fprintf(w, "  %-24s %6s %11s  %-16s %s\n", "command", "calls", "output tok", "rule", "why")
		for _, x := range r.Declined {
			fmt.Fprintf(w, "  %-24s %6d %11s  %-16s %s\n", clip(x.Command, 24), x.Count, thousands(x.OutputTokens), x.Rule, x.Reason)
			sampleOut(w, x.SampleOutput)
		}
		more(w, r.cut.declined)
	}
	if len(r.Unhandled) > 0 {
		fmt.Fprintf(w, "\nUnhandled: no rule yet, most output first\n")
		fmt.Fprintf(w, "  %-24s %6s %11s %9s\n", "command", "calls", "output tok", "lines")
		for _, x := range r.Unhandled {
			fmt.Fprintf(w, "  %-24s %6d %11s %9s\n", clip(x.Command, 24), x.Count, thousands(x.OutputTokens), thousands(x.Lines))
			sampleOut(w, x.SampleOutput)
		}
		more(w, r.cut.unhandled)
		var sk []string
		for _, x := range r.Unhandled {
			if x.SuggestedFilter != "" && x.OutputTokens > 0 {
				sk = append(sk, x.SuggestedFilter)
			}
		}
		if len(sk) > 0 {
			fmt.Fprintf(w, "\nFilters to start from for the top ones (RTK's TOML schema: finish them, then put them in\n$XDG_CONFIG_HOME/gotk/filters.toml):\n\nschema_version = 1\n\n%s", strings.Join(sk, "\n"))
		}
	}

	fmt.Fprintf(w, "\nby agent\n")
	for _, n := range names {
		a := r.Agents[n]
		fmt.Fprintf(w, "  %-9s %s, %s: %d through gotk, %d missed, %d declined, %d unhandled",
			n, plural(a.Sessions, "session"), plural(a.Calls, "call"), a.Through, a.Missed, a.Declined, a.Unhandled)
		if a.NotRun > 0 {
			fmt.Fprintf(w, " (and %d the agent refused to run)", a.NotRun)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\n(tokens: o200k over the text each model received; counts are shell calls; estimates as the last")
	fmt.Fprintln(w, "column says: gotk's filter run on the recorded output, or a measured share when the filter needs")
	if hasSample(r) {
		fmt.Fprintln(w, "another format. Output text is shown because of --show-output.)")
	} else {
		fmt.Fprintln(w, "another format. No output text is shown: --show-output shows some.)")
	}
}

func estimateWords(x Row) string {
	var parts []string
	for _, m := range strings.Split(x.Estimate, "+") {
		if m != "" {
			parts = append(parts, estimateLabel(m, category(x.Rule)))
		}
	}
	return strings.Join(parts, " + ")
}

func hasSample(r *Report) bool {
	for _, x := range r.Missed {
		if x.SampleOutput != "" {
			return true
		}
	}
	for _, x := range r.Declined {
		if x.SampleOutput != "" {
			return true
		}
	}
	for _, x := range r.Unhandled {
		if x.SampleOutput != "" {
			return true
		}
	}
	return false
}

// sampleOut prints the head of a row's sample (--show-output).
func sampleOut(w io.Writer, s string) {
	if s == "" {
		return
	}
	const show = 12
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for _, l := range lines[:min(show, len(lines))] {
		fmt.Fprintf(w, "      │ %s\n", l)
	}
	if len(lines) > show {
		fmt.Fprintf(w, "      │ … (--json holds %d more lines of it)\n", len(lines)-show)
	}
}

func more(w io.Writer, n int) {
	if n > 0 {
		fmt.Fprintf(w, "  (%d more: --limit 0 shows all)\n", n)
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// thousands writes n with thousands separators: 1,234,567.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// plural is "1 call", "2 calls", "1,204 calls".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return thousands(int64(n)) + " " + noun + "s"
}
