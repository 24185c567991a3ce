package install

import (
	"bytes"
	"regexp"
	"strconv"

	"github.com/tailscale/hujson"
)

// jsonc.go reads JSON that may carry comments and trailing commas (settings
// files of Gemini CLI, VS Code and friends) with tailscale/hujson into a
// tree that remembers where every value starts and ends, so that edits are
// byte splices and every byte the installer does not mean to change stays
// where it was. (hujson's own edits, Patch, cannot make the containers
// gotk's entry needs and do not lay an entry out like its neighbours.)

type jkind int

const (
	jObject jkind = iota
	jArray
	jString
	jNumber
	jLiteral
)

// jnode is one parsed value: src[start:end] is its text.
type jnode struct {
	kind       jkind
	start, end int
	members    []jmember // object members or array elements, in order
	str        string    // decoded value of a string
}

// jmember is an object member or an array element.
type jmember struct {
	key   string // decoded key; objects only
	start int    // start of the key (objects) or of the value (arrays)
	val   *jnode
	comma int // offset of the comma that follows, -1 when none
}

// syntaxError is a parse error at a byte offset.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(src []byte, off int) (int, int) {
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

// parseJSONC parses a JSONC document (a leading UTF-8 BOM allowed) into the
// offset tree the splicers use. It returns nil for a document of only whitespace, comments
// and a BOM.
func parseJSONC(src []byte) (*jnode, error) {
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

var huErrAt = regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)

// huErr turns hujson's error into a syntaxError at its byte offset.
func huErr(src []byte, bom int, err error) error {
	m := huErrAt.FindStringSubmatch(err.Error())
	if m == nil {
		return &syntaxError{off: 0, msg: err.Error()}
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	off := bom
	for l := 1; l < line && off < len(src); off++ {
		if src[off] == '\n' {
			l++
		}
	}
	return &syntaxError{off: off + col - 1, msg: m[3]}
}

func fromHu(v *hujson.Value, bom int) *jnode {
	n := &jnode{start: v.StartOffset + bom, end: v.EndOffset + bom}
	switch t := v.Value.(type) {
	case *hujson.Object:
		n.kind = jObject
		for i := range t.Members {
			m := &t.Members[i]
			jm := jmember{key: m.Name.Value.(hujson.Literal).String(), start: m.Name.StartOffset + bom, val: fromHu(&m.Value, bom), comma: -1}
			if i < len(t.Members)-1 || m.Value.AfterExtra != nil {
				jm.comma = m.Value.EndOffset + len(m.Value.AfterExtra) + bom
			}
			n.members = append(n.members, jm)
		}
	case *hujson.Array:
		n.kind = jArray
		for i := range t.Elements {
			e := &t.Elements[i]
			jm := jmember{start: e.StartOffset + bom, val: fromHu(e, bom), comma: -1}
			if i < len(t.Elements)-1 || e.AfterExtra != nil {
				jm.comma = e.EndOffset + len(e.AfterExtra) + bom
			}
			n.members = append(n.members, jm)
		}
	case hujson.Literal:
		switch t.Kind() {
		case '"':
			n.kind, n.str = jString, t.String()
		case '0':
			n.kind = jNumber
		default:
			n.kind = jLiteral
		}
	}
	return n
}

// get returns the last member named key (JSON.parse keeps the last duplicate).
func (n *jnode) get(key string) *jmember {
	if n == nil || n.kind != jObject {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return &n.members[i]
		}
	}
	return nil
}

// getStr returns the string value of member key, or "" and false.
func (n *jnode) getStr(key string) (string, bool) {
	m := n.get(key)
	if m == nil || m.val.kind != jString {
		return "", false
	}
	return m.val.str, true
}
