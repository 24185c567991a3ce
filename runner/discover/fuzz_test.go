package discover

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
)

// FuzzTranscript feeds arbitrary bytes to every reader as a transcript,
// and classifies what they find: transcripts are input gotk does not
// control. Nothing may panic; every record is counted once (a JSONL
// reader's records are lines; Auggie's, a whole JSON file's exchanges).
func FuzzTranscript(f *testing.F) {
	for _, p := range []string{
		"testdata/claude/raw/home/.claude/projects/-e2e-project/*.jsonl",
		"testdata/codex/gotk/home/.codex/sessions/*/*/*/*.jsonl",
		"testdata/gemini/raw/home/.gemini/tmp/project/chats/*.jsonl",
		"testdata/copilot/refused/home/.copilot/session-state/*/events.jsonl",
		"testdata/pi/gotk/home/.pi/agent/sessions/*/*.jsonl",
		"testdata/auggie/gotk/home/.augment/sessions/*.json",
	} {
		m, _ := filepath.Glob(p)
		for _, file := range m {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			if strings.HasSuffix(file, ".json") {
				f.Add(b) // a whole-file transcript (Auggie's)
				continue
			}
			for _, line := range bytes.Split(b, []byte("\n")) {
				if len(line) < 4<<10 {
					f.Add(line)
				}
			}
		}
	}
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"1","name":"Bash","input":{"command":"git status | $(x"}}]}}` + "\n" + `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"1","content":[{"type":"text","text":"x"}]}]}}`))
	d := &deciders{env: permission.Env{Getenv: func(string) string { return "" }, Home: f.TempDir()}}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "t.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				lines++
			}
		}
		for _, a := range agents {
			if a.name == "opencode" {
				continue
			}
			s := &scan{agent: a.name}
			var calls []*Call
			s.emit = func(c *Call) { calls = append(calls, c) }
			a.read(path, s)
			if s.stats.Records > lines && a.name != "auggie" || s.stats.Skipped > s.stats.Records {
				t.Fatalf("%s: %+v from %d lines", a.name, s.stats, lines)
			}
			for _, c := range calls {
				c.plain()
				wentThrough(c, newRunIndex(nil))
				d.classify(c, a.host)
			}
		}
	})
}
