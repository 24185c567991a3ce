package agentconf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// block.go: gotk's text in a file of the user's (Markdown rules, a Vibe
// [[hooks]] table) lives between two marker lines.

// Markers are the opening and closing lines of gotk's block. Any line that
// starts with Prefix opens a block of some gotk version.
type Markers struct {
	Open, Prefix, Close string
}

// The markers of Markdown and TOML blocks.
var (
	MDMarkers   = Markers{"<!-- gotk v1 -->", "<!-- gotk v", "<!-- /gotk -->"}
	TOMLMarkers = Markers{"# >>> gotk v1: added by gotk-install; remove with gotk-install --uninstall", "# >>> gotk v", "# <<< gotk"}
)

// BlockUndo is what removing a block needs beyond the markers.
type BlockUndo struct {
	Sep string `json:"sep"` // separator inserted before the block
}

// FlagUndo records how a TOML key was set, to put it back.
type FlagUndo struct {
	Inserted string `json:"inserted,omitempty"` // the line gotk added at the top
	Was      string `json:"was,omitempty"`      // the line gotk changed ...
	Now      string `json:"now,omitempty"`      // ... and what it changed it to
}

// FindBlock returns the byte range of gotk's block, from the start of its
// opening line to the end of its closing line (line break included), or
// -1 when there is none.
func FindBlock(src []byte, mk Markers) (int, int, error) {
	off := 0
	start := -1
	for off < len(src) {
		end := bytes.IndexByte(src[off:], '\n')
		next := len(src)
		if end >= 0 {
			next = off + end + 1
		}
		line := strings.TrimSpace(string(src[off:next]))
		switch {
		case start < 0 && strings.HasPrefix(line, mk.Prefix):
			start = off
		case start >= 0 && line == mk.Close:
			return start, next, nil
		}
		off = next
	}
	if start >= 0 {
		l, c := LineCol(src, start)
		return -1, -1, fmt.Errorf("%q opened at line %d:%d is never closed with %q; fix or remove it by hand", mk.Prefix, l, c, mk.Close)
	}
	return -1, -1, nil
}

// TOMLErr formats a TOML parse error with its line and column.
func TOMLErr(err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("invalid TOML: %s, line %d:%d", pe.Message, pe.Position.Line, pe.Position.Col)
	}
	return fmt.Errorf("invalid TOML: %v", err)
}
