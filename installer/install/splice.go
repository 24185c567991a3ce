package install

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/jsontree"
)

// splice.go: byte splices and the few layout facts (line ending, indent)
// needed to insert text that looks like the user's own.

// splice replaces src[start:end] with text.
type splice struct {
	start, end int
	text       string
}

// applySplices applies non-overlapping splices to src and returns a new slice.
func applySplices(src []byte, ss []splice) []byte {
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].start < ss[j].start })
	var b bytes.Buffer
	last := 0
	for _, s := range ss {
		b.Write(src[last:s.start])
		b.WriteString(s.text)
		last = s.end
	}
	b.Write(src[last:])
	return b.Bytes()
}

// style is how a file lays out its text.
type style struct {
	nl   string // "\n" or "\r\n"
	unit string // one level of indentation
}

// detectStyle reads the line ending and indentation unit of src. A file
// without indented lines gets two spaces, the most common choice.
func detectStyle(src []byte) style {
	st := style{nl: "\n", unit: "  "}
	if bytes.Contains(src, []byte("\r\n")) {
		st.nl = "\r\n"
	}
	best := ""
	for _, line := range bytes.Split(src, []byte("\n")) {
		ws := leadingSpace(line)
		if len(ws) == 0 || len(ws) == len(bytes.TrimRight(line, "\r")) {
			continue
		}
		if ws[0] == '\t' {
			return style{nl: st.nl, unit: "\t"}
		}
		if best == "" || len(ws) < len(best) {
			best = string(ws)
		}
	}
	if best != "" && len(best) <= 8 && strings.Trim(best, " ") == "" {
		st.unit = best
	}
	return st
}

func leadingSpace(line []byte) []byte {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return line[:i]
}

// lineStart returns the offset of the first byte of the line holding pos.
func lineStart(src []byte, pos int) int {
	return bytes.LastIndexByte(src[:pos], '\n') + 1
}

// lineIndent returns the leading whitespace of the line holding pos.
func lineIndent(src []byte, pos int) string {
	return string(leadingSpace(src[lineStart(src, pos):]))
}

// onOwnLine reports whether only whitespace precedes pos on its line.
func onOwnLine(src []byte, pos int) bool {
	return len(bytes.Trim(src[lineStart(src, pos):pos], " \t")) == 0
}

// wsBefore returns the start of the run of whitespace that ends at pos.
func wsBefore(src []byte, pos int) int {
	for pos > 0 && strings.IndexByte(" \t\r\n", src[pos-1]) >= 0 {
		pos--
	}
	return pos
}

// render writes v as JSON. Pretty output puts each member on its own line,
// indented by prefix plus one unit per level, with nl between lines.
func render(v any, prefix, unit, nl string, compact bool) string {
	var b strings.Builder
	var walk func(v any, prefix string)
	walk = func(v any, prefix string) {
		switch v := v.(type) {
		case agentconf.Obj:
			if len(v) == 0 {
				b.WriteString("{}")
				return
			}
			b.WriteByte('{')
			for i, m := range v {
				if i > 0 {
					b.WriteByte(',')
				}
				if !compact {
					b.WriteString(nl + prefix + unit)
				}
				b.WriteString(quote(m.K))
				b.WriteByte(':')
				if !compact {
					b.WriteByte(' ')
				}
				walk(m.V, prefix+unit)
			}
			if !compact {
				b.WriteString(nl + prefix)
			}
			b.WriteByte('}')
		case []any:
			if len(v) == 0 {
				b.WriteString("[]")
				return
			}
			b.WriteByte('[')
			for i, e := range v {
				if i > 0 {
					b.WriteByte(',')
				}
				if !compact {
					b.WriteString(nl + prefix + unit)
				}
				walk(e, prefix+unit)
			}
			if !compact {
				b.WriteString(nl + prefix)
			}
			b.WriteByte(']')
		case string:
			b.WriteString(quote(v))
		case int:
			b.WriteString(strconv.Itoa(v))
		case bool:
			b.WriteString(strconv.FormatBool(v))
		default:
			panic("render: unsupported type")
		}
	}
	walk(v, prefix)
	return b.String()
}

// quote encodes s as a JSON string without HTML escaping.
func quote(s string) string { return string(jsontree.AppendString(nil, s)) }
