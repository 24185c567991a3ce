package discover

import (
	"database/sql"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gotk-dev/gotk/core/regfile"
)

// OpenCode 1.x keeps its sessions in a SQLite database:
// $XDG_DATA_HOME/opencode/opencode.db (default ~/.local/share). Measured in
// OpenCode 1.18.33 (e2e): table part(id, message_id, session_id,
// time_created, time_updated, data) holds one JSON object per message part;
// a shell call is {type:"tool", tool:"bash", callID, state:{status:
// "completed"|"error", input:{command}, output, metadata:{exit}, time:{start,
// end}}}, and state.input.command is what ran (a plugin's rewrite
// included). session(id, directory) gives the working directory. The file
// is opened read-only; OpenCode may be writing it (WAL mode) meanwhile.
//
// Each model request ends in a part {type:"step-finish", tokens:{input,
// output, reasoning, cache:{read, write}}} of its message, whose modelID
// names the model. OpenCode writes input as the uncached input (its
// getUsage: inputTokens − cache read − cache write) and output without
// the reasoning. A "compaction" part starts a new context. The tool parts
// of a step are written before its step-finish, though the step's request
// made them: they are handed on after it, where the next request reads
// them. Each session of the database is a context of its own.

func opencodeFiles(e Env) []string {
	dir := filepath.Join(e.Home, ".local", "share", "opencode")
	if x := e.get("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		dir = filepath.Join(x, "opencode")
	}
	return glob(filepath.Join(dir, "opencode*.db"))
}

var opencodeParts = sync.OnceValue(func() map[string]bool {
	return setOf("text", "tool", "step-start", "step-finish", "reasoning", "file", "patch",
		"snapshot", "agent", "subtask", "retry", "compaction")
})

type opencodePart struct {
	Type   string `json:"type"`
	Tokens *struct {
		Input     int64 `json:"input"`
		Output    int64 `json:"output"`
		Reasoning int64 `json:"reasoning"`
		Cache     struct {
			Read  int64 `json:"read"`
			Write int64 `json:"write"`
		} `json:"cache"`
	} `json:"tokens"`
	Tool   string `json:"tool"`
	CallID string `json:"callID"`
	State  struct {
		Status string `json:"status"`
		Input  struct {
			Command string `json:"command"`
			Workdir string `json:"workdir"`
		} `json:"input"`
		Output   string `json:"output"`
		Error    string `json:"error"`
		Metadata struct {
			Exit *int `json:"exit"`
		} `json:"metadata"`
		Time struct {
			Start json.RawMessage `json:"start"`
			End   json.RawMessage `json:"end"`
		} `json:"time"`
	} `json:"state"`
}

func readOpenCode(path string, s *scan) {
	db := s.openDB(path)
	if db == nil {
		return
	}
	defer db.Close()
	var since int64
	if !s.since.IsZero() {
		since = s.since.UnixMilli()
	}
	// A part longer than MaxLine is not loaded (bounded memory), only counted.
	rows, err := db.Query(`SELECT p.session_id, COALESCE(s.directory, ''), p.message_id, p.time_created, length(p.data),
		CASE WHEN length(p.data) <= ? THEN p.data END
		FROM part p LEFT JOIN session s ON s.id = p.session_id
		WHERE p.time_updated >= ? ORDER BY p.time_created, p.id`, MaxLine, since)
	if err != nil {
		s.stats.Unreadable = append(s.stats.Unreadable, path+": "+oneLine(err.Error()))
		return
	}
	defer rows.Close()
	s.stats.Files++
	// the calls of each session's step in progress, and its message
	steps := map[string]*opencodeStep{}
	flush := func(session string) {
		if st := steps[session]; st != nil {
			delete(steps, session)
			s.context(session, session)
			for _, c := range st.calls {
				s.emitCall(c)
			}
		}
	}
	for rows.Next() {
		var session, dir, message string
		var created, size int64
		var data []byte
		s.stats.Records++
		if err := rows.Scan(&session, &dir, &message, &created, &size, &data); err != nil {
			s.malformed()
			continue
		}
		if size > MaxLine {
			s.oversized()
			continue
		}
		var p opencodePart
		if !decode(data, &p) {
			s.malformed()
			continue
		}
		if !opencodeParts()[p.Type] {
			s.unknown()
			continue
		}
		s.context(session, session)
		s.sess.note(session, dir, time.UnixMilli(created))
		switch st := steps[session]; {
		case p.Type == "step-finish":
			if t := p.Tokens; t != nil {
				s.sess.request("", opencodeModel(db, message), time.UnixMilli(created),
					Usage{Input: t.Input, CacheWrite: t.Cache.Write, CacheRead: t.Cache.Read, Output: t.Output + t.Reasoning})
			}
			flush(session)
			continue
		case p.Type == "compaction":
			flush(session)
			s.context(session, session)
			s.sess.compacted()
			continue
		case st != nil && st.message != message:
			flush(session) // a step that recorded no finish
		}
		if p.Type != "tool" || p.Tool != "bash" || (p.State.Status != "completed" && p.State.Status != "error") {
			continue
		}
		c := &Call{Session: session, Cwd: dir, Start: parseTime(p.State.Time.Start), End: parseTime(p.State.Time.End),
			Command: p.State.Input.Command, Output: p.State.Output, Exit: -1}
		if p.State.Output == "" {
			c.Output = p.State.Error
		}
		if p.State.Metadata.Exit != nil {
			c.Exit = *p.State.Metadata.Exit
		}
		if w := p.State.Input.Workdir; w != "" {
			if !filepath.IsAbs(w) {
				w = filepath.Join(dir, w)
			}
			c.Cwd = w
		}
		st := steps[session]
		if st == nil {
			st = &opencodeStep{message: message}
			steps[session] = st
		}
		st.calls = append(st.calls, c)
	}
	for _, session := range sortedKeys(steps) {
		flush(session)
	}
	if err := rows.Err(); err != nil {
		s.stats.Unreadable = append(s.stats.Unreadable, path+": "+oneLine(strings.TrimSpace(err.Error())))
	}
}

// opencodeStep is a step's calls, held until its request is counted.
type opencodeStep struct {
	message string
	calls   []*Call
}

// opencodeModel is the modelID of an assistant message.
func opencodeModel(db *sql.DB, message string) string {
	var m string
	_ = db.QueryRow(`SELECT COALESCE(json_extract(data, '$.modelID'), '') FROM message WHERE id = ?`, message).Scan(&m)
	return m
}

// openDB opens an agent's SQLite database read-only, or records why it
// could not (nil). The agent may be writing it meanwhile (WAL mode).
func (s *scan) openDB(path string) *sql.DB {
	// SQLite would wait on a FIFO and read a device as a database.
	f, err := regfile.Open(path)
	if err != nil {
		s.stats.Unreadable = append(s.stats.Unreadable, oneLine(err.Error()))
		return nil
	}
	f.Close()
	dsn := "file:" + filepath.ToSlash(path) + "?mode=ro&_pragma=busy_timeout(5000)"
	if _, err := os.Stat(path + "-wal"); errors.Is(err, fs.ErrNotExist) {
		// The agent is not running (its WAL goes with its last connection):
		// read the file as it is, without creating -wal and -shm beside it.
		dsn += "&immutable=1"
	}
	// the "sqlite" driver: package store/driver, linked into gotk-report
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		s.stats.Unreadable = append(s.stats.Unreadable, path+": "+oneLine(err.Error()))
		return nil
	}
	return db
}
