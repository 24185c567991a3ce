package install

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"

	"github.com/BurntSushi/toml"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// tomlarray.go: Vibe's hooks.toml may hold its hooks as an inline array
// (`hooks = [ { name = "rtk", … } ]`), which no [[hooks]] table can follow.
// gotk's hook then goes into the array itself (agentconf finds where),
// spliced in beside the user's entries, and comes out again byte for byte.

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
func insertInline(src []byte, a *agentconf.TOMLArray, entry string) ([]byte, *agentconf.InlineUndo) {
	u := &agentconf.InlineUndo{Entry: entry}
	nl := detectStyle(src).nl
	ml := a.Multiline(src)
	var ss []splice
	at := a.Open + 1
	switch n := len(a.Elems); {
	case n == 0 && ml:
		u.Lead = nl + lineIndent(src, a.Open) + detectStyle(src).unit
	case n == 0:
	default:
		last := a.Elems[n-1]
		comma := a.Commas[n-1]
		if comma < 0 {
			ss = append(ss, splice{last.End, last.End, ","})
			u.AddedComma = true
			comma = last.End
		}
		if ml {
			// After the comment that may end the last element's line.
			at = lineEnd(src, comma)
			u.Lead = nl + lineIndent(src, last.Start)
		} else {
			at = comma + 1
			u.Lead = " "
			if u.AddedComma {
				at = last.End
			}
		}
	}
	ss = append(ss, splice{at, at, u.Lead + u.Entry})
	return applySplices(src, ss), u
}

// removeInline takes out what insertInline added. ok is false when gotk's
// element is no longer there as it was written.
func removeInline(src []byte, u *agentconf.InlineUndo) ([]byte, bool) {
	text := []byte(u.Lead + u.Entry)
	if bytes.Count(src, text) != 1 {
		return src, false
	}
	i := bytes.Index(src, text)
	out := applySplices(src, []splice{{i, i + len(text), ""}})
	if !u.AddedComma {
		return out, true
	}
	a, err := agentconf.FindTopArray(out, "hooks")
	if err != nil || a == nil || len(a.Elems) == 0 {
		return src, false
	}
	n := len(a.Elems)
	if c := a.Commas[n-1]; c == a.Elems[n-1].End {
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
		return agentconf.TOMLErr(err)
	}
	ah, arest, err := vibeHooks(after)
	if err != nil {
		return fmt.Errorf("gotk's hook cannot be added to this file's form (%v); add it by hand", agentconf.TOMLErr(err))
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
