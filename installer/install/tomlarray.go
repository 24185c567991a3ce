package install

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// tomlarray.go: Vibe's hooks.toml may hold its hooks as an inline array
// (`hooks = [ { name = "rtk", … } ]`), which no [[hooks]] table can follow.
// gotk's hook then goes into the array itself, spliced in beside the
// user's entries, and comes out again byte for byte. The scanner below only
// finds where the top-level `hooks` array and its elements are; the
// document has already been parsed by BurntSushi/toml, which is the judge of
// validity.

// span is a byte range src[start:end].
type span struct{ start, end int }

// tomlArray is a top-level inline array: its brackets, each element and
// the comma after each element (-1 when none).
type tomlArray struct {
	open, close int
	elems       []span
	commas      []int
}

// multiline reports whether the array spans several lines.
func (a *tomlArray) multiline(src []byte) bool {
	return bytes.IndexByte(src[a.open:a.close], '\n') >= 0
}

// tscan walks TOML text that is known to be valid.
type tscan struct {
	src []byte
	pos int
}

var errTOMLScan = errors.New("unexpected TOML form")

func (t *tscan) eof() bool { return t.pos >= len(t.src) }
func (t *tscan) peek() byte {
	if t.eof() {
		return 0
	}
	return t.src[t.pos]
}

// blank skips spaces and tabs.
func (t *tscan) blank() {
	for !t.eof() && (t.src[t.pos] == ' ' || t.src[t.pos] == '\t') {
		t.pos++
	}
}

// space skips whitespace, line ends and comments.
func (t *tscan) space() {
	for !t.eof() {
		switch t.src[t.pos] {
		case ' ', '\t', '\r', '\n':
			t.pos++
		case '#':
			t.comment()
		default:
			return
		}
	}
}

func (t *tscan) comment() {
	for !t.eof() && t.src[t.pos] != '\n' {
		t.pos++
	}
}

// str skips a string of any of the four kinds, the quote at pos.
func (t *tscan) str() error {
	q := t.src[t.pos]
	if bytes.HasPrefix(t.src[t.pos:], []byte{q, q, q}) {
		t.pos += 3
		for !t.eof() {
			switch {
			case q == '"' && t.src[t.pos] == '\\':
				t.pos += 2
			case bytes.HasPrefix(t.src[t.pos:], []byte{q, q, q}):
				t.pos += 3
				// Up to two more quotes belong to the content.
				for i := 0; i < 2 && t.peek() == q; i++ {
					t.pos++
				}
				return nil
			default:
				t.pos++
			}
		}
		return errTOMLScan
	}
	t.pos++
	for !t.eof() && t.src[t.pos] != '\n' {
		switch {
		case q == '"' && t.src[t.pos] == '\\':
			t.pos += 2
		case t.src[t.pos] == q:
			t.pos++
			return nil
		default:
			t.pos++
		}
	}
	return errTOMLScan
}

// key reads a dotted key and returns its parts, decoded.
func (t *tscan) key() ([]string, error) {
	var parts []string
	for {
		t.blank()
		start := t.pos
		switch c := t.peek(); {
		case c == '"' || c == '\'':
			if err := t.str(); err != nil {
				return nil, err
			}
			var v map[string]string
			if _, err := toml.Decode("k = "+string(t.src[start:t.pos]), &v); err != nil {
				return nil, errTOMLScan
			}
			parts = append(parts, v["k"])
		default:
			for !t.eof() && isBareKey(t.src[t.pos]) {
				t.pos++
			}
			if t.pos == start {
				return nil, errTOMLScan
			}
			parts = append(parts, string(t.src[start:t.pos]))
		}
		t.blank()
		if t.peek() != '.' {
			return parts, nil
		}
		t.pos++
	}
}

func isBareKey(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value skips one value and returns where it is.
func (t *tscan) value() (span, error) {
	start := t.pos
	switch c := t.peek(); c {
	case '"', '\'':
		if err := t.str(); err != nil {
			return span{}, err
		}
	case '[':
		if _, err := t.array(); err != nil {
			return span{}, err
		}
	case '{':
		t.pos++
		for {
			t.space()
			if t.peek() == '}' {
				t.pos++
				break
			}
			if _, err := t.key(); err != nil {
				return span{}, err
			}
			t.blank()
			if t.peek() != '=' {
				return span{}, errTOMLScan
			}
			t.pos++
			t.blank()
			if _, err := t.value(); err != nil {
				return span{}, err
			}
			t.space()
			if t.peek() == ',' {
				t.pos++
			}
		}
	default:
		// A number, boolean or date: up to a separator (a date may hold a
		// space: 1979-05-27 07:32:00).
		for !t.eof() && !strings.ContainsRune(",]}#\r\n", rune(t.src[t.pos])) {
			t.pos++
		}
		end := t.pos
		for end > start && (t.src[end-1] == ' ' || t.src[end-1] == '\t') {
			end--
		}
		if end == start {
			return span{}, errTOMLScan
		}
		return span{start, end}, nil
	}
	return span{start, t.pos}, nil
}

// array reads an array, the '[' at pos.
func (t *tscan) array() (*tomlArray, error) {
	a := &tomlArray{open: t.pos}
	t.pos++
	for {
		t.space()
		if t.eof() {
			return nil, errTOMLScan
		}
		if t.peek() == ']' {
			a.close = t.pos
			t.pos++
			return a, nil
		}
		v, err := t.value()
		if err != nil {
			return nil, err
		}
		a.elems = append(a.elems, v)
		a.commas = append(a.commas, -1)
		t.space()
		if t.peek() == ',' {
			a.commas[len(a.commas)-1] = t.pos
			t.pos++
		}
	}
}

// findTopArray returns the inline array assigned to the top-level key
// name, or nil when the top-level table has no such key. It stops at the
// first table header, where the top-level table ends.
func findTopArray(src []byte, name string) (*tomlArray, error) {
	t := &tscan{src: src}
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		t.pos = 3
	}
	for {
		t.space()
		if t.eof() || t.peek() == '[' {
			return nil, nil
		}
		k, err := t.key()
		if err != nil {
			return nil, err
		}
		t.blank()
		if t.peek() != '=' {
			return nil, errTOMLScan
		}
		t.pos++
		t.blank()
		if len(k) == 1 && k[0] == name {
			if t.peek() != '[' {
				return nil, nil
			}
			return t.array()
		}
		if _, err := t.value(); err != nil {
			return nil, err
		}
	}
}

// inlineUndo records gotk's element in an inline array: its text and the
// line break and indentation before it, and whether a comma was added after
// the element before it.
type inlineUndo struct {
	Lead       string `json:"lead"`
	Entry      string `json:"entry"`
	AddedComma bool   `json:"addedComma,omitempty"`
}

// lineEnd returns the offset of the line break that ends the line holding
// pos (before a CR), or len(src).
func lineEnd(src []byte, pos int) int {
	i := bytes.IndexByte(src[pos:], '\n')
	if i < 0 {
		return len(src)
	}
	end := pos + i
	if end > 0 && src[end-1] == '\r' {
		end--
	}
	return end
}

// insertInline adds entry as the last element of a, laid out like the
// others: on its own line in a multi-line array, after ", " in a one-line
// one.
func insertInline(src []byte, a *tomlArray, entry string) ([]byte, *inlineUndo) {
	u := &inlineUndo{Entry: entry}
	nl := detectStyle(src).nl
	ml := a.multiline(src)
	var ss []splice
	at := a.open + 1
	switch n := len(a.elems); {
	case n == 0 && ml:
		u.Lead = nl + lineIndent(src, a.open) + detectStyle(src).unit
	case n == 0:
	default:
		last := a.elems[n-1]
		comma := a.commas[n-1]
		if comma < 0 {
			ss = append(ss, splice{last.end, last.end, ","})
			u.AddedComma = true
			comma = last.end
		}
		if ml {
			// After the comment that may end the last element's line.
			at = lineEnd(src, comma)
			u.Lead = nl + lineIndent(src, last.start)
		} else {
			at = comma + 1
			u.Lead = " "
			if u.AddedComma {
				at = last.end
			}
		}
	}
	ss = append(ss, splice{at, at, u.Lead + u.Entry})
	return applySplices(src, ss), u
}

// removeInline takes out what insertInline added. ok is false when gotk's
// element is no longer there as it was written.
func removeInline(src []byte, u *inlineUndo) ([]byte, bool) {
	text := []byte(u.Lead + u.Entry)
	if bytes.Count(src, text) != 1 {
		return src, false
	}
	i := bytes.Index(src, text)
	out := applySplices(src, []splice{{i, i + len(text), ""}})
	if !u.AddedComma {
		return out, true
	}
	a, err := findTopArray(out, "hooks")
	if err != nil || a == nil || len(a.elems) == 0 {
		return src, false
	}
	n := len(a.elems)
	if c := a.commas[n-1]; c == a.elems[n-1].end {
		out = applySplices(out, []splice{{c, c + 1, ""}})
	}
	return out, true
}

// vibeHooks decodes the hooks of a hooks.toml and the rest of it.
func vibeHooks(b []byte) ([]map[string]any, map[string]any, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return nil, nil, err
	}
	var hooks []map[string]any
	switch hs := doc["hooks"].(type) {
	case []map[string]any:
		hooks = hs
	case []any:
		for _, h := range hs {
			m, _ := h.(map[string]any)
			hooks = append(hooks, m)
		}
	}
	delete(doc, "hooks")
	return hooks, doc, nil
}

// sameWithout checks that after is before plus exactly gotk's hook: every
// other hook and key decodes the same.
func sameWithout(before, after []byte) error {
	bh, brest, err := vibeHooks(before)
	if err != nil {
		return tomlErr(err)
	}
	ah, arest, err := vibeHooks(after)
	if err != nil {
		return fmt.Errorf("gotk's hook cannot be added to this file's form (%v); add it by hand", tomlErr(err))
	}
	var others []map[string]any
	for _, h := range ah {
		if h["name"] != "gotk" {
			others = append(others, h)
		}
	}
	if len(ah) != len(bh)+1 || !reflect.DeepEqual(others, bh) && !(len(others) == 0 && len(bh) == 0) || !reflect.DeepEqual(arest, brest) {
		return errors.New("gotk's hook cannot be added to this file's form without changing other entries; add it by hand")
	}
	return nil
}
