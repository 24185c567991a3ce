package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.Local)
	for in, want := range map[string]time.Time{
		"all":                  {},
		"":                     {},
		"30d":                  now.AddDate(0, 0, -30),
		"2w":                   now.AddDate(0, 0, -14),
		"36h":                  now.Add(-36 * time.Hour),
		"90m":                  now.Add(-90 * time.Minute),
		"2026-01-31":           time.Date(2026, 1, 31, 0, 0, 0, 0, time.Local),
		"2026-01-31T10:00:00Z": time.Date(2026, 1, 31, 10, 0, 0, 0, time.UTC),
	} {
		got, err := parseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"yesterday", "-3d", "3x", "2026-13-01"} {
		if _, err := parseSince(in, now); err == nil {
			t.Errorf("parseSince(%q): no error", in)
		}
	}
}

// TestGainSessions: `gotk gain --sessions --json` prints discover's session
// view of the transcripts under HOME, priced from config.toml; a config it
// cannot read costs a warning and the cost, never the report.
func TestGainSessions(t *testing.T) {
	home, err := filepath.Abs(filepath.Join("discover", "testdata", "claude", "gotk", "home"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := t.TempDir()
	run := func(config string, args ...string) (sessions struct {
		Count int
		Usage struct{ Requests int }
		Cost  *struct{ Spent float64 }
	}, stderr string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(cfg, "gotk"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cfg, "gotk", "config.toml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"HOME": home, "XDG_DATA_HOME": t.TempDir(), "XDG_CONFIG_HOME": cfg}
		var out, errb bytes.Buffer
		a := &app{stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] },
			getwd: os.Getwd, now: func() time.Time { return time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC) }}
		if code := a.main(append([]string{"gain", "--sessions", "--json"}, args...)); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		if err := json.Unmarshal(out.Bytes(), &sessions); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		return sessions, errb.String()
	}
	s, stderr := run("[prices.\"claude-opus-5-5\"]\ninput = 5\ncache_write = 6.25\ncache_read = 0.5\noutput = 25\n")
	if s.Count != 1 || s.Usage.Requests != 8 || s.Cost == nil || s.Cost.Spent != 0.058153 || stderr != "" {
		t.Errorf("priced: %+v, stderr %q; want 1 session of 8 requests, 0.058153 spent", s, stderr)
	}
	// The fixture's session ran on 2026-12-02: none in the day before
	// 2027-01-01.
	if s, _ := run("", "--since", "1d"); s.Count != 0 || s.Usage.Requests != 0 {
		t.Errorf("--since 1d: %+v; want no session", s)
	}
	s, stderr = run("[prices\n")
	if s.Count != 1 || s.Cost != nil || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "config.toml") {
		t.Errorf("broken config: %+v, stderr %q; want the report without cost, one line naming the file", s, stderr)
	}
}
