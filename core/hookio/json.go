package hookio

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/gotk-dev/gotk/core/jsontree"
	"github.com/tailscale/hujson"
)

// Fields is a JSON object kept as its members, in order, with raw values:
// an agent's tool input goes back to it with every field and the key order
// it had, only the command replaced.
type Fields []Field

// Field is one member of an object.
type Field struct {
	Key   string
	Value json.RawMessage
}

// ParseFields parses raw as a JSON object (standard JSON: no comments, no
// trailing comma) into core/jsontree, the JSON tree all of gotk parses
// into. ok is false for anything else.
func ParseFields(raw []byte) (f Fields, ok bool) {
	v, err := jsontree.Parse(raw)
	if err != nil {
		return nil, false
	}
	obj, isObj := v.Value.(*hujson.Object)
	if !isObj {
		return nil, false
	}
	f = make(Fields, 0, len(obj.Members))
	for _, m := range obj.Members {
		key, ok := unquote(m.Name.Value.(hujson.Literal))
		if !ok {
			return nil, false
		}
		f = append(f, Field{key, json.RawMessage(jsontree.Raw(m.Value.Value))})
	}
	return f, true
}

// Command returns the shell command stored under key: a non-empty string
// that survived decoding unchanged. Like the agents' own JSON parsers, the
// last of duplicate keys counts. A string holding invalid UTF-8 or a lone
// surrogate decodes to U+FFFD; rewriting it would change the command, so
// it is refused.
func (f Fields) Command(key string) (string, bool) {
	var s string
	found := false
	for _, m := range f {
		if m.Key == key {
			s, found = unquote(m.Value)
		}
	}
	if !found || strings.TrimSpace(s) == "" || !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
		return "", false
	}
	return s, true
}

// With returns a copy of f with every member named key set to the string
// value (appended when missing).
func (f Fields) With(key, value string) Fields {
	v := Raw(value)
	out := make(Fields, 0, len(f)+1)
	found := false
	for _, m := range f {
		if m.Key == key {
			m.Value, found = v, true
		}
		out = append(out, m)
	}
	if !found {
		out = append(out, Field{key, v})
	}
	return out
}

// Get returns the raw value of the member named key (the last of
// duplicates, as the agents' own parsers take it).
func (f Fields) Get(key string) (v json.RawMessage, ok bool) {
	for _, m := range f {
		if m.Key == key {
			v, ok = m.Value, true
		}
	}
	return v, ok
}

// Str returns the string member key, "" when it is absent or null; ok is
// false when it holds anything else (a payload the agent did not send).
func (f Fields) Str(key string) (s string, ok bool) {
	v, found := f.Get(key)
	if !found || string(v) == "null" {
		return "", true
	}
	return unquote(v)
}

// unquote decodes a JSON string literal. One without escapes is its bytes
// (the parser has checked the syntax); others, and invalid UTF-8 (which
// decodes to U+FFFD), go through encoding/json.
func unquote(lit []byte) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	if plainString(body) {
		return string(body), true
	}
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return "", false
	}
	return s, true
}

// plainString: no escape, no control character, valid UTF-8 — the bytes
// of a JSON string literal are then its value.
func plainString(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '\\' || c == '"' {
			return false
		}
	}
	return utf8.Valid(b)
}

// Raw returns v as JSON without HTML escaping.
func Raw(v any) json.RawMessage {
	switch v := v.(type) {
	case string:
		return jsontree.AppendString(nil, v)
	case json.RawMessage:
		var b bytes.Buffer
		if json.Compact(&b, v) != nil {
			return json.RawMessage("null")
		}
		return b.Bytes()
	case Fields:
		b, err := v.MarshalJSON()
		if err != nil {
			return json.RawMessage("null")
		}
		return b
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage("null")
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// MarshalJSON writes the members in order, compactly.
func (f Fields) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range f {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsontree.AppendString(nil, m.Key))
		b.WriteByte(':')
		if err := json.Compact(&b, m.Value); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Object builds an answer from key/value pairs, in order. Values are
// encoded with Raw (a json.RawMessage or Fields is kept as is).
func Object(kv ...any) []byte {
	f := make(Fields, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		key, _ := kv[i].(string)
		f = append(f, Field{key, Raw(kv[i+1])})
	}
	b, err := f.MarshalJSON()
	if err != nil {
		return nil
	}
	return b
}

// ShellInput parses an agent's tool input object and returns its fields and
// the command stored under key. ok is false when the input is not an object
// or holds no usable command.
func ShellInput(raw []byte, key string) (f Fields, command string, ok bool) {
	f, ok = ParseFields(raw)
	if !ok {
		return nil, "", false
	}
	command, ok = f.Command(key)
	return f, command, ok
}

// Payload is what most agents' hook payloads carry: the tool's name and
// input, the working directory and a permission mode.
type Payload struct {
	ToolName, Cwd, PermissionMode string
	ToolInput                     json.RawMessage // the raw value ("" when absent)
	Fields                        Fields          // every member, in order
}

// ReadPayload parses a hook payload: a JSON object whose tool_name, cwd
// and permission_mode, when present and not null, are strings. ok is
// false for anything else (the hook then answers its no-op). It reads the
// members without encoding/json's reflection, which would cost a hook's
// start more than the rest of its answer.
func ReadPayload(in []byte) (p Payload, ok bool) {
	if p.Fields, ok = ParseFields(in); !ok {
		return Payload{}, false
	}
	for _, m := range [...]struct {
		key string
		dst *string
	}{{"tool_name", &p.ToolName}, {"cwd", &p.Cwd}, {"permission_mode", &p.PermissionMode}} {
		if *m.dst, ok = p.Fields.Str(m.key); !ok {
			return Payload{}, false
		}
	}
	p.ToolInput, _ = p.Fields.Get("tool_input")
	return p, true
}
