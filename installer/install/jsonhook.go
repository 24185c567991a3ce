package install

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// jsonhook.go adds, updates and removes gotk's hook entry in an agent's JSON
// settings file (agentconf finds it). Every change is a splice of the
// original bytes: members and comments gotk does not own are never
// re-serialised.

// installJSON returns src with gotk's entry present and current, the record
// needed to undo it (nil when an entry gotk owns was brought up to date),
// whether entries were adopted, and notes for the user (conflicts, gotk
// entries it does not own).
// hookFate is what installJSON did with gotk's entry.
type hookFate int

const (
	fateWritten  hookFate = iota // added or updated
	fateAdopted                  // a matching entry taken over (--adopt)
	fateHandMade                 // a gotk hook made by hand runs already: none added
)

func installJSON(src []byte, s *agentconf.HookSpec, o agentconf.Owner) ([]byte, *agentconf.JSONUndo, hookFate, []string, error) {
	root, err := agentconf.LoadRoot(src)
	if err != nil {
		return nil, nil, fateWritten, nil, err
	}
	undo := &agentconf.JSONUndo{}
	if root == nil {
		orig := string(src)
		undo.Orig = &orig
		doc := append(agentconf.Obj{}, s.RootKeys...)
		var v any = []any{s.Entry()}
		for i := len(s.Event) - 1; i > 0; i-- {
			v = agentconf.Obj{{K: s.Event[i], V: v}}
		}
		doc = append(doc, agentconf.KV{K: s.Event[0], V: v})
		for _, m := range doc {
			undo.Inserts = append(undo.Inserts, agentconf.InsRec{Path: []string{}, Key: m.K})
		}
		st := detectStyle(src)
		return []byte(render(doc, "", "  ", st.nl, false) + st.nl), undo, fateWritten, nil, nil
	}
	arr, err := agentconf.Walk(src, root, s.Event, agentconf.JArray)
	if err != nil {
		return nil, nil, fateWritten, nil, err
	}
	notes := s.Conflicts(arr)
	ours, others := s.FindGotk(arr, o)
	if len(ours) == 0 && slices.ContainsFunc(others, func(r agentconf.HookRef) bool { return s.RunsForTool(arr, r) }) {
		// A gotk hook made by hand already runs: a second entry would run
		// gotk twice on every call, so none is added.
		return src, nil, fateHandMade, append(notes, s.ForeignNotes(arr, others, "so gotk-install adds no second one")...), nil
	}
	notes = append(notes, s.OtherNotes(arr, others)...)
	if len(ours) > 0 {
		out, err := updateEntry(s, src, arr, ours[0])
		if err == nil && len(ours) > 1 {
			if o.Adopt {
				// Adopted duplicates would run gotk twice: they go.
				out, _, err = removeEntries(s, out, ours[1:], agentconf.Owner{Adopt: true})
			} else {
				notes = append(notes, fmt.Sprintf("%d gotk entries in %s; the first was kept current, remove the others by hand", len(ours), s.EventPath()))
			}
		}
		fate := fateWritten
		if o.Adopt {
			fate = fateAdopted
		}
		return out, nil, fate, notes, err
	}
	st := detectStyle(src)
	for _, rk := range s.RootKeys {
		if root.Get(rk.K) != nil {
			continue
		}
		ss, rec := insertInto(src, root, st, rk.K, rk.V)
		rec.Path, rec.Key = []string{}, rk.K
		undo.Inserts = append(undo.Inserts, rec)
		src = applySplices(src, ss)
		if root, err = agentconf.LoadRoot(src); err != nil {
			return nil, nil, fateWritten, nil, err
		}
	}
	// Descend as far as the path exists, then insert the rest in one piece.
	n := root
	for i, k := range s.Event {
		m := n.Get(k)
		if m == nil {
			var v any = []any{s.Entry()}
			for j := len(s.Event) - 1; j > i; j-- {
				v = agentconf.Obj{{K: s.Event[j], V: v}}
			}
			ss, rec := insertInto(src, n, st, k, v)
			rec.Path, rec.Key = append([]string{}, s.Event[:i]...), k
			undo.Inserts = append(undo.Inserts, rec)
			return applySplices(src, ss), undo, fateWritten, notes, nil
		}
		n = m.Val
	}
	ss, rec := insertInto(src, n, st, "", s.Entry())
	rec.Path = append([]string{}, s.Event...)
	undo.Inserts = append(undo.Inserts, rec)
	return applySplices(src, ss), undo, fateWritten, notes, nil
}

// updateEntry brings an existing gotk entry up to date in place: other hook
// path, other timeout, missing member. Members gotk does not set are kept.
func updateEntry(s *agentconf.HookSpec, src []byte, arr *agentconf.Node, ref agentconf.HookRef) ([]byte, error) {
	st := detectStyle(src)
	h := arr.Members[ref.Elem].Val
	if ref.Hook >= 0 {
		h = h.Get("hooks").Val.Members[ref.Hook].Val
	}
	var ss []splice
	var missing agentconf.Obj
	for _, f := range s.Handler {
		m := h.Get(f.K)
		want := render(f.V, "", "", "", true)
		switch {
		case m == nil:
			missing = append(missing, f)
		case string(src[m.Val.Start:m.Val.End]) != want:
			ss = append(ss, splice{m.Val.Start, m.Val.End, want})
		}
	}
	if ref.Hook >= 0 {
		g := arr.Members[ref.Elem].Val
		// The matcher is gotk's to set only when the group holds nothing
		// else; so are the group's own members (Droid's commandRegex).
		if len(g.Get("hooks").Val.Members) == 1 {
			if m := g.Get("matcher"); m != nil {
				if want := quote(s.Matcher); string(src[m.Val.Start:m.Val.End]) != want {
					ss = append(ss, splice{m.Val.Start, m.Val.End, want})
				}
			}
			for _, f := range s.Group {
				if m := g.Get(f.K); m != nil {
					if want := render(f.V, "", "", "", true); string(src[m.Val.Start:m.Val.End]) != want {
						ss = append(ss, splice{m.Val.Start, m.Val.End, want})
					}
				}
			}
		}
	}
	src = applySplices(src, ss)
	if ref.Hook >= 0 {
		// Group members the group lacks, when the group is gotk's alone.
		for _, f := range s.Group {
			root, err := agentconf.LoadRoot(src)
			if err != nil {
				return nil, err
			}
			arr, _ := agentconf.Walk(src, root, s.Event, agentconf.JArray)
			g := arr.Members[ref.Elem].Val
			if g.Get(f.K) != nil || len(g.Get("hooks").Val.Members) != 1 {
				continue
			}
			ins, _ := insertInto(src, g, st, f.K, f.V)
			src = applySplices(src, ins)
		}
	}
	for _, f := range missing {
		root, err := agentconf.LoadRoot(src)
		if err != nil {
			return nil, err
		}
		arr, _ := agentconf.Walk(src, root, s.Event, agentconf.JArray)
		h := arr.Members[ref.Elem].Val
		if ref.Hook >= 0 {
			h = h.Get("hooks").Val.Members[ref.Hook].Val
		}
		ins, _ := insertInto(src, h, st, f.K, f.V)
		src = applySplices(src, ins)
	}
	return src, nil
}

// insertInto returns the splices that append a member (key != "") or an
// element to container c, laid out like its neighbours.
func insertInto(src []byte, c *agentconf.Node, st style, key string, v any) ([]splice, agentconf.InsRec) {
	var rec agentconf.InsRec
	multiline := bytes.IndexByte(src[c.Start:c.End], '\n') >= 0
	if len(c.Members) == 0 {
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
	inner := src[c.Start+1 : c.End-1]
	if len(c.Members) == 0 && len(bytes.Trim(inner, " \t\r\n")) == 0 {
		s := string(inner)
		rec.Inner = &s
		if !multiline {
			return []splice{{c.Start + 1, c.End - 1, text("")}}, rec
		}
		open := lineIndent(src, c.Start)
		ind := open + st.unit
		return []splice{{c.Start + 1, c.End - 1, st.nl + ind + text(ind) + st.nl + open}}, rec
	}
	var last *agentconf.Member
	if n := len(c.Members); n > 0 {
		last = &c.Members[n-1]
	}
	ind := lineIndent(src, c.Start) + st.unit
	if last != nil && onOwnLine(src, last.Start) {
		ind = lineIndent(src, last.Start)
	}
	var ss []splice
	var at int
	switch {
	case last == nil:
		// Only comments inside: add after them, before the closing line.
		at = wsBefore(src, c.End-1)
	case last.Comma >= 0:
		at = last.Comma + 1
	default:
		ss = append(ss, splice{last.Val.End, last.Val.End, ","})
		rec.AddedComma = true
		at = last.Val.End
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
func removeFrom(src []byte, c *agentconf.Node, i int, rec *agentconf.InsRec) []splice {
	n := len(c.Members)
	m := c.Members[i]
	end := m.Val.End
	if m.Comma >= 0 {
		end = m.Comma + 1
	}
	if n == 1 && rec != nil && rec.Inner != nil {
		rest := append(append([]byte{}, src[c.Start+1:m.Start]...), src[end:c.End-1]...)
		if len(bytes.Trim(rest, " \t\r\n")) == 0 {
			return []splice{{c.Start + 1, c.End - 1, *rec.Inner}}
		}
	}
	if i < n-1 {
		// Not last: take the element, its comma and the blank run after it.
		j := end
		for j < len(src) && strings.IndexByte(" \t\r\n", src[j]) >= 0 {
			j++
		}
		return []splice{{m.Start, j, ""}}
	}
	start := wsBefore(src, m.Start)
	if ls := lineStart(src, m.Start); ls > 0 && onOwnLine(src, m.Start) {
		// Take the line break gotk put before it, not the whitespace that
		// ends a comment on the line above.
		start = ls - 1
		if start > 0 && src[start-1] == '\r' {
			start--
		}
	}
	ss := []splice{{start, end, ""}}
	// The comma before it goes when gotk added it, or, for an element gotk
	// did not insert, when the container had no trailing comma: strict JSON
	// readers (Claude Code, Codex) refuse one.
	dropComma := rec != nil && rec.AddedComma || rec == nil && m.Comma < 0
	if i > 0 && dropComma && c.Members[i-1].Comma >= 0 {
		p := c.Members[i-1].Comma
		ss = append(ss, splice{p, p + 1, ""})
	}
	return ss
}

// uninstallJSON removes the gotk entries gotk-install owns from src, and
// with undo, the containers and commas its install added. It reports
// whether anything was removed, and notes for the entries it left.
func uninstallJSON(src []byte, s *agentconf.HookSpec, undo *agentconf.JSONUndo, o agentconf.Owner) ([]byte, bool, []string, error) {
	root, err := agentconf.LoadRoot(src)
	if err != nil {
		return nil, false, nil, err
	}
	if root == nil {
		return src, false, nil, nil
	}
	arr, err := agentconf.Walk(src, root, s.Event, agentconf.JArray)
	if err != nil {
		return nil, false, nil, err
	}
	ours, others := s.FindGotk(arr, o)
	notes := s.OtherNotes(arr, others)
	if len(ours) == 0 {
		return src, false, notes, nil
	}
	var entryRec *agentconf.InsRec
	if undo != nil {
		for i := range undo.Inserts {
			if undo.Inserts[i].Key == "" {
				entryRec = &undo.Inserts[i]
			}
		}
	}
	src, root, err = removeEntriesRec(s, src, ours, o, entryRec)
	if err != nil {
		return nil, false, nil, err
	}
	if undo == nil {
		return src, true, notes, nil
	}
	for i := len(undo.Inserts) - 1; i >= 0; i-- {
		rec := undo.Inserts[i]
		if rec.Key == "" {
			continue
		}
		c, err := agentconf.Walk(src, root, rec.Path, agentconf.JObject)
		if err != nil || c == nil {
			continue
		}
		idx := -1
		for j := range c.Members {
			if c.Members[j].Key == rec.Key {
				idx = j
			}
		}
		if idx < 0 {
			continue
		}
		v := c.Members[idx].Val
		empty := len(rec.Path) < len(s.Event) && hollowAlong(v, s.Event[len(rec.Path)+1:])
		if len(rec.Path) == 0 && s.RootKeys.Has(rec.Key) {
			// A root member gotk added (Cursor's "version") goes with it.
			empty = true
		}
		if !empty {
			continue
		}
		src = applySplices(src, removeFrom(src, c, idx, &rec))
		if root, err = agentconf.LoadRoot(src); err != nil {
			return nil, false, nil, err
		}
	}
	if undo.Orig != nil && root != nil && len(root.Members) == 0 && len(bytes.Trim(src, " \t\r\n{}")) == 0 {
		return []byte(*undo.Orig), true, notes, nil
	}
	return src, true, notes, nil
}

// removeEntries removes the handlers refs (gotk's, found in src) and the
// groups they leave empty.
func removeEntries(s *agentconf.HookSpec, src []byte, refs []agentconf.HookRef, o agentconf.Owner) ([]byte, *agentconf.Node, error) {
	return removeEntriesRec(s, src, refs, o, nil)
}

// removeEntriesRec removes the handlers refs, last first; rec is the record
// of the insertion of the last one, for a byte-exact removal.
func removeEntriesRec(s *agentconf.HookSpec, src []byte, refs []agentconf.HookRef, o agentconf.Owner, rec *agentconf.InsRec) ([]byte, *agentconf.Node, error) {
	root, err := agentconf.LoadRoot(src)
	if err != nil {
		return nil, nil, err
	}
	for i := len(refs) - 1; i >= 0; i-- {
		r := refs[i]
		arr, _ := agentconf.Walk(src, root, s.Event, agentconf.JArray)
		var ss []splice
		if g := arr.Members[r.Elem].Val; r.Hook < 0 || s.AllOurs(g.Get("hooks").Val, o) {
			ss = removeFrom(src, arr, r.Elem, rec)
		} else {
			ss = removeFrom(src, g.Get("hooks").Val, r.Hook, nil)
		}
		rec = nil
		src = applySplices(src, ss)
		if root, err = agentconf.LoadRoot(src); err != nil {
			return nil, nil, err
		}
	}
	return src, root, nil
}

// hollowAlong reports whether v holds nothing but the path rest ending in
// an empty array: what is left of a container gotk created once its entry
// is gone.
func hollowAlong(v *agentconf.Node, rest []string) bool {
	if len(rest) == 0 {
		return v.Kind == agentconf.JArray && len(v.Members) == 0
	}
	return v.Kind == agentconf.JObject && len(v.Members) == 1 && v.Members[0].Key == rest[0] && hollowAlong(v.Members[0].Val, rest[1:])
}
