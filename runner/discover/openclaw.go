package discover

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// OpenClaw keeps each agent's sessions in a SQLite database:
// <state>/agents/<agent id>/agent/openclaw-agent.sqlite, where <state> is
// $OPENCLAW_STATE_DIR, else ~/.openclaw ($OPENCLAW_HOME for ~), else the
// legacy ~/.clawdbot when only it exists. Measured in OpenClaw 2026.9.6
// (e2e, and its bundled transcript-payload module): table
// transcript_events(session_id, seq, event_json, created_at, event_zstd,
// event_utf8_bytes, navigation_json) holds each session's transcript, one
// row an entry of Pi's session format (see pi.go), in seq order. An entry
// of 1 KiB or more may be stored zstd-compressed instead: event_json NULL,
// event_zstd its UTF-8 bytes compressed, event_utf8_bytes their length.
// The shell tool is exec: a call is an assistant message's {type:
// "toolCall", name:"exec", arguments:{command}}, its result a toolResult
// message whose details hold {exitCode, cwd, status} beside the output
// text. Each assistant message carries its request's usage, as Pi's does.
// A plugin's rewrite (gotk's before_tool_call) is not recorded; gotk's run
// log is. The file is opened read-only; a running OpenClaw holds it in WAL
// mode meanwhile.

func openclawFiles(e Env) []string {
	state := e.get("OPENCLAW_STATE_DIR")
	if !filepath.IsAbs(state) {
		home := e.Home
		if h := e.get("OPENCLAW_HOME"); filepath.IsAbs(h) {
			home = h
		}
		state = filepath.Join(home, ".openclaw")
		if _, err := os.Stat(state); err != nil {
			if legacy := filepath.Join(home, ".clawdbot"); isDir(legacy) {
				state = legacy
			}
		}
	}
	return glob(filepath.Join(state, "agents", "*", "agent", "openclaw-agent.sqlite"))
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// zstdDecoder decodes OpenClaw's compressed entries; its window is bounded
// to MaxLine, the largest entry read.
var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxLine),
		zstd.WithDecoderMaxWindow(MaxLine))
})

func readOpenClaw(path string, s *scan) {
	db := s.openDB(path)
	if db == nil {
		return
	}
	defer db.Close()
	// An entry longer than MaxLine is not loaded (bounded memory), only
	// counted; a compressed one is decoded only when its stated length is
	// within it.
	rows, err := db.Query(`SELECT session_id, COALESCE(length(CAST(event_json AS BLOB)), event_utf8_bytes, 0),
		CASE WHEN length(CAST(event_json AS BLOB)) <= ? THEN CAST(event_json AS BLOB) END,
		CASE WHEN event_json IS NULL AND event_utf8_bytes <= ? AND length(event_zstd) <= ? THEN event_zstd END
		FROM transcript_events ORDER BY session_id, seq`, MaxLine, MaxLine, MaxLine)
	if err != nil {
		s.stats.Unreadable = append(s.stats.Unreadable, path+": "+oneLine(err.Error()))
		return
	}
	defer rows.Close()
	s.stats.Files++
	// rows come a session at a time; each session is a context
	var r *piReader
	var cur string
	for rows.Next() {
		var session string
		var size int64
		var event, compressed []byte
		s.stats.Records++
		if err := rows.Scan(&session, &size, &event, &compressed); err != nil {
			s.malformed()
			continue
		}
		if size > MaxLine {
			s.oversized()
			continue
		}
		if event == nil {
			if event = openclawInflate(compressed, size); event == nil {
				s.malformed()
				continue
			}
		}
		if r == nil || session != cur {
			cur = session
			s.context(session, session)
			r = newPiReader(s, "exec", session)
		}
		if !r.line(event) {
			s.malformed()
		}
	}
	if err := rows.Err(); err != nil {
		s.stats.Unreadable = append(s.stats.Unreadable, path+": "+oneLine(strings.TrimSpace(err.Error())))
	}
}

// openclawInflate decodes a compressed entry of size bytes (nil: it is
// not one).
func openclawInflate(b []byte, size int64) []byte {
	d, err := zstdDecoder()
	if err != nil || len(b) == 0 || size <= 0 {
		return nil
	}
	out, err := d.DecodeAll(b, make([]byte, 0, size))
	if err != nil || int64(len(out)) != size {
		return nil
	}
	return out
}
