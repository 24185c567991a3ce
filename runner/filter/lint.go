package filter

import (
	"errors"
	"fmt"
	"strings"
)

// eslint renders ESLint's default (stylish) report: per file, each
// distinct problem on one line (`L:C L:C severity message  rule`, each
// location whole as ESLint printed it): a message repeated in a file is
// written once with all its locations, so
// every message and rule survives, with its first eslintLocMax locations
// (the rest are counted and recallable: 750 places of one no-var are a
// count, not a reading list). The totals line is ESLint's own. A very long
// report is capped. In an agent's window (Input.Window) every place is
// listed: the window is the count.
type eslint struct{ same }

// ReadsParts: a part of the report renders as that part alone (regrouped
// per message, no count of gotk's own).
func (eslint) ReadsParts() {}

// eslintLocMax is how many places of one problem in one file are listed.
const eslintLocMax = 20

var (
	eslintMsg = lazy(`^\s+(\d+:\d+)\s+(error|warning)\s+(.*?)(?:\s{2,}(\S+))?\s*$`)
	// eslintOwnFormat: the user asked for another formatter.
	eslintOwnFormat = []string{"-f", "--format", "-o", "--output-file"}
)

// Render parses stylish output; anything it does not recognise is kept.
func (eslint) Render(in Input) (Output, error) {
	if userHas(in.Argv, in.Tool, eslintOwnFormat...) {
		return raw(in), nil
	}
	type problem struct {
		locs           []string
		sev, msg, rule string
	}
	var res []string
	var file []*problem
	index := map[string]*problem{}
	flush := func() {
		for _, p := range file {
			locs := p.locs
			if in.Window == 0 {
				locs = locs[:min(len(locs), eslintLocMax)]
			}
			l := "  " + strings.Join(locs, " ") + " " + p.sev + " " + p.msg
			if p.rule != "" {
				l += "  " + p.rule
			}
			if n := len(p.locs) - len(locs); n > 0 {
				l += fmt.Sprintf("  (%d places; %s)", len(p.locs), moreLine(n, "places", in))
			}
			res = append(res, l)
		}
		file, index = nil, map[string]*problem{}
	}
	for _, l := range lines(in.Stdout) {
		m := eslintMsg.FindStringSubmatch(l)
		if m == nil {
			flush()
			if strings.TrimSpace(l) != "" {
				res = append(res, l)
			}
			continue
		}
		key := m[2] + "\x00" + m[3] + "\x00" + m[4]
		if p := index[key]; p != nil {
			p.locs = append(p.locs, m[1])
			continue
		}
		p := &problem{locs: []string{m[1]}, sev: m[2], msg: m[3], rule: m[4]}
		index[key] = p
		file = append(file, p)
	}
	flush()
	return Output{Stdout: join(capKeeping(res, 300, nil, in)), Stderr: in.Stderr}, nil
}

// biome renders Biome's diagnostics without the code frames and the
// suggested-fix diffs: each diagnostic's location, rule and messages stay.
// Biome writes its diagnostics on stderr and its summary on stdout, so both
// streams are rendered alike.
type biome struct{ same }

var (
	biomeFrame = lazy(`^\s*(>\s*)?\d*\s*\d*\s*│`)
	biomeRule  = lazy(`\s*━+\s*$`)
)

// Render drops frames, blank gutters and rule decorations, and says once
// per stream how many frames it left out.
func (biome) Render(in Input) (Output, error) {
	return Output{Stdout: biomeText(in.Stdout, in.Recall), Stderr: biomeText(in.Stderr, in.Recall)}, nil
}

func biomeText(b []byte, recall func() string) []byte {
	var res []string
	frames, inFrame := 0, false
	for _, l := range lines(b) {
		if biomeFrame.MatchString(l) {
			if !inFrame {
				frames++
			}
			inFrame = true
			continue
		}
		inFrame = false
		if strings.TrimSpace(l) == "" {
			continue
		}
		l = biomeRule.ReplaceAllString(l, "")
		// a diagnostic starts at the margin, its messages are indented:
		// one blank line between diagnostics
		if n := len(res); n > 0 && l[0] != ' ' && strings.HasPrefix(res[n-1], " ") {
			res = append(res, "")
		}
		res = append(res, l)
	}
	if frames > 0 {
		res = append(res, fmt.Sprintf("(%s left out: %s)", plural(frames, "code frame or fix diff", "code frames and fix diffs"), recall()))
	}
	return join(res)
}

// ruff asks `ruff check` for its concise format (one line per problem,
// the same problems as the default format without the source excerpts)
// and folds nothing else.
type ruff struct{}

// Args adds --output-format=concise to `ruff check` unless the user chose
// a format.
func (ruff) Args(argv []string, tool int) []string {
	at := subIndex(argv, tool, "check")
	if at < 0 || subHas(argv, at, "--output-format", "--format", "--statistics", "--show-settings", "--show-files", "-h", "--help", "-w", "--watch") || subHas(argv, at, writesFile...) {
		return argv
	}
	return insertAt(argv, at+1, "--output-format=concise")
}

// Render caps a very long report, keeping every problem line.
func (ruff) Render(in Input) (Output, error) {
	return lineFilter{max: 400}.Render(in)
}

// golangciLint renders golangci-lint's text report without the source
// line and caret it prints under each issue.
type golangciLint struct{ same }

var (
	lintIssue = lazy(`^\S+\.go:\d+(:\d+)?: `)
	lintCaret = lazy(`^\s*\^\s*$`)
)

// Render keeps issue lines and the summary.
func (golangciLint) Render(in Input) (Output, error) {
	if userHas(in.Argv, in.Tool, "--out-format", "--output.json.path", "--output.checkstyle.path") {
		return raw(in), nil
	}
	var res []string
	ls := lines(in.Stdout)
	for i := 0; i < len(ls); i++ {
		res = append(res, ls[i])
		if !lintIssue.MatchString(ls[i]) {
			continue
		}
		// the excerpt: one source line and a caret line under it
		if i+2 < len(ls) && lintCaret.MatchString(ls[i+2]) && !lintIssue.MatchString(ls[i+1]) {
			i += 2
		}
	}
	if len(res) == 0 && len(in.Stdout) > 0 {
		return Output{}, errors.New("golangci-lint: nothing recognised")
	}
	return Output{Stdout: join(res), Stderr: keepStderr(in, goNoise...)}, nil
}
