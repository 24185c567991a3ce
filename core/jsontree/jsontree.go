// Package jsontree is how gotk reads JSON it must give back byte for byte
// (an agent's tool input, a tool's JSON output): into tailscale/hujson's
// tree, which keeps every member in order and every literal as written.
// The installer edits agents' settings files with the same library.
package jsontree

import (
	"errors"

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
