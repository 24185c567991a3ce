package filter

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gotk-dev/gotk/core/jsontree"
	"github.com/tailscale/hujson"
)

// jnode is the renderers' view of one JSON value, with its object keys in
// document order (a Go map would sort them, and the order is part of what
// the tool printed).
type jnode struct {
	delim byte     // '{' or '[' for a container, 0 for a scalar
	keys  [][]byte // an object's keys, JSON-encoded
	kids  []*jnode // an object's values or an array's elements
	raw   []byte   // a scalar, JSON-encoded
}

// parseJSON reads exactly one standard JSON value (then only whitespace)
// into core/jsontree, the one JSON tree gotk parses into: every literal
// keeps the bytes the tool printed (escapes, number spelling).
func parseJSON(data []byte) (*jnode, error) {
	v, err := jsontree.Parse(data)
	if err != nil {
		return nil, err
	}
	return fromHujson(v.Value), nil
}

// fromHujson is the view of one hujson value the renderers walk.
func fromHujson(v hujson.ValueTrimmed) *jnode {
	switch v := v.(type) {
	case *hujson.Object:
		n := &jnode{delim: '{', keys: make([][]byte, 0, len(v.Members)), kids: make([]*jnode, 0, len(v.Members))}
		for _, m := range v.Members {
			n.keys = append(n.keys, []byte(m.Name.Value.(hujson.Literal)))
			n.kids = append(n.kids, fromHujson(m.Value.Value))
		}
		return n
	case *hujson.Array:
		n := &jnode{delim: '[', kids: make([]*jnode, 0, len(v.Elements))}
		for _, e := range v.Elements {
			n.kids = append(n.kids, fromHujson(e.Value))
		}
		return n
	case hujson.Literal:
		return &jnode{raw: []byte(v)}
	}
	return &jnode{raw: []byte("null")}
}

// compact writes n on one line, without the object members skip names.
func (n *jnode) compact(w *bytes.Buffer, skip map[int]bool) {
	if n.delim == 0 {
		w.Write(n.raw)
		return
	}
	w.WriteByte(n.delim)
	first := true
	for i, kid := range n.kids {
		if skip[i] {
			continue
		}
		if !first {
			w.WriteByte(',')
		}
		first = false
		if n.delim == '{' {
			w.Write(n.keys[i])
			w.WriteByte(':')
		}
		kid.compact(w, nil)
	}
	w.WriteByte(closer(n.delim))
}

func closer(delim byte) byte {
	if delim == '{' {
		return '}'
	}
	return ']'
}

func (n *jnode) compactString() string {
	var b bytes.Buffer
	n.compact(&b, nil)
	return b.String()
}

// sharedFields returns, for an array of two or more objects, the members
// (by index in each object) that every object has with the same value,
// and those members as one object, when writing them once saves bytes.
// Objects that are entirely alike are not folded (each would print as {}).
func (n *jnode) sharedFields() (skip []map[int]bool, shared *jnode) {
	if n.delim != '[' || len(n.kids) < 2 {
		return nil, nil
	}
	for _, k := range n.kids {
		if k.delim != '{' {
			return nil, nil
		}
	}
	// member index by key, per object (the first of a duplicated key)
	index := make([]map[string]int, len(n.kids))
	for o, obj := range n.kids {
		index[o] = map[string]int{}
		for i, k := range obj.keys {
			if _, dup := index[o][string(k)]; !dup {
				index[o][string(k)] = i
			}
		}
	}
	first := n.kids[0]
	shared = &jnode{delim: '{'}
	skip = make([]map[int]bool, len(n.kids))
	for o := range skip {
		skip[o] = map[int]bool{}
	}
	size := 0
	for i, k := range first.keys {
		if index[0][string(k)] != i {
			continue
		}
		v := first.kids[i].compactString()
		same := true
		for o := 1; o < len(n.kids) && same; o++ {
			j, ok := index[o][string(k)]
			same = ok && n.kids[o].kids[j].compactString() == v
		}
		if !same {
			continue
		}
		shared.keys = append(shared.keys, k)
		shared.kids = append(shared.kids, first.kids[i])
		size += len(k) + len(v) + 2
		for o := range n.kids {
			skip[o][index[o][string(k)]] = true
		}
	}
	all := true
	for o, obj := range n.kids {
		all = all && len(skip[o]) == len(obj.kids)
	}
	if all || size*(len(n.kids)-1) < 120 {
		return nil, nil
	}
	return skip, shared
}

// writeIndented re-prints n: containers nested less than depth deep one
// member per line, deeper ones compact. A list of objects that share
// fields gets a note line naming them once.
func writeIndented(w *bytes.Buffer, n *jnode, level, depth int, skip map[int]bool) {
	if n.delim == 0 || level >= depth {
		n.compact(w, skip)
		return
	}
	var kidSkip []map[int]bool
	if s, shared := n.sharedFields(); shared != nil {
		kidSkip = s
		w.WriteByte('[')
		w.WriteString("\n" + strings.Repeat("  ", level+1))
		fmt.Fprintf(w, "(each of the %d objects below also has: %s)", len(n.kids), shared.compactString())
	} else {
		w.WriteByte(n.delim)
	}
	first := true
	for i, kid := range n.kids {
		if skip[i] {
			continue
		}
		if !first {
			w.WriteByte(',')
		}
		first = false
		w.WriteString("\n" + strings.Repeat("  ", level+1))
		if n.delim == '{' {
			w.Write(n.keys[i])
			w.WriteString(": ")
		}
		var s map[int]bool
		if kidSkip != nil {
			s = kidSkip[i]
		}
		writeIndented(w, kid, level+1, depth, s)
	}
	if !first || kidSkip != nil {
		w.WriteString("\n" + strings.Repeat("  ", level))
	}
	w.WriteByte(closer(n.delim))
}

// shallowIndent re-prints JSON keeping key order and every value:
// containers nested less than depth deep are indented one member per
// line, deeper ones compact; shared fields of a list of objects are
// written once (writeIndented).
func shallowIndent(w *bytes.Buffer, data []byte, depth int) error {
	n, err := parseJSON(data)
	if err != nil {
		return err
	}
	writeIndented(w, n, 0, depth, nil)
	w.WriteByte('\n')
	return nil
}
