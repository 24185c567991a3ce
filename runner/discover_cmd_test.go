package runner

import (
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
