package discover

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageMatchesTheAgentsTotals: the usage read request by request from
// the real Copilot CLI and OpenCode transcripts adds up to the totals the
// CLIs themselves keep beside them — Copilot CLI's session.shutdown
// modelMetrics (its inputTokens count the cached ones), OpenCode's session
// row (tokens_input uncached, tokens_output without the reasoning),
// OpenClaw's session entry (session_nodes.entry_json: inputTokens
// uncached).
func TestUsageMatchesTheAgentsTotals(t *testing.T) {
	for _, kind := range []string{"raw", "gotk", "refused"} {
		dir := filepath.Join("testdata", "copilot", kind)
		want := copilotTotals(t, dir)
		if got := scanFixture(t, "copilot", dir, nil, false).Sessions.Usage; got != want || got.Read() == 0 {
			t.Errorf("copilot %s: read %+v, the CLI's own totals %+v", kind, got, want)
		}
	}
	for _, kind := range []string{"raw", "gotk"} {
		dir := filepath.Join("testdata", "opencode", kind)
		want := opencodeTotals(t, dir)
		if got := scanFixture(t, "opencode", dir, nil, false).Sessions.Usage; got != want || got.Read() == 0 {
			t.Errorf("opencode %s: read %+v, the CLI's own totals %+v", kind, got, want)
		}
	}
	for _, kind := range []string{"raw", "gotk"} {
		dir := filepath.Join("testdata", "openclaw", kind)
		want := openclawTotals(t, dir)
		if got := scanFixture(t, "openclaw", dir, nil, false).Sessions.Usage; got != want || got.Read() == 0 {
			t.Errorf("openclaw %s: read %+v, the CLI's own totals %+v", kind, got, want)
		}
	}
}

// openclawTotals are the totals OpenClaw keeps in its session entry, and
// the number of its assistant messages (left uncompressed: they are small).
func openclawTotals(t *testing.T, dir string) Usage {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "home", ".openclaw", "agents", "main", "agent", "openclaw-agent.sqlite")+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var u Usage
	if err := db.QueryRow(`SELECT SUM(json_extract(entry_json, '$.inputTokens')), SUM(json_extract(entry_json, '$.outputTokens')),
		SUM(json_extract(entry_json, '$.cacheRead')), SUM(json_extract(entry_json, '$.cacheWrite')) FROM session_nodes`).
		Scan(&u.Input, &u.Output, &u.CacheRead, &u.CacheWrite); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT COUNT(*) FROM transcript_events WHERE json_extract(event_json, '$.message.role') = 'assistant'
		AND json_extract(event_json, '$.message.usage') IS NOT NULL`).Scan(&u.Requests); err != nil {
		t.Fatal(err)
	}
	return u
}

func copilotTotals(t *testing.T, dir string) Usage {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "home", ".copilot", "session-state", "*", "events.jsonl"))
	if len(files) != 1 {
		t.Fatalf("%s: %d event files", dir, len(files))
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var u Usage
	for line := range strings.Lines(string(b)) {
		var e struct {
			Type string `json:"type"`
			Data struct {
				ModelMetrics map[string]struct {
					Requests struct {
						Count int `json:"count"`
					} `json:"requests"`
					Usage struct {
						Input      int64 `json:"inputTokens"`
						Output     int64 `json:"outputTokens"`
						CacheRead  int64 `json:"cacheReadTokens"`
						CacheWrite int64 `json:"cacheWriteTokens"`
					} `json:"usage"`
				} `json:"modelMetrics"`
			} `json:"data"`
		}
		if json.Unmarshal([]byte(line), &e) != nil || e.Type != "session.shutdown" {
			continue
		}
		for _, m := range e.Data.ModelMetrics {
			x := m.Usage
			u.add(Usage{Requests: m.Requests.Count, Input: x.Input - x.CacheRead - x.CacheWrite,
				CacheWrite: x.CacheWrite, CacheRead: x.CacheRead, Output: x.Output})
		}
	}
	return u
}

func opencodeTotals(t *testing.T, dir string) Usage {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "home", ".local", "share", "opencode", "opencode.db")+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var u Usage
	var reasoning int64
	if err := db.QueryRow(`SELECT SUM(tokens_input), SUM(tokens_output), SUM(tokens_reasoning), SUM(tokens_cache_read), SUM(tokens_cache_write) FROM session`).
		Scan(&u.Input, &u.Output, &reasoning, &u.CacheRead, &u.CacheWrite); err != nil {
		t.Fatal(err)
	}
	u.Output += reasoning
	if err := db.QueryRow(`SELECT COUNT(*) FROM part WHERE json_extract(data, '$.type') = 'step-finish'`).Scan(&u.Requests); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestOpenCodeContexts: each session of OpenCode's database is a context
// of its own, however their parts interleave; a step's tool result is read
// by the requests after the step's own (OpenCode writes the tool part
// before the step-finish that carries the request's usage); a compaction
// ends the context.
func TestOpenCodeContexts(t *testing.T) {
	finish := `{"type":"step-finish","tokens":{"input":1,"output":10,"reasoning":2,"cache":{"read":100,"write":5}}}`
	big := strings.Repeat("line of output\n", 50)
	home := opencodeDB(t, []opencodeRow{
		{"ses_a", "msg_a1", `{"type":"step-start"}`},
		{"ses_a", "msg_a1", opencodeTool("seq 1 50", big)},
		{"ses_b", "msg_b1", `{"type":"step-start"}`},
		{"ses_b", "msg_b1", opencodeTool("seq 1 50", big)},
		{"ses_a", "msg_a1", finish}, // a's request 1 made a's call
		{"ses_b", "msg_b1", finish}, // b's request 1 made b's call: no later request of b reads it
		{"ses_a", "msg_a2", finish}, // a's request 2 reads a's result
		{"ses_a", "msg_a2", `{"type":"compaction","auto":true}`},
		{"ses_a", "msg_a2", finish}, // a's request 3 does not
	})
	rep := Scan(Options{Env: Env{Home: home, Getenv: func(string) string { return "" }}, Agents: []string{"opencode"}, Workers: 2})
	s := rep.Sessions
	byID := map[string]Session{}
	for _, x := range s.List {
		byID[x.Session] = x
	}
	a, b := byID["ses_a"], byID["ses_b"]
	if s.Count != 2 || a.Usage.Requests != 3 || b.Usage.Requests != 1 {
		t.Fatalf("sessions %+v; want ses_a with 3 requests and ses_b with 1", s.List)
	}
	if want := (Usage{Requests: 1, Input: 1, CacheWrite: 5, CacheRead: 100, Output: 12}); b.Usage != want {
		t.Errorf("ses_b usage %+v, want %+v (output counts the reasoning)", b.Usage, want)
	}
	if a.ShellTokens == 0 || a.ShellTokens != b.ShellTokens || a.ShellReads != a.ShellTokens || b.ShellReads != 0 {
		t.Errorf("shell output a: %d tokens read %d times over, b: %d read %d; want a's read once (by its request 2), b's never",
			a.ShellTokens, a.ShellReads, b.ShellTokens, b.ShellReads)
	}
	if len(a.Models) != 1 || a.Models[0] != "m-a" || len(b.Models) != 1 || b.Models[0] != "m-b" {
		t.Errorf("models a %v, b %v", a.Models, b.Models)
	}
}

// TestCopilotSubAgent: a sub-agent's requests (events with agentId) are
// counted in the session's usage but are another context: they do not
// make the main agent's results read more often.
func TestCopilotSubAgent(t *testing.T) {
	home := t.TempDir()
	var b strings.Builder
	ev := func(agentID, typ, data string) {
		id := ""
		if agentID != "" {
			id = fmt.Sprintf(`"agentId":%q,`, agentID)
		}
		fmt.Fprintf(&b, `{"type":%q,%s"timestamp":"2026-12-01T09:00:00Z","data":%s}`+"\n", typ, id, data)
	}
	usage := `{"usage":{"model":"gpt-4o","inputTokens":1100,"outputTokens":10,"cacheReadTokens":1000,"cacheWriteTokens":0}}`
	ev("", "session.start", `{"sessionId":"s1","context":{"cwd":"/p"}}`)
	ev("", "session.usage_record", usage)
	ev("", "tool.execution_start", `{"toolCallId":"c1","toolName":"bash","arguments":{"command":"seq 1 50"}}`)
	ev("", "tool.execution_complete", `{"toolCallId":"c1","success":true,"result":{"content":"`+strings.Repeat(`line\n`, 50)+`<shellId: 0 completed with exit code 0>"},"shellExecution":{"exitCode":0}}`)
	ev("sub1", "session.usage_record", usage)
	ev("sub1", "session.usage_record", usage)
	ev("", "session.usage_record", usage)
	writeFile(t, filepath.Join(home, ".copilot", "session-state", "s1", "events.jsonl"), b.String())
	rep := Scan(Options{Env: Env{Home: home, Getenv: func(string) string { return "" }}, Agents: []string{"copilot"}, Workers: 2})
	s := rep.Sessions
	if s.Count != 1 || s.Usage.Requests != 4 || s.Usage.Input != 400 || s.Usage.CacheRead != 4000 {
		t.Fatalf("sessions %+v; want one session of 4 requests, 100 uncached and 1000 cached each", s)
	}
	// The result sits after the main agent's request 1 and is read by its
	// request 2 alone, not by the sub-agent's two.
	if s.ShellTokens == 0 || s.ShellReads != s.ShellTokens {
		t.Errorf("shell output %d tokens read %d times over; want read once", s.ShellTokens, s.ShellReads)
	}
}

// TestOpenCodeNoUsage: a database whose steps record no tokens (OpenCode
// before step-finish parts) is named once, however many sessions it
// holds, and its calls still count per command.
func TestOpenCodeNoUsage(t *testing.T) {
	home := opencodeDB(t, []opencodeRow{
		{"ses_a", "msg_a1", opencodeTool("git status", "## main\n")},
		{"ses_b", "msg_b1", opencodeTool("git status", "## main\n")},
	})
	rep := Scan(Options{Env: Env{Home: home, Getenv: func(string) string { return "" }}, Agents: []string{"opencode"}, Workers: 2})
	if s := rep.Sessions; s.Count != 0 || s.NoUsageCount != 1 || len(s.NoUsage) != 1 || !strings.HasSuffix(s.NoUsage[0], "opencode.db") {
		t.Errorf("sessions %d, no usage %d %q; want the database named once", s.Count, s.NoUsageCount, s.NoUsage)
	}
	if a := rep.Agents["opencode"]; a.Calls != 2 || rep.MissedTotal.Count != 2 {
		t.Errorf("calls %d, missed %d; want both calls counted", a.Calls, rep.MissedTotal.Count)
	}
}

// opencodeRow is one part of an OpenCode database: session, message, data.
type opencodeRow struct{ session, message, data string }

func opencodeTool(cmd, out string) string {
	return fmt.Sprintf(`{"type":"tool","tool":"bash","callID":"c","state":{"status":"completed","input":{"command":%q},"output":%q,"metadata":{"exit":0}}}`, cmd, out)
}

// opencodeDB writes an OpenCode database of the tables discover reads
// (sessions in /p; messages of model m-<session's last letter>) under a
// new home, the parts in order, and returns the home.
func opencodeDB(t *testing.T, rows []opencodeRow) string {
	t.Helper()
	home := t.TempDir()
	db := createDB(t, filepath.Join(home, ".local", "share", "opencode", "opencode.db"))
	defer db.Close()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE session (id TEXT PRIMARY KEY, directory TEXT NOT NULL)`)
	exec(`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER, time_updated INTEGER, data TEXT NOT NULL)`)
	exec(`CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER, time_updated INTEGER, data TEXT NOT NULL)`)
	for i, r := range rows {
		exec(`INSERT OR IGNORE INTO session VALUES (?, '/p')`, r.session)
		exec(`INSERT OR IGNORE INTO message VALUES (?, ?, 0, 0, ?)`, r.message, r.session,
			`{"role":"assistant","modelID":"m-`+r.session[len(r.session)-1:]+`"}`)
		at := 1796000000000 + i
		exec(`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`, fmt.Sprintf("prt_%03d", i), r.message, r.session, at, at, r.data)
	}
	return home
}

// createDB creates a SQLite database at path, and its directories.
func createDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	return db
}
