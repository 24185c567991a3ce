package filter

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var sharedNote = regexp.MustCompile(`^\s*\(each of the (\d+) objects below also has: (\{.*\})\)$`)

// The shared-field note loses nothing: each instance of the real
// describe-instances output, rebuilt from its line plus the note, equals
// the instance the AWS CLI printed.
func TestSharedFieldsRoundTrip(t *testing.T) {
	raw, err := os.ReadFile("testdata/aws-ec2-describe/stdout")
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Reservations []struct{ Instances []map[string]any }
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := shallowIndent(&b, raw, 4); err != nil {
		t.Fatal(err)
	}
	var got [][]map[string]any
	var shared map[string]any
	notes := 0
	for _, l := range strings.Split(b.String(), "\n") {
		switch t1 := strings.TrimSpace(l); {
		case sharedNote.MatchString(l):
			notes++
			shared = map[string]any{}
			if err := json.Unmarshal([]byte(sharedNote.FindStringSubmatch(l)[2]), &shared); err != nil {
				t.Fatalf("note is not JSON: %v", err)
			}
			got = append(got, nil)
		case strings.HasPrefix(t1, `{"`) && shared != nil:
			var inst map[string]any
			if err := json.Unmarshal([]byte(strings.TrimSuffix(t1, ",")), &inst); err != nil {
				t.Fatalf("element is not JSON: %v", err)
			}
			for k, v := range shared {
				if _, clash := inst[k]; clash {
					t.Errorf("field %s both shared and in the element", k)
				}
				inst[k] = v
			}
			got[len(got)-1] = append(got[len(got)-1], inst)
		}
	}
	if notes != 2 {
		t.Fatalf("want a note above each reservation's instances, got %d:\n%s", notes, b.String())
	}
	for r, res := range want.Reservations {
		if !reflect.DeepEqual(got[r], res.Instances) {
			t.Errorf("reservation %d: rebuilt instances differ from the raw ones", r)
		}
	}
}

// Key order survives, small or total overlaps are not folded.
func TestSharedFieldsWhenWorthIt(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"order kept", `{"z":1,"a":[1,2],"m":{"y":2,"b":3}}`, "{\n  \"z\": 1,\n  \"a\": [\n    1,\n    2\n  ],\n  \"m\": {\n    \"y\": 2,\n    \"b\": 3\n  }\n}\n"},
		{"small overlap", `[{"a":1,"b":2},{"a":1,"b":3}]`, "[\n  {\n    \"a\": 1,\n    \"b\": 2\n  },\n  {\n    \"a\": 1,\n    \"b\": 3\n  }\n]\n"},
		{"identical objects", `[{"a":"` + strings.Repeat("x", 200) + `"},{"a":"` + strings.Repeat("x", 200) + `"}]`, ""},
	} {
		var b bytes.Buffer
		if err := shallowIndent(&b, []byte(tc.in), 4); err != nil {
			t.Fatal(err)
		}
		if tc.want != "" && b.String() != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, b.String(), tc.want)
		}
		if strings.Contains(b.String(), "also has") && tc.name != "order kept" {
			t.Errorf("%s: folded: %s", tc.name, b.String())
		}
	}
	if err := shallowIndent(&bytes.Buffer{}, []byte(`{"a":1} x`), 4); err == nil {
		t.Error("trailing data accepted")
	}
}

// Every literal keeps the bytes the tool printed: escapes stay escapes,
// numbers keep their spelling (the tree is hujson's, not re-encoded).
func TestJSONLiteralsKeepTheirBytes(t *testing.T) {
	in := `{"name":"caf\u00e9 <b>","n":1.50E3,"big":12345678901234567890,"list":[{"k":"\/x","v":true},{"k":"y","v":null}]}`
	var b bytes.Buffer
	if err := shallowIndent(&b, []byte(in), 1); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"caf\u00e9 <b>"`, `1.50E3`, `12345678901234567890`, `"\/x"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s lost from:\n%s", want, b.String())
		}
	}
	if err := shallowIndent(&b, []byte(`{"a":1,}`), 1); err == nil {
		t.Error("a trailing comma (not JSON) was accepted")
	}
	if err := shallowIndent(&b, []byte(`{"a":1} {"b":2}`), 1); err == nil {
		t.Error("trailing data was accepted")
	}
}
