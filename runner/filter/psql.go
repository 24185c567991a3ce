package filter

import (
	"errors"
	"strings"
)

// psql renders psql's aligned tables as psql's own unaligned form (the
// -A format: cells joined by "|", no padding, no border line): every
// value stays, only the alignment blanks and the dashed rule go. A cell
// holding a newline keeps psql's "+" marker and its continuation row.
// Titles ("Table "public.orders"") lose their centring; footers
// ("Indexes:", "(40 rows)"), notices and errors pass unchanged. Expanded
// records (\x) fold the same way ("id|1"). A line that does not sit on
// the table's column boundaries (a wide character psql counts as two
// columns) stays as it was.
type psql struct{ same }

// psqlRule is the dashed line under a table's header: "----+------".
var psqlRule = lazy(`^-+(\+-+)*$`)

// psqlRecord is an expanded record's header: "-[ RECORD 1 ]-+------".
var psqlRecord = lazy(`^-\[ RECORD (\d+) \]-*(\+-*)?$`)

// Render folds every aligned table of stdout; stderr passes (psql's
// errors, notices and the query's LINE/caret context).
func (psql) Render(in Input) (Output, error) {
	ll := lines(in.Stdout)
	out := make([]string, 0, len(ll))
	for i := 0; i < len(ll); i++ {
		l := ll[i]
		if m := psqlRecord.FindStringSubmatch(l); m != nil {
			out = append(out, "-[ RECORD "+m[1]+" ]-")
			var n int
			out, n = psqlExpanded(ll[i+1:], out)
			i += n
			continue
		}
		if i+1 < len(ll) && psqlRule.MatchString(ll[i+1]) && strings.Contains(l, " ") {
			bounds := psqlBounds(ll[i+1])
			// a centred title line just above the header
			if n := len(out); n > 0 && i > 0 && out[n-1] == ll[i-1] && strings.HasPrefix(ll[i-1], "  ") {
				out[n-1] = strings.TrimSpace(ll[i-1])
			}
			out = append(out, psqlRow(l, bounds))
			i += 2
			for ; i < len(ll); i++ {
				r := ll[i]
				if r == "" || strings.HasPrefix(r, "(") && strings.HasSuffix(r, ")") {
					break
				}
				out = append(out, psqlRow(r, bounds))
			}
			i--
			continue
		}
		out = append(out, strings.TrimRight(l, " "))
	}
	out = dropBlankRuns(out)
	if in.Exit != 0 && len(out) == 0 && len(in.Stderr) == 0 && len(in.Stdout) > 0 {
		return Output{}, errors.New("psql: nothing left of a failing run")
	}
	return Output{Stdout: join(out), Stderr: in.Stderr}, nil
}

// psqlBounds returns the rune offsets of the "+" joints of a header rule:
// the columns' "|" separators sit there in every row.
func psqlBounds(rule string) []int {
	var b []int
	for i, r := range []rune(rule) {
		if r == '+' {
			b = append(b, i)
		}
	}
	return append(b, len([]rune(rule)))
}

// psqlRow folds a header or row that may not split (it then stays, with
// its trailing blanks trimmed).
func psqlRow(l string, bounds []int) string {
	if row, ok := psqlSplit(l, bounds); ok {
		return row
	}
	return strings.TrimRight(l, " ")
}

// psqlSplit cuts a row at the column boundaries and trims each cell. A
// cell is a padding column, the value, and a last column that is padding
// or psql's newline ("+") or wrap (".") marker; psql does not pad the
// last column unless it needs that marker. ok is false when the row does
// not have "|" at every boundary or runs past the rule.
func psqlSplit(l string, bounds []int) (string, bool) {
	rs := []rune(l)
	width := bounds[len(bounds)-1]
	if len(rs) > width {
		return "", false
	}
	cells := make([]string, 0, len(bounds))
	start := 0
	for _, end := range bounds {
		if end < width && (end >= len(rs) || rs[end] != '|') {
			return "", false
		}
		var cell []rune
		full := end <= len(rs)
		if start < len(rs) {
			cell = rs[start:min(end, len(rs))]
		}
		cells = append(cells, psqlCell(cell, full))
		start = end + 1
	}
	return strings.Join(cells, "|"), true
}

// psqlCell trims a cell's padding; full is true when the cell spans its
// whole width, so that its last column is padding or a marker.
func psqlCell(c []rune, full bool) string {
	marker := ""
	if n := len(c); full && n >= 2 && (c[n-1] == '+' || c[n-1] == '.') {
		marker = string(c[n-1])
		c = c[:n-1]
	}
	return strings.TrimSpace(string(c)) + marker
}

// psqlExpanded folds an expanded record's "name | value" lines (the
// name is padded to the widest) up to the next record or a blank line;
// it returns the lines consumed.
func psqlExpanded(ll []string, out []string) ([]string, int) {
	n := 0
	for ; n < len(ll); n++ {
		l := ll[n]
		if l == "" || psqlRecord.MatchString(l) {
			break
		}
		name, value, ok := strings.Cut(l, " | ")
		if !ok {
			name, ok = strings.CutSuffix(l, " |")
		}
		if !ok {
			out = append(out, strings.TrimRight(l, " "))
			continue
		}
		out = append(out, strings.TrimSpace(name)+"|"+strings.TrimRight(value, " "))
	}
	return out, n
}
