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
		{At: day, Command: "git log", Measured: true, RawBytes: 100000, Shown: 1000, Duration: time.Second},           // only 30000 would have reached the agent
		{At: day, Command: "git status", Measured: true, RawBytes: 400, Shown: 100, Duration: 200 * time.Millisecond}, // 300
		{At: day, Command: "git -C x status -s", Measured: true, RawBytes: 100, Shown: 140},                           // grew: -40
		{At: day, Command: "ls -la", Measured: true, RawBytes: 90000, Shown: 50000},                                   // both past the limit: 0
		{At: day.AddDate(0, 0, 1), Command: "frobnicate", Measured: false},                                            // passed through
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
	if rep.ByRule[0].Key != "git log" || rep.ByRule[1].Key != "git status" || rep.ByRule[1].Saved != 260 || rep.ByRule[1].Time != 200*time.Millisecond {
		t.Fatalf("by command: %+v", rep.ByRule)
	}
	if len(rep.ByDay) != 2 || rep.ByDay[0].Key != "2025-03-01" || rep.ByDay[1].Runs != 1 || rep.ByDay[1].Saved != 0 {
		t.Fatalf("by day: %+v", rep.ByDay)
	}
	if len(rep.ByWeek) != 1 || rep.ByWeek[0].Key != "2025-W09" || len(rep.ByMonth) != 1 || rep.ByMonth[0].Key != "2025-03" {
		t.Fatalf("by week %+v, by month %+v", rep.ByWeek, rep.ByMonth)
	}
	var b bytes.Buffer
	rep.Graph(&b, Day, 80, false)
	// Only active days; the bar fills the width: 80 - "2025-03-01" - "7,315" - 2 spaces.
	if !strings.Contains(b.String(), "2025-03-01 "+strings.Repeat("█", 80-10-5-2)+" 7,315\n") || strings.Count(b.String(), "\n") != 3 {
		t.Fatalf("graph:\n%s", b.String())
	}
	b.Reset()
	rep.Text(&b, Day)
	for _, want := range []string{"saved ≈ 7,315 tokens (48.4%): 60,500 raw bytes shown as 31,240, in 1.2s of commands",
		"\ngit status      2      ", "\nfrobnicate      1 ", "1.0s\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestNegativeDay(t *testing.T) {
	now := time.Date(2025, 3, 2, 12, 0, 0, 0, time.Local)
	rep := Build([]store.Run{{At: now, Command: "x", Measured: true, RawBytes: 100, Shown: 500}}, "", AgentLimit)
	if rep.Total.Saved != -400 || rep.Total.SavedTokens() != -100 {
		t.Fatalf("saved %d", rep.Total.Saved)
	}
	var b bytes.Buffer
	rep.Graph(&b, Day, 40, true)
	if !strings.Contains(b.String(), "2025-03-02 \x1b[33m"+strings.Repeat("░", 40-10-4-2)+"\x1b[0m -100") {
		t.Fatalf("graph:\n%q", b.String())
	}
}

func TestThousandsAndDuration(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", -1234567: "-1,234,567", 100000: "100,000"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
	for d, want := range map[time.Duration]string{0: "-", 340 * time.Millisecond: "340ms", 12345 * time.Millisecond: "12.3s",
		252 * time.Second: "4m12s", 125 * time.Minute: "2h05m"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
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
