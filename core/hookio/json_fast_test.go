package hookio

import (
	"bytes"
	"encoding/json"
	"testing"
)

// encoderString is how encoding/json writes s with HTML escaping off.
func encoderString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

var stringSeeds = []string{"", "git status", `a"b\c`, "tab\there\nnl\r\b\f\x00\x1f\x7f", "<&>", "é漢字🙂", "\u2028\u2029", "bad\xffutf8\xc3", "\xed\xa0\x80"}

// FuzzUnquote: a JSON string literal decodes as encoding/json decodes it,
// and anything else is refused.
func FuzzUnquote(f *testing.F) {
	for _, s := range stringSeeds {
		f.Add(string(encoderString(s)))
		f.Add(`"` + s + `"`)
	}
	f.Add(`"\u00e9\ud83d\ude42"`)
	f.Add(`"\ud800"`)
	f.Fuzz(func(t *testing.T, lit string) {
		var want string
		werr := json.Unmarshal([]byte(lit), &want)
		got, ok := unquote([]byte(lit))
		isString := len(lit) > 1 && lit[0] == '"' && lit[len(lit)-1] == '"' // a literal as the parser hands it: no blanks around
		switch {
		case werr == nil && isString && (!ok || got != want):
			t.Fatalf("%q: %q %v, encoding/json %q", lit, got, ok, want)
		case werr != nil && ok && json.Valid([]byte(lit)):
			t.Fatalf("%q: accepted, encoding/json refuses it: %v", lit, werr)
		}
	})
}

func TestRawMatchesEncoder(t *testing.T) {
	for _, s := range stringSeeds {
		if got, want := Raw(s), encoderString(s); !bytes.Equal(got, want) {
			t.Errorf("Raw(%q) = %s, want %s", s, got, want)
		}
	}
	if got := Raw(json.RawMessage(`{ "a" : [1, 2] }`)); string(got) != `{"a":[1,2]}` {
		t.Errorf("raw message: %s", got)
	}
	if got := Raw(Fields{{"k", json.RawMessage(`"v"`)}}); string(got) != `{"k":"v"}` {
		t.Errorf("fields: %s", got)
	}
	if got := Raw(true); string(got) != "true" {
		t.Errorf("bool: %s", got)
	}
}

// TestReadPayload: the members agents read, their types checked as
// encoding/json into a struct checked them; null is absent; the last of
// duplicates counts; names are matched exactly.
func TestReadPayload(t *testing.T) {
	p, ok := ReadPayload([]byte(`{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/w","permission_mode":null,"x":[1]}`))
	if !ok || p.ToolName != "Bash" || p.Cwd != "/w" || p.PermissionMode != "" || string(p.ToolInput) != `{"command":"ls"}` || len(p.Fields) != 5 {
		t.Errorf("%+v %v", p, ok)
	}
	if p, ok := ReadPayload([]byte(`{"tool_name":"Bash","tool_name":"Edit"}`)); !ok || p.ToolName != "Edit" {
		t.Errorf("duplicates: %+v %v", p, ok)
	}
	if p, ok := ReadPayload([]byte(`{"TOOL_NAME":"Bash"}`)); !ok || p.ToolName != "" {
		t.Errorf("names are exact: %+v %v", p, ok)
	}
	for _, bad := range []string{`{"tool_name":5}`, `{"cwd":["/"]}`, `{"permission_mode":true}`, `[]`, `{"tool_name":"Bash",}`, `{"tool_name":"a\u0000`, ``} {
		if _, ok := ReadPayload([]byte(bad)); ok {
			t.Errorf("%s: accepted", bad)
		}
	}
}
