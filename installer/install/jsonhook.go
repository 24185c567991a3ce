package install

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// jsonhook.go adds, updates and removes gotk's hook entry in an agent's JSON
// settings file. Every change is a splice of the original bytes: members and
// comments gotk does not own are never re-serialised.

// jsonHookSpec says where an agent keeps its hook entries and what gotk's
// entry looks like.
type jsonHookSpec struct {
	event    []string // path from the root to the array of entries
	matcher  string   // group matcher; "" means entries are handlers (Cursor)
	tool     string   // the tool name the matcher must cover, for conflict checks
	handler  obj      // gotk's handler, in the order its members are written
	cmdKey   string   // the handler member naming the program ("command", "bash")
	bin      string   // basename of gotk's hook binary, which identifies the entry
	rootKeys obj      // members the root must have (Cursor's "version")
	group    obj      // members of gotk's group after its matcher (Droid's "commandRegex")
}

// jsonUndo records what an install inserted, so uninstall can put the
// bytes back exactly (the container gotk created, the comma it added).
type jsonUndo struct {
	Inserts []insRec `json:"inserts,omitempty"`
	Orig    *string  `json:"orig,omitempty"` // content of a file that held no JSON value
}

// insRec is one insertion into a container.
type insRec struct {
	Path       []string `json:"path"`                 // the container, from the root
	Key        string   `json:"key,omitempty"`        // member gotk added; "" for gotk's entry
	Inner      *string  `json:"inner,omitempty"`      // the container's text when it was empty
	AddedComma bool     `json:"addedComma,omitempty"` // a comma was added after the previous element
}

// entry returns the array element gotk adds.
func (s *jsonHookSpec) entry() obj {
	if s.matcher == "" {
		return s.handler
	}
	return append(append(obj{{"matcher", s.matcher}}, s.group...), kv{"hooks", []any{s.handler}})
}

func (s *jsonHookSpec) eventPath() string { return strings.Join(s.event, ".") }

// errAt formats a parse or shape error with its line and column.
func errAt(src []byte, off int, what string) error {
	l, c := lineCol(src, off)
	return fmt.Errorf("%s, line %d:%d", what, l, c)
}

func parseErr(src []byte, err error) error {
	if se, ok := err.(*syntaxError); ok {
		return errAt(src, se.off, "invalid JSON: "+se.msg)
	}
	return err
}

// isOurs reports whether handler h runs gotk's hook binary bin.
func isOurs(h *jnode, bin string) bool {
	if h == nil || h.kind != jObject {
		return false
	}
	for _, k := range []string{"command", "bash"} {
		if cmd, ok := h.getStr(k); ok && programBase(cmd) == bin {
			return true
		}
	}
	return false
}

// programBase returns the basename of the first word of a command line.
func programBase(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	var word string
	if cmd != "" && (cmd[0] == '"' || cmd[0] == '\'') {
		if i := strings.IndexByte(cmd[1:], cmd[0]); i >= 0 {
			word = cmd[1 : i+1]
		}
	} else if i := strings.IndexAny(cmd, " \t"); i >= 0 {
		word = cmd[:i]
	} else {
		word = cmd
	}
	return strings.TrimSuffix(filepath.Base(filepath.FromSlash(word)), ".exe")
}

// hookRef locates one handler: the array element and, for grouped entries,
// the handler's index in the group's "hooks".
type hookRef struct {
	elem, hook int // hook is -1 for flat entries
}

// walk returns the node at path, or nil. A node of the wrong kind on the
// way is an error naming where it is.
func walk(src []byte, root *jnode, path []string, last jkind) (*jnode, error) {
	n := root
	for i, k := range path {
		m := n.get(k)
		if m == nil {
			return nil, nil
		}
		want := jObject
		if i == len(path)-1 {
			want = last
		}
		if m.val.kind != want {
			kind := "an object"
			if want == jArray {
				kind = "an array"
			}
			return nil, errAt(src, m.val.start, fmt.Sprintf("%s is not %s", strings.Join(path[:i+1], "."), kind))
		}
		n = m.val
	}
	return n, nil
}

// findOurs lists gotk's handlers in the event array.
func (s *jsonHookSpec) findOurs(arr *jnode) []hookRef {
	var refs []hookRef
	if arr == nil {
		return nil
	}
	for i, e := range arr.members {
		if s.matcher == "" {
			if isOurs(e.val, s.bin) {
				refs = append(refs, hookRef{i, -1})
			}
			continue
		}
		hs := e.val.get("hooks")
		if hs == nil || hs.val.kind != jArray {
			continue
		}
		for j, h := range hs.val.members {
			if isOurs(h.val, s.bin) {
				refs = append(refs, hookRef{i, j})
			}
		}
	}
	return refs
}

// loadRoot parses src and checks that it holds an object (or nothing).
func loadRoot(src []byte) (*jnode, error) {
	root, err := parseJSONC(src)
	if err != nil {
		return nil, parseErr(src, err)
	}
	if root != nil && root.kind != jObject {
		return nil, errAt(src, root.start, "the top-level value is not an object")
	}
	return root, nil
}

// installJSON returns src with gotk's entry present and current, the record
// needed to undo it, and notes for the user (conflicts).
func installJSON(src []byte, s *jsonHookSpec) ([]byte, *jsonUndo, []string, error) {
	root, err := loadRoot(src)
	if err != nil {
		return nil, nil, nil, err
	}
	undo := &jsonUndo{}
	if root == nil {
		orig := string(src)
		undo.Orig = &orig
		doc := append(obj{}, s.rootKeys...)
		var v any = []any{s.entry()}
		for i := len(s.event) - 1; i > 0; i-- {
			v = obj{{s.event[i], v}}
		}
		doc = append(doc, kv{s.event[0], v})
		for _, m := range doc {
			undo.Inserts = append(undo.Inserts, insRec{Path: []string{}, Key: m.k})
		}
		st := detectStyle(src)
		return []byte(render(doc, "", "  ", st.nl, false) + st.nl), undo, nil, nil
	}
	arr, err := walk(src, root, s.event, jArray)
	if err != nil {
		return nil, nil, nil, err
	}
	notes := s.conflicts(arr)
	if refs := s.findOurs(arr); len(refs) > 0 {
		out, err := s.update(src, arr, refs[0])
		if len(refs) > 1 {
			notes = append(notes, fmt.Sprintf("%d gotk entries in %s; the first was kept current, remove the others by hand", len(refs), s.eventPath()))
		}
		return out, nil, notes, err
	}
	st := detectStyle(src)
	for _, rk := range s.rootKeys {
		if root.get(rk.k) != nil {
			continue
		}
		ss, rec := insertInto(src, root, st, rk.k, rk.v)
		rec.Path, rec.Key = []string{}, rk.k
		undo.Inserts = append(undo.Inserts, rec)
		src = applySplices(src, ss)
		if root, err = loadRoot(src); err != nil {
			return nil, nil, nil, err
		}
	}
	// Descend as far as the path exists, then insert the rest in one piece.
	n := root
	for i, k := range s.event {
		m := n.get(k)
		if m == nil {
			var v any = []any{s.entry()}
			for j := len(s.event) - 1; j > i; j-- {
				v = obj{{s.event[j], v}}
			}
			ss, rec := insertInto(src, n, st, k, v)
			rec.Path, rec.Key = append([]string{}, s.event[:i]...), k
			undo.Inserts = append(undo.Inserts, rec)
			return applySplices(src, ss), undo, notes, nil
		}
		n = m.val
	}
	ss, rec := insertInto(src, n, st, "", s.entry())
	rec.Path = append([]string{}, s.event...)
	undo.Inserts = append(undo.Inserts, rec)
	return applySplices(src, ss), undo, notes, nil
}

// update brings an existing gotk entry up to date in place: other hook
// path, other timeout, missing member. Members gotk does not set are kept.
func (s *jsonHookSpec) update(src []byte, arr *jnode, ref hookRef) ([]byte, error) {
	st := detectStyle(src)
	h := arr.members[ref.elem].val
	if ref.hook >= 0 {
		h = h.get("hooks").val.members[ref.hook].val
	}
	var ss []splice
	var missing obj
	for _, f := range s.handler {
		m := h.get(f.k)
		want := render(f.v, "", "", "", true)
		switch {
		case m == nil:
			missing = append(missing, f)
		case string(src[m.val.start:m.val.end]) != want:
			ss = append(ss, splice{m.val.start, m.val.end, want})
		}
	}
	if ref.hook >= 0 {
		g := arr.members[ref.elem].val
		// The matcher is gotk's to set only when the group holds nothing else.
		if m := g.get("matcher"); m != nil && len(g.get("hooks").val.members) == 1 {
			if want := quote(s.matcher); string(src[m.val.start:m.val.end]) != want {
				ss = append(ss, splice{m.val.start, m.val.end, want})
			}
			for _, f := range s.group {
				if m := g.get(f.k); m != nil {
					if want := render(f.v, "", "", "", true); string(src[m.val.start:m.val.end]) != want {
						ss = append(ss, splice{m.val.start, m.val.end, want})
					}
				}
			}
		}
	}
	src = applySplices(src, ss)
	if ref.hook >= 0 {
		for _, f := range s.group {
			root, err := loadRoot(src)
			if err != nil {
				return nil, err
			}
			arr, _ := walk(src, root, s.event, jArray)
			g := arr.members[ref.elem].val
			if g.get(f.k) != nil || len(g.get("hooks").val.members) != 1 {
				continue
			}
			ins, _ := insertInto(src, g, st, f.k, f.v)
			src = applySplices(src, ins)
		}
	}
	for _, f := range missing {
		root, err := loadRoot(src)
		if err != nil {
			return nil, err
		}
		arr, _ := walk(src, root, s.event, jArray)
		h := arr.members[ref.elem].val
		if ref.hook >= 0 {
			h = h.get("hooks").val.members[ref.hook].val
		}
		ins, _ := insertInto(src, h, st, f.k, f.v)
		src = applySplices(src, ins)
	}
	return src, nil
}

// insertInto returns the splices that append a member (key != "") or an
// element to container c, laid out like its neighbours.
func insertInto(src []byte, c *jnode, st style, key string, v any) ([]splice, insRec) {
	var rec insRec
	multiline := bytes.IndexByte(src[c.start:c.end], '\n') >= 0
	if len(c.members) == 0 {
		// An empty container takes the file's layout, not its own "{}".
		multiline = bytes.IndexByte(bytes.TrimRight(src, " \t\r\n"), '\n') >= 0
	}
	text := func(prefix string) string {
		val := render(v, prefix, st.unit, st.nl, !multiline)
		if key == "" {
			return val
		}
		if multiline {
			return quote(key) + ": " + val
		}
		return quote(key) + ":" + val
	}
	inner := src[c.start+1 : c.end-1]
	if len(c.members) == 0 && len(bytes.Trim(inner, " \t\r\n")) == 0 {
		s := string(inner)
		rec.Inner = &s
		if !multiline {
			return []splice{{c.start + 1, c.end - 1, text("")}}, rec
		}
		open := lineIndent(src, c.start)
		ind := open + st.unit
		return []splice{{c.start + 1, c.end - 1, st.nl + ind + text(ind) + st.nl + open}}, rec
	}
	var last *jmember
	if n := len(c.members); n > 0 {
		last = &c.members[n-1]
	}
	ind := lineIndent(src, c.start) + st.unit
	if last != nil && onOwnLine(src, last.start) {
		ind = lineIndent(src, last.start)
	}
	var ss []splice
	var at int
	switch {
	case last == nil:
		// Only comments inside: add after them, before the closing line.
		at = wsBefore(src, c.end-1)
	case last.comma >= 0:
		at = last.comma + 1
	default:
		ss = append(ss, splice{last.val.end, last.val.end, ","})
		rec.AddedComma = true
		at = last.val.end
	}
	if !multiline {
		return append(ss, splice{at, at, text("")}), rec
	}
	if last != nil {
		// Keep a comment that ends the previous element's line with it.
		j := at
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j+1 < len(src) && src[j] == '/' && src[j+1] == '/' {
			for j < len(src) && src[j] != '\n' {
				j++
			}
			if j > 0 && src[j-1] == '\r' {
				j--
			}
			at = j
		}
	}
	return append(ss, splice{at, at, st.nl + ind + text(ind)}), rec
}

// removeFrom returns the splices that remove member i of container c. rec,
// when not nil, is the record of the insertion that added it.
func removeFrom(src []byte, c *jnode, i int, rec *insRec) []splice {
	n := len(c.members)
	m := c.members[i]
	end := m.val.end
	if m.comma >= 0 {
		end = m.comma + 1
	}
	if n == 1 && rec != nil && rec.Inner != nil {
		rest := append(append([]byte{}, src[c.start+1:m.start]...), src[end:c.end-1]...)
		if len(bytes.Trim(rest, " \t\r\n")) == 0 {
			return []splice{{c.start + 1, c.end - 1, *rec.Inner}}
		}
	}
	if i < n-1 {
		// Not last: take the element, its comma and the blank run after it.
		j := end
		for j < len(src) && strings.IndexByte(" \t\r\n", src[j]) >= 0 {
			j++
		}
		return []splice{{m.start, j, ""}}
	}
	start := wsBefore(src, m.start)
	if ls := lineStart(src, m.start); ls > 0 && onOwnLine(src, m.start) {
		// Take the line break gotk put before it, not the whitespace that
		// ends a comment on the line above.
		start = ls - 1
		if start > 0 && src[start-1] == '\r' {
			start--
		}
	}
	ss := []splice{{start, end, ""}}
	if i > 0 && rec != nil && rec.AddedComma && c.members[i-1].comma >= 0 {
		p := c.members[i-1].comma
		ss = append(ss, splice{p, p + 1, ""})
	}
	return ss
}

// uninstallJSON removes gotk's entries from src, and with undo, the
// containers and commas its install added. It reports whether anything
// was removed.
func uninstallJSON(src []byte, s *jsonHookSpec, undo *jsonUndo) ([]byte, bool, error) {
	root, err := loadRoot(src)
	if err != nil {
		return nil, false, err
	}
	if root == nil {
		return src, false, nil
	}
	if _, err := walk(src, root, s.event, jArray); err != nil {
		return nil, false, err
	}
	var entryRec *insRec
	if undo != nil {
		for i := range undo.Inserts {
			if undo.Inserts[i].Key == "" {
				entryRec = &undo.Inserts[i]
			}
		}
	}
	removed := false
	for {
		arr, _ := walk(src, root, s.event, jArray)
		refs := s.findOurs(arr)
		if len(refs) == 0 {
			break
		}
		r := refs[len(refs)-1]
		var ss []splice
		if g := arr.members[r.elem].val; r.hook < 0 || allOurs(g.get("hooks").val, s.bin) {
			ss = removeFrom(src, arr, r.elem, entryRec)
		} else {
			ss = removeFrom(src, g.get("hooks").val, r.hook, nil)
		}
		entryRec = nil
		removed = true
		src = applySplices(src, ss)
		if root, err = loadRoot(src); err != nil {
			return nil, false, err
		}
	}
	if undo == nil {
		return src, removed, nil
	}
	for i := len(undo.Inserts) - 1; i >= 0; i-- {
		rec := undo.Inserts[i]
		if rec.Key == "" {
			continue
		}
		c, err := walk(src, root, rec.Path, jObject)
		if err != nil || c == nil {
			continue
		}
		idx := -1
		for j := range c.members {
			if c.members[j].key == rec.Key {
				idx = j
			}
		}
		if idx < 0 {
			continue
		}
		v := c.members[idx].val
		empty := len(rec.Path) < len(s.event) && hollowAlong(v, s.event[len(rec.Path)+1:])
		if len(rec.Path) == 0 && s.rootKeys.has(rec.Key) {
			// A root member gotk added (Cursor's "version") goes with it.
			empty = true
		}
		if !empty {
			continue
		}
		src = applySplices(src, removeFrom(src, c, idx, &rec))
		removed = true
		if root, err = loadRoot(src); err != nil {
			return nil, false, err
		}
	}
	if undo.Orig != nil && root != nil && len(root.members) == 0 && len(bytes.Trim(src, " \t\r\n{}")) == 0 {
		return []byte(*undo.Orig), true, nil
	}
	return src, removed, nil
}

func (o obj) has(k string) bool {
	for _, m := range o {
		if m.k == k {
			return true
		}
	}
	return false
}

// hollowAlong reports whether v holds nothing but the path rest ending in
// an empty array: what is left of a container gotk created once its entry
// is gone.
func hollowAlong(v *jnode, rest []string) bool {
	if len(rest) == 0 {
		return v.kind == jArray && len(v.members) == 0
	}
	return v.kind == jObject && len(v.members) == 1 && v.members[0].key == rest[0] && hollowAlong(v.members[0].val, rest[1:])
}

// allOurs reports whether every handler in hooks is gotk's.
func allOurs(hooks *jnode, bin string) bool {
	for _, h := range hooks.members {
		if !isOurs(h.val, bin) {
			return false
		}
	}
	return true
}

var rtkWord = regexp.MustCompile(`(^|[\s/"'])rtk([\s"']|$)|rtk-rewrite`)

// conflicts names other hooks on the same tool that rewrite commands too.
func (s *jsonHookSpec) conflicts(arr *jnode) []string {
	if arr == nil {
		return nil
	}
	var notes []string
	check := func(h *jnode, where string) {
		if h == nil || isOurs(h, s.bin) {
			return
		}
		for _, k := range []string{"command", "bash"} {
			if cmd, ok := h.getStr(k); ok && rtkWord.MatchString(cmd) {
				notes = append(notes, fmt.Sprintf("conflict: %s runs %q, which also rewrites %s commands; the two rewrites race. Remove one of them (for RTK: rtk init -g --uninstall)", where, cmd, s.tool))
				return
			}
		}
	}
	for i, e := range arr.members {
		if s.matcher == "" {
			check(e.val, fmt.Sprintf("%s[%d]", s.eventPath(), i))
			continue
		}
		m, _ := e.val.getStr("matcher")
		if !matcherCovers(m, s.tool) {
			continue
		}
		if hs := e.val.get("hooks"); hs != nil && hs.val.kind == jArray {
			for j, h := range hs.val.members {
				check(h.val, fmt.Sprintf("%s[%d].hooks[%d]", s.eventPath(), i, j))
			}
		}
	}
	return notes
}

// matcherCovers reports whether a hook matcher selects tool: empty and "*"
// match all; a plain list is exact names; anything else is a regex.
func matcherCovers(m, tool string) bool {
	if m == "" || m == "*" {
		return true
	}
	for _, part := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
		if strings.TrimSpace(part) == tool {
			return true
		}
	}
	re, err := regexp.Compile(m)
	return err == nil && re.MatchString(tool)
}
