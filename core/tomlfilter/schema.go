// Package tomlfilter reads RTK's declarative filter files unchanged
// (schema_version = 1, [filters.NAME], [[tests.NAME]]) and applies them.
// It sits under both halves of gotk: the registry (core/registry) asks it
// whether a command line matches a user or trusted project filter, so the
// hooks rewrite it; the runner (runner/filter) applies the filter to the
// command's output with gotk's fidelity rules on top.
//
// A problem in one filter (an unknown field, a bad regex, keep and strip
// both set) refuses that filter only, with file:line; a file that is not
// TOML at all refuses the file. Nothing here ever fails a command.
package tomlfilter

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// Spec is one [filters.NAME] table as written, plus where it was found.
// Zero values mean "not set" (a count of 0 is refused by Check).
type Spec struct {
	Name            string
	Description     string
	MatchCommand    string
	StripANSI       bool
	Replace         []Replace
	MatchOutput     []MatchOutput
	StripLines      []string
	KeepLines       []string
	TruncateLinesAt int
	HeadLines       int
	TailLines       int
	MaxLines        int
	OnEmpty         string
	FilterStderr    bool
	Tests           []Test
	Source          string // the file, or "built-in"
	Line            int    // line of the filter's table header (1-based; 0 unknown)
}

// Replace is one `{ pattern, replacement }` rule; the replacement may use
// $1, ${name} backreferences.
type Replace struct{ Pattern, Replacement string }

// MatchOutput is one short-circuit rule: when Pattern matches the whole
// output (and Unless does not), the output is Message.
type MatchOutput struct{ Pattern, Message, Unless string }

// Test is one [[tests.NAME]] entry.
type Test struct{ Name, Input, Expected string }

// Problem is a refused filter (or file), located for a person.
type Problem struct {
	File   string
	Line   int
	Filter string // "" when the whole file is refused
	Msg    string
}

func (p Problem) String() string {
	loc := p.File
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	if p.Filter == "" {
		return fmt.Sprintf("%s: %s", loc, p.Msg)
	}
	return fmt.Sprintf("%s: filter %q: %s; filter skipped", loc, p.Filter, p.Msg)
}

// fields are the keys a [filters.NAME] table may hold (RTK's schema).
var fields = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"description": true, "match_command": true, "strip_ansi": true, "replace": true, "match_output": true,
		"strip_lines_matching": true, "keep_lines_matching": true, "truncate_lines_at": true, "head_lines": true,
		"tail_lines": true, "max_lines": true, "on_empty": true, "filter_stderr": true,
	}
})

type fileDoc struct {
	SchemaVersion *int64                      `toml:"schema_version"`
	Filters       map[string]toml.Primitive   `toml:"filters"`
	Tests         map[string][]toml.Primitive `toml:"tests"`
}

type specDoc struct {
	Description        string        `toml:"description"`
	MatchCommand       *string       `toml:"match_command"`
	StripANSI          bool          `toml:"strip_ansi"`
	Replace            []replaceDoc  `toml:"replace"`
	MatchOutput        []matchOutDoc `toml:"match_output"`
	StripLinesMatching []string      `toml:"strip_lines_matching"`
	KeepLinesMatching  []string      `toml:"keep_lines_matching"`
	TruncateLinesAt    *int64        `toml:"truncate_lines_at"`
	HeadLines          *int64        `toml:"head_lines"`
	TailLines          *int64        `toml:"tail_lines"`
	MaxLines           *int64        `toml:"max_lines"`
	OnEmpty            string        `toml:"on_empty"`
	FilterStderr       bool          `toml:"filter_stderr"`
}

type replaceDoc struct {
	Pattern     *string `toml:"pattern"`
	Replacement *string `toml:"replacement"`
}

type matchOutDoc struct {
	Pattern *string `toml:"pattern"`
	Message *string `toml:"message"`
	Unless  string  `toml:"unless"`
}

type testDoc struct {
	Name     string  `toml:"name"`
	Input    *string `toml:"input"`
	Expected *string `toml:"expected"`
}

// Parse reads one filter file. It returns the filters that passed every
// check, in name order (RTK's order: the first match wins), and one
// Problem per refused filter or for a refused file.
func Parse(file string, data []byte) ([]Spec, []Problem) {
	text := strings.TrimLeft(string(data), "\uFEFF")
	var doc fileDoc
	md, err := toml.Decode(text, &doc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, []Problem{{File: file, Line: pe.Position.Line, Msg: "not valid TOML: " + oneLine(pe.Message) + "; file skipped"}}
		}
		return nil, []Problem{{File: file, Msg: "not valid TOML: " + oneLine(err.Error()) + "; file skipped"}}
	}
	loc := newLocator(text)
	if doc.SchemaVersion == nil {
		return nil, []Problem{{File: file, Line: 1, Msg: "schema_version = 1 is missing; file skipped"}}
	}
	if *doc.SchemaVersion != 1 {
		return nil, []Problem{{File: file, Line: loc.key(0, "schema_version"), Msg: fmt.Sprintf("unsupported schema_version %d (gotk reads 1); file skipped", *doc.SchemaVersion)}}
	}
	var problems []Problem
	for _, k := range md.Undecoded() {
		if len(k) == 1 {
			problems = append(problems, Problem{File: file, Line: loc.key(0, k[0]), Msg: fmt.Sprintf("unknown top-level key %q ignored", k[0])})
		}
	}
	names := make([]string, 0, len(doc.Filters))
	for n := range doc.Filters {
		names = append(names, n)
	}
	sort.Strings(names)
	var specs []Spec
	for _, name := range names {
		header := loc.table("filters", name)
		bad := func(line int, format string, args ...any) {
			if line == 0 {
				line = header
			}
			problems = append(problems, Problem{File: file, Line: line, Filter: name, Msg: fmt.Sprintf(format, args...)})
		}
		var sd specDoc
		if err := md.PrimitiveDecode(doc.Filters[name], &sd); err != nil {
			bad(0, "%s", oneLine(err.Error()))
			continue
		}
		if unknown := unknownKeys(md, "filters", name); len(unknown) > 0 {
			bad(loc.key(header, strings.SplitN(unknown[0], ".", 2)[0]), "unknown field %q (RTK's schema has no such field)", unknown[0])
			continue
		}
		s := Spec{Name: name, Description: sd.Description, StripANSI: sd.StripANSI, OnEmpty: sd.OnEmpty, FilterStderr: sd.FilterStderr,
			StripLines: sd.StripLinesMatching, KeepLines: sd.KeepLinesMatching, Source: file, Line: header}
		if sd.MatchCommand == nil {
			bad(0, "match_command is missing")
			continue
		}
		s.MatchCommand = *sd.MatchCommand
		ok := true
		for _, r := range sd.Replace {
			if r.Pattern == nil || r.Replacement == nil {
				bad(loc.key(header, "replace"), "each replace rule needs pattern and replacement")
				ok = false
				break
			}
			s.Replace = append(s.Replace, Replace{*r.Pattern, *r.Replacement})
		}
		for _, m := range sd.MatchOutput {
			if !ok {
				break
			}
			if m.Pattern == nil || m.Message == nil {
				bad(loc.key(header, "match_output"), "each match_output rule needs pattern and message")
				ok = false
				break
			}
			s.MatchOutput = append(s.MatchOutput, MatchOutput{*m.Pattern, *m.Message, m.Unless})
		}
		if !ok {
			continue
		}
		for _, c := range []struct {
			key string
			v   *int64
			dst *int
		}{
			{"truncate_lines_at", sd.TruncateLinesAt, &s.TruncateLinesAt},
			{"head_lines", sd.HeadLines, &s.HeadLines},
			{"tail_lines", sd.TailLines, &s.TailLines},
			{"max_lines", sd.MaxLines, &s.MaxLines},
		} {
			if c.v == nil {
				continue
			}
			if *c.v < 1 || *c.v > 1<<30 {
				bad(loc.key(header, c.key), "%s = %d: want a count from 1", c.key, *c.v)
				ok = false
				break
			}
			*c.dst = int(*c.v)
		}
		if !ok {
			continue
		}
		if key, msg := Check(s); msg != "" {
			bad(loc.key(header, key), "%s", msg)
			continue
		}
		specs = append(specs, s)
	}
	byName := map[string]int{}
	for i, s := range specs {
		byName[s.Name] = i
	}
	tnames := make([]string, 0, len(doc.Tests))
	for n := range doc.Tests {
		tnames = append(tnames, n)
	}
	sort.Strings(tnames)
	for _, name := range tnames {
		i, known := byName[name]
		if !known {
			if _, defined := doc.Filters[name]; !defined {
				problems = append(problems, Problem{File: file, Line: loc.table("tests", name), Msg: fmt.Sprintf("[[tests.%s]] names no filter of this file; tests skipped", name)})
			}
			continue
		}
		for _, p := range doc.Tests[name] {
			var td testDoc
			if err := md.PrimitiveDecode(p, &td); err != nil || td.Input == nil || td.Expected == nil {
				problems = append(problems, Problem{File: file, Line: loc.table("tests", name), Msg: fmt.Sprintf("[[tests.%s]] needs name, input and expected; test skipped", name)})
				continue
			}
			specs[i].Tests = append(specs[i].Tests, Test{td.Name, *td.Input, *td.Expected})
		}
	}
	for _, k := range md.Undecoded() {
		if len(k) >= 3 && k[0] == "tests" {
			problems = append(problems, Problem{File: file, Line: loc.table("tests", k[1]), Msg: fmt.Sprintf("[[tests.%s]]: unknown field %q ignored", k[1], k[len(k)-1])})
		}
	}
	return specs, problems
}

// unknownKeys lists the keys of [filters.name] outside the schema.
func unknownKeys(md toml.MetaData, table, name string) []string {
	var out []string
	for _, k := range md.Keys() {
		if len(k) == 3 && k[0] == table && k[1] == name && !fields()[k[2]] {
			out = append(out, k[2])
		}
		// a key inside replace/match_output entries
		if len(k) == 4 && k[0] == table && k[1] == name && (k[2] == "replace" || k[2] == "match_output") {
			allowed := map[string]bool{"pattern": true, "replacement": k[2] == "replace", "message": k[2] == "match_output", "unless": k[2] == "match_output"}
			if !allowed[k[3]] {
				out = append(out, k[2]+"."+k[3])
			}
		}
	}
	return out
}

// Check validates a Spec's rules the way RTK does: every top-level branch
// of match_command anchored with ^, every regex valid, keep and strip not
// both set. It returns the offending key and a message, or "", "".
func Check(s Spec) (key, msg string) {
	if s.MatchCommand == "" {
		return "match_command", "match_command is empty"
	}
	if _, err := regexp.Compile(s.MatchCommand); err != nil {
		return "match_command", "invalid match_command regex: " + reError(err)
	}
	if !Anchored(s.MatchCommand) {
		return "match_command", fmt.Sprintf("match_command %q has a top-level branch that does not start with '^' (it would match mid-command)", s.MatchCommand)
	}
	if len(s.StripLines) > 0 && len(s.KeepLines) > 0 {
		return "keep_lines_matching", "strip_lines_matching and keep_lines_matching are mutually exclusive"
	}
	for _, r := range s.Replace {
		if _, err := regexp.Compile(r.Pattern); err != nil {
			return "replace", fmt.Sprintf("invalid replace pattern %q: %s", r.Pattern, reError(err))
		}
	}
	for _, m := range s.MatchOutput {
		if _, err := regexp.Compile(m.Pattern); err != nil {
			return "match_output", fmt.Sprintf("invalid match_output pattern %q: %s", m.Pattern, reError(err))
		}
		if m.Unless != "" {
			if _, err := regexp.Compile(m.Unless); err != nil {
				return "match_output", fmt.Sprintf("invalid match_output unless pattern %q: %s", m.Unless, reError(err))
			}
		}
	}
	for _, l := range []struct {
		key string
		res []string
	}{{"strip_lines_matching", s.StripLines}, {"keep_lines_matching", s.KeepLines}} {
		for _, p := range l.res {
			if _, err := regexp.Compile(p); err != nil {
				return l.key, fmt.Sprintf("invalid %s regex %q: %s", l.key, p, reError(err))
			}
		}
	}
	return "", ""
}

func reError(err error) string {
	var se interface{ Error() string } = err
	return strings.TrimPrefix(oneLine(se.Error()), "error parsing regexp: ")
}

// Anchored reports whether every top-level branch of pattern starts with
// ^ (after a leading inline flag group such as (?i)): a filter selects a
// program, and an unanchored branch would match a path or an argument
// anywhere in the line.
func Anchored(pattern string) bool {
	for _, b := range topLevelBranches(pattern) {
		if !strings.HasPrefix(stripInlineFlags(b), "^") {
			return false
		}
	}
	return true
}

func stripInlineFlags(b string) string {
	rest, ok := strings.CutPrefix(b, "(?")
	if !ok {
		return b
	}
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return b
	}
	if strings.Trim(rest[:end], "imsU-") == "" {
		return rest[end+1:]
	}
	return b
}

func topLevelBranches(p string) []string {
	var out []string
	depth, start := 0, 0
	escaped, inClass := false, false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '[' && !inClass:
			inClass = true
		case c == ']' && inClass:
			inClass = false
		case c == '(' && !inClass:
			depth++
		case c == ')' && !inClass && depth > 0:
			depth--
		case c == '|' && !inClass && depth == 0:
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return append(out, p[start:])
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// locator finds the line of a table header or a key, for messages.
type locator struct{ lines []string }

func newLocator(text string) locator { return locator{strings.Split(text, "\n")} }

// table returns the line of [prefix.name] or [[prefix.name]] (name bare or
// quoted), or 0.
func (l locator) table(prefix, name string) int {
	forms := []string{prefix + "." + name, prefix + `."` + name + `"`, prefix + ".'" + name + "'"}
	for i, line := range l.lines {
		t := strings.TrimSpace(line)
		t = strings.TrimPrefix(strings.TrimPrefix(t, "["), "[")
		for _, f := range forms {
			if rest, ok := strings.CutPrefix(t, f); ok && strings.HasPrefix(strings.TrimSpace(rest), "]") {
				return i + 1
			}
		}
	}
	return 0
}

// key returns the line of `key =` at or after line from (1-based; 0 from
// the top), or from itself when not found.
func (l locator) key(from int, key string) int {
	start := max(from-1, 0)
	for i := start; i < len(l.lines); i++ {
		t := strings.TrimSpace(l.lines[i])
		if i > start && strings.HasPrefix(t, "[") && from > 0 && !strings.HasPrefix(t, "[[") && i != start {
			// the next table: the key was not in this one
			if strings.HasPrefix(t, "[filters.") || strings.HasPrefix(t, "[tests.") {
				break
			}
		}
		if rest, ok := strings.CutPrefix(t, key); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
			return i + 1
		}
	}
	return from
}
