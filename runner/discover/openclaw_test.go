package discover

import (
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// openclawSchema is transcript_events as OpenClaw 2026.9.6 creates it (its
// CHECKs on navigation_json left out: the reader does not read it).
const openclawSchema = `CREATE TABLE transcript_events (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_json TEXT,
  created_at INTEGER NOT NULL,
  event_zstd BLOB,
  event_utf8_bytes INTEGER CHECK (event_utf8_bytes IS NULL OR event_utf8_bytes >= 0),
  navigation_json TEXT,
  PRIMARY KEY (session_id, seq),
  CHECK ((event_json IS NOT NULL AND event_zstd IS NULL) OR (event_json IS NULL AND event_zstd IS NOT NULL AND event_utf8_bytes IS NOT NULL))
) STRICT`

// openclawRow is one transcript entry; zstd stores it compressed, as
// OpenClaw stores an entry of 1 KiB or more.
type openclawRow struct {
	session string
	event   string
	zstd    bool
}

// openclawDB writes a database of rows (seq in their order per session)
// where OpenClaw keeps it under a new home, and returns the home.
func openclawDB(t *testing.T, rows []openclawRow) string {
	t.Helper()
	home := t.TempDir()
	db := createDB(t, filepath.Join(home, ".openclaw", "agents", "main", "agent", "openclaw-agent.sqlite"))
	defer db.Close()
	if _, err := db.Exec(openclawSchema); err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	seq := map[string]int{}
	for _, r := range rows {
		var err error
		if r.zstd {
			_, err = db.Exec(`INSERT INTO transcript_events VALUES (?, ?, NULL, 0, ?, ?, '{}')`,
				r.session, seq[r.session], enc.EncodeAll([]byte(r.event), nil), len(r.event))
		} else {
			_, err = db.Exec(`INSERT INTO transcript_events VALUES (?, ?, ?, 0, NULL, NULL, NULL)`, r.session, seq[r.session], r.event)
		}
		if err != nil {
			t.Fatal(err)
		}
		seq[r.session]++
	}
	return home
}

func scanOpenClaw(home string) *Report {
	return Scan(Options{Env: Env{Home: home, Getenv: func(string) string { return "" }}, Agents: []string{"openclaw"}, Workers: 1})
}

// openclawCall is an exec call and its result, as OpenClaw records them.
func openclawCall(id, command, output string, exit int) []string {
	return []string{
		`{"type":"message","id":"a` + id + `","timestamp":"2026-12-02T10:00:00Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"` + id + `","name":"exec","arguments":{"command":"` + command + `"}}],"model":"m","usage":{"input":3,"output":20,"cacheRead":100,"cacheWrite":7}}}`,
		`{"type":"message","id":"r` + id + `","timestamp":"2026-12-02T10:00:01Z","message":{"role":"toolResult","toolCallId":"` + id + `","toolName":"exec","content":[{"type":"text","text":"` + output + `"}],"details":{"status":"completed","exitCode":` + strconv.Itoa(exit) + `,"cwd":"/p/sub"},"isError":false}}`,
	}
}

// TestOpenClawRows: every session of the database is read, a call's
// compressed result as its plain one; the exit code and directory are
// exec's details; a row that is neither JSON nor a valid zstd frame is
// counted malformed, and the rest of the file is still read.
func TestOpenClawRows(t *testing.T) {
	big := strings.Repeat("line of output\\n", 200)
	a := openclawCall("c1", "git status", "## main", 0)
	b := openclawCall("c2", "git diff", big, 0)
	c := openclawCall("c3", "git log", "fatal: bad", 128)
	home := openclawDB(t, []openclawRow{
		{"s1", `{"type":"session","version":4,"id":"s1","cwd":"/p"}`, false},
		{"s1", a[0], false}, {"s1", a[1], false},
		{"s1", b[0], false}, {"s1", b[1], true},
		{"s2", `{"type":"session","version":4,"id":"s2","cwd":"/q"}`, false},
		{"s2", c[0], false}, {"s2", "not json", false}, {"s2", c[1], true},
	})
	// a compressed row whose frame is not zstd
	db, err := sql.Open("sqlite", "file:"+filepath.Join(home, ".openclaw", "agents", "main", "agent", "openclaw-agent.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO transcript_events VALUES ('s2', 99, NULL, 0, x'00010203', 40, '{}')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	var calls []*Call
	s := &scan{agent: "openclaw", emit: func(c *Call) { calls = append(calls, c) }}
	readOpenClaw(openclawFiles(Env{Home: home})[0], s)
	if s.stats.Files != 1 || s.stats.Records != 10 || s.stats.Malformed != 2 || len(s.stats.Unreadable) != 0 {
		t.Fatalf("stats %+v: want 1 file, 10 records, 2 malformed", s.stats)
	}
	if len(calls) != 3 {
		t.Fatalf("%d calls, want 3", len(calls))
	}
	for i, want := range []struct {
		session, command string
		outLen, exit     int
	}{{"s1", "git status", 7, 0}, {"s1", "git diff", len("line of output\n") * 200, 0}, {"s2", "git log", 10, 128}} {
		c := calls[i]
		if c.Session != want.session || c.Command != want.command || len(c.Output) != want.outLen || c.Exit != want.exit || c.Cwd != "/p/sub" {
			t.Errorf("call %d: %s %q, %d bytes, exit %d in %s; want %s %q, %d bytes, exit %d in /p/sub",
				i, c.Session, c.Command, len(c.Output), c.Exit, c.Cwd, want.session, want.command, want.outLen, want.exit)
		}
	}
	rep := scanOpenClaw(home)
	if got := rep.Sessions; got.Count != 2 || got.Usage.Requests != 3 || got.Usage.CacheRead != 300 || got.Usage.Output != 60 {
		t.Errorf("sessions %+v: want 2 sessions, 3 requests, their usage summed", got)
	}
}

// TestOpenClawFiles: the database is found where OpenClaw puts it: its
// state directory, $OPENCLAW_HOME's, or the legacy one when it alone is
// there.
func TestOpenClawFiles(t *testing.T) {
	db := filepath.Join("agents", "main", "agent", "openclaw-agent.sqlite")
	mk := func(p string) string {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	home, other, state := t.TempDir(), t.TempDir(), t.TempDir()
	legacy := mk(filepath.Join(home, ".clawdbot", db))
	env := func(kv ...string) Env {
		return Env{Home: home, Getenv: func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}}
	}
	check := func(what string, e Env, want string) {
		t.Helper()
		if got := openclawFiles(e); len(got) != 1 || got[0] != want {
			t.Errorf("%s: %v, want %s", what, got, want)
		}
	}
	check("legacy only", env(), legacy)
	cur := mk(filepath.Join(home, ".openclaw", db))
	check("default", env(), cur)
	check("OPENCLAW_HOME", env("OPENCLAW_HOME", other), mk(filepath.Join(other, ".openclaw", db)))
	check("OPENCLAW_STATE_DIR", env("OPENCLAW_STATE_DIR", state, "OPENCLAW_HOME", other), mk(filepath.Join(state, db)))
	check("relative OPENCLAW_STATE_DIR", env("OPENCLAW_STATE_DIR", "rel"), cur)
}

// TestOpenClawCorrupt: a database that is not one, or a real one cut or
// with bytes overwritten anywhere, is at most one warning: no panic, no
// record counted twice, the scan goes on.
func TestOpenClawCorrupt(t *testing.T) {
	// the real database OpenClaw wrote in e2e (one result compressed)
	good, err := os.ReadFile(filepath.Join("testdata", "openclaw", "gotk", "home", ".openclaw", "agents", "main", "agent", "openclaw-agent.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	variants := [][]byte{[]byte("not a database\n"), {}, good[:len(good)/2], good[:100]}
	for off := 0; off < len(good); off += 1021 {
		b := append([]byte(nil), good...)
		for i := off; i < min(off+64, len(b)); i++ {
			b[i] ^= 0xA5
		}
		variants = append(variants, b)
	}
	for i, b := range variants {
		home := t.TempDir()
		p := filepath.Join(home, ".openclaw", "agents", "main", "agent", "openclaw-agent.sqlite")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		rep := scanOpenClaw(home)
		st := rep.Scanned
		if len(st.Unreadable) > 1 || st.Skipped > st.Records || rep.Agents["openclaw"].Calls > 7 {
			t.Errorf("variant %d: %+v, %d calls", i, st, rep.Agents["openclaw"].Calls)
		}
		if i < 2 && len(st.Unreadable) != 1 {
			t.Errorf("variant %d (not a database): %+v, want one warning", i, st)
		}
		if _, err := os.Stat(p + "-wal"); err == nil {
			t.Errorf("variant %d: the scan created %s-wal", i, p)
		}
	}
}
