package filter

import "strings"

// esbuild renders esbuild's report on stderr: every diagnostic whole (its
// "▲ [WARNING]"/"✘ [ERROR]" line, the "file:line:col:" locator, the quoted
// source line, the notes), the count and the output sizes; the blank lines
// esbuild sets between them go (each diagnostic opens with its marker), and
// so do trailing spaces and the "╵ ~~~" underlines, as gcc's carets do
// (the locator has the column; the quoted line, the text). Stdout is the bundle itself
// when no --outfile is given: it is kept as written, unless it holds
// nothing but blank lines (npm's, around the banners it printed).
type esbuild struct{ same }

// esbuildUnderline is the line of tildes under a quoted source span.
var esbuildUnderline = lazy(`^\s*╵[\s~^]*$`)

// Render drops stderr's blank lines and underlines.
func (esbuild) Render(in Input) (Output, error) {
	var errs []string
	for _, l := range lines(in.Stderr) {
		if l = strings.TrimRight(l, " "); l != "" && !esbuildUnderline.MatchString(l) {
			errs = append(errs, l)
		}
	}
	out := Output{Stdout: in.Stdout, Stderr: join(errs)}
	if strings.TrimSpace(string(in.Stdout)) == "" {
		out.Stdout = nil
	}
	return out, nil
}
