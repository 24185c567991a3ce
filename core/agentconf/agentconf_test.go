package agentconf

import (
	"strings"
	"testing"
)

// TestAgentReads: what each agent's own reader refuses, with the line.
func TestAgentReads(t *testing.T) {
	for _, c := range []struct {
		syntax, src, want string
	}{
		{SyntaxJSON, "{\"a\": 1}\n", ""},
		{SyntaxJSON, "\uFEFF{\"a\": 1}\n", ""},
		{SyntaxJSON, "{\n  // note\n  \"a\": 1\n}\n", "not plain JSON (invalid character '/' looking for beginning of object key string), line 2:3"},
		{SyntaxJSON, "{\n  \"a\": [1,],\n}\n", "line 2:11"},
		{SyntaxJSONComments, "{\n  // note\n  \"a\": 1 /* x */\n}\n", ""},
		{SyntaxJSONComments, "{\n  \"a\": [1, 2],\n  \"b\": {\"c\": 1,}\n}\n", "a trailing comma, line 3:15"},
		{SyntaxJSONComments, "{\"a\": 1,}", "a trailing comma, line 1:8"},
		{"", "{\"a\": 1,} // anything", ""},
	} {
		err := AgentReads(c.syntax, []byte(c.src))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %q: %v", c.syntax, c.src, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %q: got %v, want %q", c.syntax, c.src, err, c.want)
		}
	}
}

// TestFindTopArray: the top-level hooks array in every form Vibe accepts,
// and none where the top-level table has no such key.
func TestFindTopArray(t *testing.T) {
	for src, want := range map[string]int{
		`hooks = [ { name = "a" }, { name = "b" } ]`:                 2,
		"\"hooks\" = [] # none\n[x]\nhooks = [1]\n":                  0,
		"a.b = 'x'\nhooks = [\n  # c, ]\n  {x = \"]\"},\n]\n":        1,
		"s = \"\"\"\nhooks = [1]\n\"\"\"\n[[hooks]]\nname = \"a\"\n": -1,
		"[[hooks]]\nname = \"a\"\n":                                  -1,
		"d = 1979-05-27 07:32:00Z\nhooks = [{t = 1979-05-27}]\n":     1,
	} {
		a, err := FindTopArray([]byte(src), "hooks")
		switch {
		case err != nil:
			t.Errorf("%q: %v", src, err)
		case want < 0 && a != nil:
			t.Errorf("%q: found an array", src)
		case want >= 0 && (a == nil || len(a.Elems) != want):
			t.Errorf("%q: got %+v, want %d elements", src, a, want)
		}
	}
}
