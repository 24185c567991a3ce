package filter

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
)

func decodeAll(t *testing.T, b []byte) []any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out []any
	for {
		var v any
		err := d.Decode(&v)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("not JSON: %v\n%s", err, b)
		}
		out = append(out, v)
	}
}

// TestJSONSameValue: what jq, gh --json, curl… print is re-encoded to the
// same JSON values (numbers, escapes, key order, a stream of several).
func TestJSONSameValue(t *testing.T) {
	big := `{"items":[` + strings.Repeat(`{"name":"a <b> & \"c\"","n":12345678901234567890,"f":1.50,"deep":{"x":[1,2,{"y":null}]},"u":"\u00e9"},`, 30) + `{"last":true}],"total":31}`
	for _, raw := range []string{
		"{\n  \"a\": 1,\n  \"b\": [\n    true,\n    false\n  ]\n}\n",
		"1\n\"two\"\n{\"three\": 3}\n[4]\n",
		big,
		"[]",
	} {
		in := Input{Argv: []string{"jq", "."}, RanArgv: []string{"jq", "."}, Stdout: []byte(raw), Recall: func() string { return testRecall }}
		out, err := jsonOut{}.Render(in)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(decodeAll(t, []byte(raw)), decodeAll(t, out.Stdout)) {
			t.Errorf("value changed:\n%s\n---\n%s", raw, out.Stdout)
		}
		if len(out.Stdout) > len(raw)+1 {
			t.Errorf("grew: %d > %d", len(out.Stdout), len(raw))
		}
	}
	// not JSON: text, capped with a recall
	in := Input{Argv: []string{"jq", "-r", "."}, Stdout: []byte(strings.Repeat("line\n", 3) + "plain text\n"), Recall: func() string { return testRecall }}
	if out, _ := (jsonOut{}).Render(in); !strings.Contains(string(out.Stdout), "plain text") {
		t.Errorf("text: %q", out.Stdout)
	}
}

// TestCurlMeter: curl's progress meter goes, its errors stay.
func TestCurlMeter(t *testing.T) {
	stderr := "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0\r100    27  100    27    0     0   9000      0 --:--:-- --:--:-- --:--:--  9000\ncurl: (22) The requested URL returned error: 404\n"
	in := Input{Argv: []string{"curl", "-sS", "u"}, Stdout: []byte(`{"ok":false}`), Stderr: []byte(stderr), Recall: func() string { return testRecall }}
	out, _ := curlOut{}.Render(in)
	if string(out.Stderr) != "curl: (22) The requested URL returned error: 404\n" || string(out.Stdout) != "{\"ok\":false}\n" {
		t.Errorf("%q %q", out.Stdout, out.Stderr)
	}
}

// TestJSONCorpusSameValue: every corpus case rendered by the JSON
// handlers prints the same JSON values the command printed.
func TestJSONCorpusSameValue(t *testing.T) {
	for _, c := range loadCorpus(t) {
		if h := c.match.Rule.Handler; h != "json" && h != "curl" {
			continue
		}
		if _, ok := rewriteJSON(c.stdout); !ok {
			continue
		}
		out, err := Render(For(c.match.Rule.Handler), c.input())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !reflect.DeepEqual(decodeAll(t, c.stdout), decodeAll(t, out.Stdout)) {
			t.Errorf("%s: the JSON value changed", c.name)
		}
	}
}
