package filter

import "strings"

// esbuild renders esbuild's report on stderr: every diagnostic whole (its
// "▲ [WARNING]"/"✘ [ERROR]" line, the "file:line:col:" locator, the code
// frame with its carets, the notes), the count and the output sizes; the
// blank lines esbuild sets between them go (each diagnostic opens with
// its marker), and so do trailing spaces. Stdout is the bundle itself
// when no --outfile is given: it is kept as written, unless it holds
// nothing but blank lines (npm's, around the banners it printed).
type esbuild struct{ same }

// Render drops stderr's blank lines.
func (esbuild) Render(in Input) (Output, error) {
	var errs []string
	for _, l := range lines(in.Stderr) {
		if l = strings.TrimRight(l, " "); l != "" {
			errs = append(errs, l)
		}
	}
	out := Output{Stdout: in.Stdout, Stderr: join(errs)}
	if strings.TrimSpace(string(in.Stdout)) == "" {
		out.Stdout = nil
	}
	return out, nil
}
