package agentconf

import (
	"bytes"
	"errors"
	"strings"

	"github.com/BurntSushi/toml"
)

// toml.go: Vibe's hooks.toml may hold its hooks as an inline array
// (`hooks = [ { name = "rtk", … } ]`), which no [[hooks]] table can follow;
// gotk's hook then goes into the array itself. The scanner below only finds
// where the top-level array and its elements are, in a document that
// BurntSushi/toml has already accepted.

// Span is a byte range src[start:end].
type Span struct{ Start, End int }

// TOMLArray is a top-level inline array: its brackets, each element and
// the comma after each element (-1 when none).
type TOMLArray struct {
	Open, Close int
	Elems       []Span
	Commas      []int
}

// Multiline reports whether the array spans several lines.
func (a *TOMLArray) Multiline(src []byte) bool {
	return bytes.IndexByte(src[a.Open:a.Close], '\n') >= 0
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
func (t *tscan) value() (Span, error) {
	start := t.pos
	switch c := t.peek(); c {
	case '"', '\'':
		if err := t.str(); err != nil {
			return Span{}, err
		}
	case '[':
		if _, err := t.array(); err != nil {
			return Span{}, err
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
				return Span{}, err
			}
			t.blank()
			if t.peek() != '=' {
				return Span{}, errTOMLScan
			}
			t.pos++
			t.blank()
			if _, err := t.value(); err != nil {
				return Span{}, err
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
			return Span{}, errTOMLScan
		}
		return Span{start, end}, nil
	}
	return Span{start, t.pos}, nil
}

// array reads an array, the '[' at pos.
func (t *tscan) array() (*TOMLArray, error) {
	a := &TOMLArray{Open: t.pos}
	t.pos++
	for {
		t.space()
		if t.eof() {
			return nil, errTOMLScan
		}
		if t.peek() == ']' {
			a.Close = t.pos
			t.pos++
			return a, nil
		}
		v, err := t.value()
		if err != nil {
			return nil, err
		}
		a.Elems = append(a.Elems, v)
		a.Commas = append(a.Commas, -1)
		t.space()
		if t.peek() == ',' {
			a.Commas[len(a.Commas)-1] = t.pos
			t.pos++
		}
	}
}

// FindTopArray returns the inline array assigned to the top-level key
// name, or nil when the top-level table has no such key. It stops at the
// first table header, where the top-level table ends.
func FindTopArray(src []byte, name string) (*TOMLArray, error) {
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

// InlineUndo records gotk's element in an inline array: its text and the
// line break and indentation before it, and whether a comma was added after
// the element before it.
type InlineUndo struct {
	Lead       string `json:"lead"`
	Entry      string `json:"entry"`
	AddedComma bool   `json:"addedComma,omitempty"`
}
