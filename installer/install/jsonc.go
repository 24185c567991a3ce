package install

import (
	"encoding/json"
	"fmt"
)

// jsonc.go reads JSON that may carry comments and trailing commas (settings
// files of Gemini CLI, VS Code and friends) into a tree that remembers where
// every value starts and ends, so that edits are byte splices and every byte
// the installer does not mean to change stays where it was.

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

const maxDepth = 512

type jparser struct {
	src   []byte
	pos   int
	depth int
}

// parseJSONC parses a whole document. It returns the root value, or nil for a
// document that holds only whitespace, comments and an optional BOM.
func parseJSONC(src []byte) (*jnode, error) {
	p := &jparser{src: src}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		p.pos = 3
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos == len(src) {
		return nil, nil
	}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos != len(src) {
		return nil, p.errf("unexpected %s after the top-level value", p.what())
	}
	return n, nil
}

func (p *jparser) errf(format string, a ...any) error {
	return &syntaxError{off: p.pos, msg: fmt.Sprintf(format, a...)}
}

func (p *jparser) what() string {
	if p.pos >= len(p.src) {
		return "end of file"
	}
	c := p.src[p.pos]
	if c < 0x20 || c >= 0x7f {
		return fmt.Sprintf("byte 0x%02x", c)
	}
	return fmt.Sprintf("%q", string(c))
}

// space skips whitespace and comments.
func (p *jparser) space() error {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '*':
			start := p.pos
			p.pos += 2
			for {
				if p.pos+1 >= len(p.src) {
					p.pos = start
					return p.errf("unterminated /* comment")
				}
				if p.src[p.pos] == '*' && p.src[p.pos+1] == '/' {
					p.pos += 2
					break
				}
				p.pos++
			}
		default:
			return nil
		}
	}
	return nil
}

func (p *jparser) value() (*jnode, error) {
	if p.pos >= len(p.src) {
		return nil, p.errf("unexpected end of file, expected a value")
	}
	switch c := p.src[p.pos]; {
	case c == '{' || c == '[':
		return p.container(c)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if len(p.src)-p.pos >= len(lit) && string(p.src[p.pos:p.pos+len(lit)]) == lit {
				n := &jnode{kind: jLiteral, start: p.pos, end: p.pos + len(lit)}
				p.pos += len(lit)
				return n, nil
			}
		}
	}
	return nil, p.errf("unexpected %s, expected a value", p.what())
}

func (p *jparser) container(open byte) (*jnode, error) {
	p.depth++
	if p.depth > maxDepth {
		return nil, p.errf("nesting deeper than %d levels", maxDepth)
	}
	defer func() { p.depth-- }()
	closer, kind := byte('}'), jObject
	if open == '[' {
		closer, kind = ']', jArray
	}
	n := &jnode{kind: kind, start: p.pos}
	p.pos++
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos < len(p.src) && p.src[p.pos] == closer {
			p.pos++
			n.end = p.pos
			return n, nil
		}
		if len(n.members) > 0 && n.members[len(n.members)-1].comma < 0 {
			return nil, p.errf("unexpected %s, expected ',' or '%c'", p.what(), closer)
		}
		m := jmember{start: p.pos, comma: -1}
		if kind == jObject {
			if p.pos >= len(p.src) || p.src[p.pos] != '"' {
				return nil, p.errf("unexpected %s, expected a member name or '}'", p.what())
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			m.key = k.str
			if err := p.space(); err != nil {
				return nil, err
			}
			if p.pos >= len(p.src) || p.src[p.pos] != ':' {
				return nil, p.errf("unexpected %s, expected ':'", p.what())
			}
			p.pos++
			if err := p.space(); err != nil {
				return nil, err
			}
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m.val = v
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			m.comma = p.pos
			p.pos++
		}
		n.members = append(n.members, m)
		if p.pos >= len(p.src) {
			return nil, p.errf("unexpected end of file, expected '%c'", closer)
		}
	}
}

func (p *jparser) str() (*jnode, error) {
	start := p.pos
	p.pos++
	plain := true
	for {
		if p.pos >= len(p.src) {
			p.pos = start
			return nil, p.errf("unterminated string")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			n := &jnode{kind: jString, start: start, end: p.pos}
			if plain {
				n.str = string(p.src[start+1 : p.pos-1])
			} else if err := json.Unmarshal(p.src[start:p.pos], &n.str); err != nil {
				p.pos = start
				return nil, p.errf("invalid string")
			}
			return n, nil
		case c == '\\':
			plain = false
			if p.pos+1 >= len(p.src) {
				return nil, p.errf("unterminated string")
			}
			switch p.src[p.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos += 2
			case 'u':
				if p.pos+6 > len(p.src) || !isHex4(p.src[p.pos+2:p.pos+6]) {
					return nil, p.errf("invalid \\u escape in string")
				}
				p.pos += 6
			default:
				return nil, p.errf("invalid escape in string")
			}
		case c < 0x20:
			return nil, p.errf("control character %s in string", p.what())
		default:
			if c >= 0x80 {
				plain = false
			}
			p.pos++
		}
	}
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func (p *jparser) number() (*jnode, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.src[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.src) && p.src[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return nil, p.errf("invalid number")
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.errf("invalid number")
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.errf("invalid number")
		}
	}
	return &jnode{kind: jNumber, start: start, end: p.pos}, nil
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
