package gain

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gotk-dev/gotk/runner/store"
)

func TestSavingsAreCappedAndSigned(t *testing.T) {
	day := time.Date(2025, 3, 1, 12, 0, 0, 0, time.Local)
	runs := []store.Run{
		{At: day, Rule: "git.log", Measured: true, RawBytes: 100000, Shown: 1000}, // only 30000 would have reached the agent
		{At: day, Rule: "git.status", Measured: true, RawBytes: 400, Shown: 100},  // 300
		{At: day, Rule: "git.status", Measured: true, RawBytes: 100, Shown: 140},  // grew: -40
		{At: day, Rule: "ls", Measured: true, RawBytes: 90000, Shown: 50000},      // both past the limit: 0
		{At: day.AddDate(0, 0, 1), Rule: "", Measured: false},                     // passed through
	}
	rep := Build(runs, "", AgentLimit)
	if rep.Total.Runs != 5 || rep.Total.Measured != 4 {
		t.Fatalf("runs %d measured %d", rep.Total.Runs, rep.Total.Measured)
	}
	if want := int64(29000 + 300 - 40 + 0); rep.Total.Saved != want {
		t.Fatalf("saved %d, want %d", rep.Total.Saved, want)
	}
	if rep.Total.SavedTokens() != rep.Total.Saved/4 {
		t.Fatal("tokens are bytes/4")
	}
	if rep.ByRule[0].Key != "git.log" || rep.ByRule[1].Key != "git.status" || rep.ByRule[1].Saved != 260 {
		t.Fatalf("by rule: %+v", rep.ByRule)
	}
	if len(rep.ByDay) != 2 || rep.ByDay[0].Key != "2025-03-01" || rep.ByDay[1].Runs != 1 || rep.ByDay[1].Saved != 0 {
		t.Fatalf("by day: %+v", rep.ByDay)
	}
	var b bytes.Buffer
	rep.Graph(&b, day.AddDate(0, 0, 1), 30)
	if !strings.Contains(b.String(), "03-01 "+strings.Repeat("█", 40)) {
		t.Fatalf("graph:\n%s", b.String())
	}
}

func TestNegativeDay(t *testing.T) {
	now := time.Date(2025, 3, 2, 12, 0, 0, 0, time.Local)
	rep := Build([]store.Run{{At: now, Rule: "x", Measured: true, RawBytes: 100, Shown: 500}}, "", AgentLimit)
	if rep.Total.Saved != -400 || rep.Total.SavedTokens() != -100 {
		t.Fatalf("saved %d", rep.Total.Saved)
	}
	var b bytes.Buffer
	rep.Graph(&b, now, 30)
	if !strings.Contains(b.String(), "03-02 "+strings.Repeat("░", 40)+" -100") {
		t.Fatalf("graph:\n%s", b.String())
	}
}

func TestRecount(t *testing.T) {
	samples := []store.Entry{{Raw: []byte(strings.Repeat("hello world\n", 100)), Shown: []byte("hello world\n"), RawSize: 1200, KeptSize: 1200}}
	ex, err := Recount(samples, AgentLimit)
	if err != nil {
		t.Fatal(err)
	}
	// "hello world\n" is a handful of o200k tokens; 100 of them many more.
	if ex.Samples != 1 || ex.ShownTokens < 2 || ex.ShownTokens > 5 || ex.RawTokens < 100*ex.ShownTokens/2 || ex.SavedTokens != ex.RawTokens-ex.ShownTokens {
		t.Fatalf("%+v", ex)
	}
	if ex.EstimatedSaved != (1200-12)/4 {
		t.Fatalf("estimate %d", ex.EstimatedSaved)
	}
}

func TestCapUTF8(t *testing.T) {
	s := []byte("aé") // 'é' is 2 bytes
	if got := string(capUTF8(s, 2)); got != "a" {
		t.Fatalf("%q", got)
	}
}
