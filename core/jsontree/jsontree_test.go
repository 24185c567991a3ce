package jsontree

import (
	"strings"
	"testing"
	"time"

	"github.com/tailscale/hujson"
)

func TestParse(t *testing.T) {
	v, err := Parse([]byte(` {"b":"\u00e9<","a":[1.50E3, null]} `))
	if err != nil {
		t.Fatal(err)
	}
	obj := v.Value.(*hujson.Object)
	if len(obj.Members) != 2 || string(Raw(obj.Members[0].Value.Value)) != `"\u00e9<"` || string(Raw(obj.Members[1].Value.Value)) != `[1.50E3, null]` {
		t.Errorf("members = %+v", obj.Members)
	}
	for _, bad := range []string{`{"a":1,}`, `{"a":1 /* c */}`, `{"a":1} 2`, `{`, ``} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// A megabyte of brackets is refused at once (hujson alone takes seconds);
// brackets inside strings do not count; MaxDepth itself is fine.
func TestDepth(t *testing.T) {
	deep := strings.Repeat("[", 500000) + strings.Repeat("]", 500000)
	t0 := time.Now()
	if _, err := Parse([]byte(deep)); err != ErrTooDeep {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("refusing took %v", d)
	}
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Parse([]byte(ok)); err != nil {
		t.Errorf("depth %d: %v", MaxDepth, err)
	}
	str := `["` + strings.Repeat("[", 3*MaxDepth) + `\"{"]`
	if _, err := Parse([]byte(str)); err != nil {
		t.Errorf("brackets in a string: %v", err)
	}
}
