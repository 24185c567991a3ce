package agentconf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tailscale/hujson"
)

// json.go reads JSON that may carry comments and trailing commas (settings
// files of Gemini CLI, VS Code and friends), with tailscale/hujson, into a
// tree that remembers where every value starts and ends, so that edits can
// be byte splices and every byte an edit does not mean to change stays
// where it was. (hujson's own edits, Patch, cannot make the containers
// gotk's entry needs and do not lay an entry out like its neighbours.)

// JKind is the kind of a JSON value.
type JKind int

// The kinds of JSON values.
const (
	JObject JKind = iota
	JArray
	JString
	JNumber
	JLiteral
)

// Node is one parsed value: src[Start:End] is its text.
type Node struct {
	Kind       JKind
	Start, End int
	Members    []Member // object members or array elements, in order
	Str        string   // decoded value of a string
}

// Member is an object member or an array element.
type Member struct {
	Key   string // decoded key; objects only
	Start int    // start of the key (objects) or of the value (arrays)
	Val   *Node
	Comma int // offset of the comma that follows, -1 when none
}

// SyntaxError is a parse error at a byte offset.
type SyntaxError struct {
	Off int
	Msg string
}

func (e *SyntaxError) Error() string { return e.Msg }

// LineCol turns a byte offset into a 1-based line and column.
func LineCol(src []byte, off int) (int, int) {
	line, col := 1, 1
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// ParseJSONC parses a JSONC document (a leading UTF-8 BOM allowed). It
// returns nil for a document of only whitespace, comments and a BOM.
func ParseJSONC(src []byte) (*Node, error) {
	bom := 0
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		bom = 3
	}
	v, err := hujson.Parse(src[bom:])
	if err != nil {
		// Only whitespace and comments: a value put after them parses.
		if w, err2 := hujson.Parse(append(append([]byte{}, src[bom:]...), "\n0"...)); err2 == nil && w.StartOffset == len(src)-bom+1 {
			return nil, nil
		}
		return nil, huErr(src, bom, err)
	}
	return fromHu(&v, bom), nil
}

var huErrAt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`) })

// huErr turns hujson's error into a SyntaxError at its byte offset.
func huErr(src []byte, bom int, err error) error {
	m := huErrAt().FindStringSubmatch(err.Error())
	if m == nil {
		return &SyntaxError{Off: 0, Msg: err.Error()}
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	off := bom
	for l := 1; l < line && off < len(src); off++ {
		if src[off] == '\n' {
			l++
		}
	}
	return &SyntaxError{Off: off + col - 1, Msg: m[3]}
}

func fromHu(v *hujson.Value, bom int) *Node {
	n := &Node{Start: v.StartOffset + bom, End: v.EndOffset + bom}
	switch t := v.Value.(type) {
	case *hujson.Object:
		n.Kind = JObject
		for i := range t.Members {
			m := &t.Members[i]
			jm := Member{Key: m.Name.Value.(hujson.Literal).String(), Start: m.Name.StartOffset + bom, Val: fromHu(&m.Value, bom), Comma: -1}
			if i < len(t.Members)-1 || m.Value.AfterExtra != nil {
				jm.Comma = m.Value.EndOffset + len(m.Value.AfterExtra) + bom
			}
			n.Members = append(n.Members, jm)
		}
	case *hujson.Array:
		n.Kind = JArray
		for i := range t.Elements {
			e := &t.Elements[i]
			jm := Member{Start: e.StartOffset + bom, Val: fromHu(e, bom), Comma: -1}
			if i < len(t.Elements)-1 || e.AfterExtra != nil {
				jm.Comma = e.EndOffset + len(e.AfterExtra) + bom
			}
			n.Members = append(n.Members, jm)
		}
	case hujson.Literal:
		switch t.Kind() {
		case '"':
			n.Kind, n.Str = JString, t.String()
		case '0':
			n.Kind = JNumber
		default:
			n.Kind = JLiteral
		}
	}
	return n
}

// Get returns the last member named key (JSON.parse keeps the last
// duplicate), or nil.
func (n *Node) Get(key string) *Member {
	if n == nil || n.Kind != JObject {
		return nil
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return &n.Members[i]
		}
	}
	return nil
}

// GetStr returns the string value of member key, or "" and false.
func (n *Node) GetStr(key string) (string, bool) {
	m := n.Get(key)
	if m == nil || m.Val.Kind != JString {
		return "", false
	}
	return m.Val.Str, true
}

// ErrAt formats a parse or shape error with its line and column.
func ErrAt(src []byte, off int, what string) error {
	l, c := LineCol(src, off)
	return fmt.Errorf("%s, line %d:%d", what, l, c)
}

// LoadRoot parses src and checks that it holds an object (or nothing).
func LoadRoot(src []byte) (*Node, error) {
	root, err := ParseJSONC(src)
	if err != nil {
		if se, ok := err.(*SyntaxError); ok {
			return nil, ErrAt(src, se.Off, "invalid JSON: "+se.Msg)
		}
		return nil, err
	}
	if root != nil && root.Kind != JObject {
		return nil, ErrAt(src, root.Start, "the top-level value is not an object")
	}
	return root, nil
}

// Walk returns the node at path, or nil. A node of the wrong kind on the
// way is an error naming where it is.
func Walk(src []byte, root *Node, path []string, last JKind) (*Node, error) {
	n := root
	for i, k := range path {
		m := n.Get(k)
		if m == nil {
			return nil, nil
		}
		want := JObject
		if i == len(path)-1 {
			want = last
		}
		if m.Val.Kind != want {
			kind := "an object"
			if want == JArray {
				kind = "an array"
			}
			return nil, ErrAt(src, m.Val.Start, fmt.Sprintf("%s is not %s", strings.Join(path[:i+1], "."), kind))
		}
		n = m.Val
	}
	return n, nil
}

// How agents read their JSON files (Part.Syntax).
const (
	SyntaxJSON         = "json"          // plain JSON: no comment, no trailing comma
	SyntaxJSONComments = "json+comments" // comments allowed, no trailing comma
)

// AgentReads checks src the way an agent with syntax reads it; the error
// names what it cannot read and where. A leading BOM is not held against
// the file.
func AgentReads(syntax string, src []byte) error {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	switch syntax {
	case SyntaxJSON:
		var v any
		err := json.Unmarshal(src, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return ErrAt(src, int(se.Offset)-1, "not plain JSON ("+se.Error()+")")
		}
		return err
	case SyntaxJSONComments:
		v, err := hujson.Parse(src)
		if err != nil {
			return huErr(src, 0, err)
		}
		first := -1
		for n := range v.All() {
			if off, ok := trailingComma(n); ok && (first < 0 || off < first) {
				first = off
			}
		}
		if first >= 0 {
			return ErrAt(src, first, "a trailing comma")
		}
	}
	return nil
}

// trailingComma returns the offset of the comma after the last member of a
// composite value, if it has one.
func trailingComma(v *hujson.Value) (int, bool) {
	var last *hujson.Value
	switch t := v.Value.(type) {
	case *hujson.Object:
		if n := len(t.Members); n > 0 {
			last = &t.Members[n-1].Value
		}
	case *hujson.Array:
		if n := len(t.Elements); n > 0 {
			last = &t.Elements[n-1]
		}
	}
	if last == nil || last.AfterExtra == nil {
		return 0, false
	}
	return last.EndOffset + len(last.AfterExtra), true
}
