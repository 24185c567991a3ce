package discover

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// skeleton is a TOML filter (RTK's schema: schema_version = 1, a
// [filters.NAME] table, inline [[tests.NAME]]) for an unhandled command,
// for the user to finish and put in their filters file. It holds the
// command's name and numbers, never its output text — unless show, and
// then a recorded output becomes the test's input and its most repeated
// line shapes the strip candidates.
func skeleton(u Unhandled, show bool) string {
	name := filterName(u.Command)
	var b strings.Builder
	perCall := int64(0)
	if u.Count > 0 {
		perCall = u.Lines / int64(u.Count)
	}
	fmt.Fprintf(&b, "# `%s`: %s, %s output tokens, about %s a call (gotk discover)\n", u.Command, plural(u.Count, "call"), thousands(u.OutputTokens), plural(int(perCall), "line"))
	fmt.Fprintf(&b, "[filters.%s]\n", name)
	fmt.Fprintf(&b, "description = %s\n", tomlString(u.Command+": the lines that matter"))
	fmt.Fprintf(&b, "match_command = %s\n", tomlString(matchCommand(u.Command)))
	b.WriteString("strip_ansi = true\n")
	b.WriteString("# the lines that never matter (progress, banners, blank lines):\n")
	b.WriteString("strip_lines_matching = [\n")
	b.WriteString("  '^\\s*$',\n")
	if show {
		for _, p := range repeatedShapes(u.SampleOutput, 5) {
			fmt.Fprintf(&b, "  %s,\n", tomlString(p))
		}
	}
	b.WriteString("]\n")
	b.WriteString("# then at most this many lines (gotk names `gotk recall` for the rest):\n")
	fmt.Fprintf(&b, "max_lines = %d\n", min(max(perCall/3, 20), 80))
	b.WriteString("\n")
	fmt.Fprintf(&b, "[[tests.%s]]\n", name)
	b.WriteString("name = \"a recorded run\"\n")
	if show && u.SampleOutput != "" {
		fmt.Fprintf(&b, "input = %s\n", tomlMultiline(u.SampleOutput))
	} else {
		b.WriteString("input = \"\"\"\n(paste one real output here: gotk discover --show-output prints one)\n\"\"\"\n")
	}
	b.WriteString("expected = \"\"\"\n(what the filter should print)\n\"\"\"\n")
	return b.String()
}

var nonName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

// filterName is a [filters.NAME] key for a command: git-status.
func filterName(command string) string {
	n := strings.Trim(nonName().ReplaceAllString(strings.ToLower(command), "-"), "-")
	if n == "" {
		n = "command"
	}
	return n
}

// matchCommand is a match_command regex for a normalized command: its
// words in order, anchored at the start (RTK requires ^ on every branch).
func matchCommand(command string) string {
	words := strings.Fields(command)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	if len(words) > 0 && words[0] == "python" {
		words[0] = "python3?"
	}
	return "^" + strings.Join(words, `\s+`) + `\b`
}

var digits = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[0-9]+`) })

// repeatedShapes are the line shapes (digits generalized) that repeat most
// in s, at least three times, as anchored regexes.
func repeatedShapes(s string, n int) []string {
	count := map[string]int{}
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if len(l) < 4 || len(l) > 120 {
			continue
		}
		shape := digits().ReplaceAllString(regexp.QuoteMeta(l), `\d+`)
		count[shape]++
	}
	var out []string
	for k, c := range count {
		if c >= 3 {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if count[out[i]] != count[out[j]] {
			return count[out[i]] > count[out[j]]
		}
		return out[i] < out[j]
	})
	if len(out) > n {
		out = out[:n]
	}
	for i := range out {
		out[i] = `^\s*` + out[i] + `\s*$`
	}
	return out
}

// tomlString is a TOML string holding s: a literal string when it can be
// one (regexes read best without doubled backslashes), else a basic one.
func tomlString(s string) string {
	if !strings.ContainsAny(s, "'\n\r") && utf8.ValidString(s) && !hasControl(s) {
		return "'" + s + "'"
	}
	return `"` + escapeTOML(s, false) + `"`
}

// tomlMultiline is a multi-line basic string holding s.
func tomlMultiline(s string) string {
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return "\"\"\"\n" + escapeTOML(s, true) + "\"\"\""
}

func escapeTOML(s string, multiline bool) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n' && multiline:
			b.WriteByte('\n')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\t' || r == 0x7f {
			return true
		}
	}
	return false
}
