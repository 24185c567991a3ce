// Package jsontree is how gotk reads JSON it must give back byte for byte
// (an agent's tool input, a tool's JSON output): into tailscale/hujson's
// tree, which keeps every member in order and every literal as written.
// The installer edits agents' settings files with the same library.
package jsontree

import (
	"errors"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

// MaxDepth bounds nesting, as encoding/json does: hujson's parser recurses,
// and a megabyte of brackets would take it seconds.
const MaxDepth = 10000

// ErrTooDeep is returned for a value nested deeper than MaxDepth.
var ErrTooDeep = errors.New("JSON nested too deep")

// ErrNotStandard is returned for JSON with comments or trailing commas.
var ErrNotStandard = errors.New("not standard JSON (comments or trailing commas)")

// Parse parses data as exactly one standard JSON value.
func Parse(data []byte) (hujson.Value, error) {
	if tooDeep(data) {
		return hujson.Value{}, ErrTooDeep
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return v, err
	}
	if !v.IsStandard() {
		return v, ErrNotStandard
	}
	return v, nil
}

// tooDeep reports whether brackets outside strings nest past MaxDepth.
func tooDeep(data []byte) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > MaxDepth {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// Raw is the bytes of a value, without the whitespace around it.
func Raw(v hujson.ValueTrimmed) []byte {
	return (&hujson.Value{Value: v}).Pack()
}

// AppendString appends s as a JSON string the way encoding/json writes it
// with HTML escaping off (FuzzAppendString holds it to that). The hooks'
// answers and the runner's journal heads are written with it: the
// encoder's reflection costs a cold process more than the whole answer.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
