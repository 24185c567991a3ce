package filter

import (
	"fmt"
	"strings"
)

// cargoFmt renders `cargo fmt --check`: rustfmt's diff with each hunk's
// unchanged context lines left out (counted, with the recall) and the
// files named relative to the working directory. Every removed and added
// line, and every hunk's file:line, stays; rustfmt's own errors (stderr)
// stay whole.
type cargoFmt struct{ same }

var rustfmtHunk = lazy(`^Diff in (.+):(\d+):$`)

// Render drops the context lines of a diff and keeps everything else.
func (cargoFmt) Render(in Input) (Output, error) {
	ls := lines(in.Stdout)
	out := make([]string, 0, len(ls))
	files := map[string]bool{}
	hunks, context := 0, 0
	for _, l := range ls {
		if m := rustfmtHunk.FindStringSubmatch(l); m != nil {
			files[m[1]] = true
			hunks++
			out = append(out, "Diff in "+relPath(m[1], in.Dir)+":"+m[2]+":")
			continue
		}
		// a hunk's context: a line of the file as it is, shown with a
		// leading space (an empty line of the file is a lone space)
		if hunks > 0 && (strings.HasPrefix(l, " ") || l == "") {
			context++
			continue
		}
		out = append(out, l)
	}
	if context > 0 {
		out = append(out, fmt.Sprintf("(%s to reformat, %s; %s of unchanged context not shown: %s)",
			plural(len(files), "file", "files"), plural(hunks, "hunk", "hunks"), plural(context, "line", "lines"), in.Recall()))
	}
	return Output{Stdout: join(out), Stderr: in.Stderr}, nil
}

// terraformValidate renders terraform/tofu validate: the verdict line on
// stdout, and each diagnostic on stderr without its box drawing (the ╷ │ ╵
// gutter) and the blank lines inside it; one blank line separates two
// diagnostics. Every message, location and source excerpt stays.
type terraformValidate struct{ same }

// Render unboxes the diagnostics.
func (terraformValidate) Render(in Input) (Output, error) {
	return Output{Stdout: join(unboxDiagnostics(lines(in.Stdout))), Stderr: join(unboxDiagnostics(lines(in.Stderr)))}, nil
}

// unboxDiagnostics removes Terraform's diagnostic frame: `╷` opens one,
// `╵` closes it, `│ ` prefixes each line inside. Lines outside a frame are
// kept as they are, blank runs folded.
func unboxDiagnostics(ls []string) []string {
	out := ls[:0:0]
	inBox := false
	for _, l := range ls {
		t := strings.TrimRight(l, " ")
		switch {
		case t == "╷":
			inBox = true
			if len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "")
			}
		case t == "╵":
			inBox = false
		case inBox && strings.HasPrefix(t, "│"):
			body := strings.TrimPrefix(strings.TrimPrefix(t, "│"), " ")
			if strings.TrimSpace(body) != "" {
				out = append(out, body)
			}
		default:
			out = append(out, l)
		}
	}
	return dropBlankRuns(out)
}

// kubectlApply renders kubectl apply: `created` and `configured` lines
// (and every error and warning) stay as they are; a run of `unchanged`
// lines folds into one line naming each object, and a warning kubectl
// repeats for several objects word for word but for the object's name is
// written once with the names it applies to.
type kubectlApply struct{ same }

var (
	kubectlUnchanged = lazy(`^(\S+/\S+) unchanged( \((server )?dry run\))?$`)
	kubectlWarning   = lazy(`^(Warning: resource )(\S+)( .*)$`)
)

// Render folds unchanged objects and repeated warnings.
func (kubectlApply) Render(in Input) (Output, error) {
	return Output{Stdout: join(foldUnchanged(lines(in.Stdout))), Stderr: join(foldWarnings(lines(in.Stderr)))}, nil
}

// foldUnchanged folds runs of three or more `NAME unchanged` lines with the
// same suffix into one.
func foldUnchanged(ls []string) []string {
	out := ls[:0:0]
	for i := 0; i < len(ls); {
		m := kubectlUnchanged.FindStringSubmatch(ls[i])
		if m == nil {
			out = append(out, ls[i])
			i++
			continue
		}
		names := []string{m[1]}
		j := i + 1
		for ; j < len(ls); j++ {
			n := kubectlUnchanged.FindStringSubmatch(ls[j])
			if n == nil || n[2] != m[2] {
				break
			}
			names = append(names, n[1])
		}
		if len(names) < 3 {
			out = append(out, ls[i:j]...)
		} else {
			out = append(out, fmt.Sprintf("unchanged%s (%d): %s", m[2], len(names), strings.Join(names, ", ")))
		}
		i = j
	}
	return out
}

// foldWarnings writes a `Warning: resource NAME …` text once when kubectl
// repeats it for several objects, naming them all.
func foldWarnings(ls []string) []string {
	type group struct {
		at    int
		names []string
	}
	groups := map[string]*group{}
	out := ls[:0:0]
	for _, l := range ls {
		m := kubectlWarning.FindStringSubmatch(l)
		if m == nil {
			out = append(out, l)
			continue
		}
		key := m[1] + "\x00" + m[3]
		if g, ok := groups[key]; ok {
			g.names = append(g.names, m[2])
			continue
		}
		groups[key] = &group{at: len(out), names: []string{m[2]}}
		out = append(out, l)
	}
	for _, g := range groups {
		if len(g.names) > 1 {
			m := kubectlWarning.FindStringSubmatch(out[g.at])
			out[g.at] = m[1] + strings.Join(g.names, ", ") + m[3]
		}
	}
	return out
}

// helmTemplate renders helm template: the manifests are the answer, so
// they stay line for line; the blank lines Helm leaves where a template
// rendered nothing (before a `---`) go, and a long render keeps its first
// and last lines with the exact range of the rest (gotk recall --lines).
type helmTemplate struct{ same }

// Render drops blank lines before document separators and caps.
func (helmTemplate) Render(in Input) (Output, error) {
	ls := lines(in.Stdout)
	out := make([]string, 0, len(ls))
	for i, l := range ls {
		if strings.TrimSpace(l) == "" && (i+1 == len(ls) || blankThenSeparator(ls[i+1:])) {
			continue
		}
		out = append(out, l)
	}
	return Output{Stdout: join(capLines(out, 800, 600, in)), Stderr: in.Stderr}, nil
}

// blankThenSeparator: the lines after a blank one are blank up to a YAML
// document separator (or the end), so the blank line belongs to no value.
func blankThenSeparator(rest []string) bool {
	for _, l := range rest {
		switch {
		case strings.TrimSpace(l) == "":
		case l == "---" || strings.HasPrefix(l, "--- "):
			return true
		default:
			return false
		}
	}
	return true
}
