package install

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// textblock.go: gotk's text lives between two marker lines (Markdown rules,
// the Vibe [[hooks]] table; agentconf finds them), appended after the user's
// text and removed with exactly the separator it was appended with. And one
// TOML key set in place.

// blockText renders a block: markers around body, with the file's line
// ending.
func blockText(mk agentconf.Markers, body, nl string) string {
	body = strings.TrimRight(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	return strings.ReplaceAll(mk.Open+"\n"+body+"\n"+mk.Close+"\n", "\n", nl)
}

// upsertBlock puts body in gotk's block: replaced in place when there is a
// block, appended after a blank line when there is none.
func upsertBlock(src []byte, mk agentconf.Markers, body string) ([]byte, *agentconf.BlockUndo, error) {
	start, end, err := agentconf.FindBlock(src, mk)
	if err != nil {
		return nil, nil, err
	}
	nl := detectStyle(src).nl
	text := blockText(mk, body, nl)
	if start >= 0 {
		if !bytes.HasSuffix(src[:end], []byte("\n")) {
			text = strings.TrimSuffix(text, nl)
		}
		return applySplices(src, []splice{{start, end, text}}), nil, nil
	}
	u := &agentconf.BlockUndo{}
	switch {
	case len(src) == 0:
	case bytes.HasSuffix(src, []byte("\n")):
		u.Sep = nl
	default:
		u.Sep = nl + nl
	}
	out := append(append([]byte{}, src...), u.Sep+text...)
	return out, u, nil
}

// removeBlock removes gotk's block and the separator its install added (a
// blank line when the record is gone).
func removeBlock(src []byte, mk agentconf.Markers, u *agentconf.BlockUndo) ([]byte, bool, error) {
	start, end, err := agentconf.FindBlock(src, mk)
	if err != nil || start < 0 {
		return src, false, err
	}
	sep := detectStyle(src).nl
	if u != nil {
		sep = u.Sep
	}
	if end == len(src) && bytes.HasSuffix(src[:start], []byte(sep)) {
		start -= len(sep)
	} else if end < len(src) && u == nil {
		// In the middle: drop one of the blank lines around it.
		if bytes.HasPrefix(src[end:], []byte(sep)) {
			end += len(sep)
		}
	}
	return applySplices(src, []splice{{start, end, ""}}), true, nil
}

func decodeTOML(b []byte, v any) (toml.MetaData, error) { return toml.Decode(string(b), v) }

// setTOMLFlag makes the top-level boolean key true. It returns nil undo
// when the key was already true.
func setTOMLFlag(src []byte, key string) ([]byte, *agentconf.FlagUndo, error) {
	var doc map[string]any
	if _, err := decodeTOML(src, &doc); err != nil {
		return nil, nil, agentconf.TOMLErr(err)
	}
	nl := detectStyle(src).nl
	v, ok := doc[key]
	if !ok {
		line := key + " = true  # set by gotk-install (Vibe hooks are experimental)"
		bom := len(src) - len(bytes.TrimPrefix(src, []byte("\uFEFF")))
		return applySplices(src, []splice{{bom, bom, line + nl}}), &agentconf.FlagUndo{Inserted: line}, nil
	}
	if v == true {
		return src, nil, nil
	}
	// The key bare or quoted, before any table header.
	k := regexp.QuoteMeta(key)
	re := regexp.MustCompile(`(?m)^((?:\x{FEFF})?[ \t]*(?:` + k + `|"` + k + `"|'` + k + `')[ \t]*=[ \t]*)false([ \t]*(#[^\r\n]*)?)\r?$`)
	loc := re.FindSubmatchIndex(src)
	if v != false || loc == nil || bytes.Contains(src[:loc[0]], []byte("\n[")) || bytes.HasPrefix(src, []byte("[")) {
		return nil, nil, fmt.Errorf("%s is set in a form gotk-install does not edit; set %s = true by hand", key, key)
	}
	was := strings.TrimRight(string(src[loc[0]:loc[1]]), "\r")
	now := string(src[loc[2]:loc[3]]) + "true" + string(src[loc[4]:loc[5]])
	out := applySplices(src, []splice{{loc[0], loc[0] + len(was), now}})
	return out, &agentconf.FlagUndo{Was: was, Now: now}, nil
}

// unsetTOMLFlag undoes setTOMLFlag when the line is still as gotk left it.
func unsetTOMLFlag(src []byte, u *agentconf.FlagUndo) ([]byte, bool) {
	if u == nil {
		return src, false
	}
	lines := strings.SplitAfter(string(src), "\n")
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		if i == 0 && strings.HasPrefix(body, "\uFEFF") {
			if u.Inserted != "" && strings.TrimPrefix(body, "\uFEFF") == u.Inserted {
				lines[i] = "\uFEFF"
				return []byte(strings.Join(lines, "")), true
			}
		}
		if strings.HasPrefix(strings.TrimSpace(body), "[") {
			break
		}
		switch {
		case u.Inserted != "" && body == u.Inserted:
			lines[i] = ""
			return []byte(strings.Join(lines, "")), true
		case u.Now != "" && body == u.Now:
			lines[i] = u.Was + l[len(body):]
			return []byte(strings.Join(lines, "")), true
		}
	}
	return src, false
}
