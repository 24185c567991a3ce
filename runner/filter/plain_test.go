package filter

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestPlainSizeMatchesBaseline: for every corpus case where gotk asked the
// tool for machine output and rebuilds the tool's own format from it, the
// rebuilt text (what recall prints and gain counts as raw) is within 10% of
// the plain output captured side by side with the real tool.
func TestPlainSizeMatchesBaseline(t *testing.T) {
	n := 0
	for _, c := range loadCorpus(t) {
		p, ok := For(c.match.Rule.Handler).(Plainer)
		if !ok || c.baseline == nil {
			continue
		}
		plain, ok := p.Plain(c.input())
		if !ok {
			t.Errorf("%s: no plain rendering of %q", c.name, c.ran)
			continue
		}
		n++
		got, want := len(plain)+len(c.stderr), len(c.baseline)
		t.Logf("%s: rebuilt %d B, real %d B, machine %d B", c.name, got, want, len(c.stdout)+len(c.stderr))
		if d := got - want; d*10 > want || -d*10 > want {
			t.Errorf("%s: plain rendering %d B, real plain output %d B (more than 10%% apart)\n%s", c.name, got, want, plain)
		}
		for _, bad := range []string{"\x1e", "\x1f", `"Action"`} {
			if strings.Contains(string(plain), bad) {
				t.Errorf("%s: plain rendering holds %q", c.name, bad)
			}
		}
	}
	if n == 0 {
		t.Fatal("no corpus case has a plain rendering")
	}
}

// TestStreamMatchesPlain: a Streamer fed the machine output a line at a
// time (the live part of a long run) prints what Plain makes of the whole,
// for every corpus case; only where it stands between packages may a line
// that is no event come earlier, so the test compares the lines as a set
// where the outputs differ in order only.
func TestStreamMatchesPlain(t *testing.T) {
	n := 0
	for _, c := range loadCorpus(t) {
		s, ok := For(c.match.Rule.Handler).(Streamer)
		if !ok || slices.Equal(c.argv, c.ran) {
			continue
		}
		whole, ok := s.Plain(c.input())
		if !ok {
			continue
		}
		n++
		conv := s.Stream(c.input())
		var got []byte
		for _, l := range bytes.SplitAfter(c.stdout, []byte("\n")) {
			if len(l) > 0 {
				got = append(got, conv(l)...)
			}
		}
		got = append(got, conv(nil)...)
		if bytes.Equal(got, whole) {
			continue
		}
		a, b := strings.Split(string(got), "\n"), strings.Split(string(whole), "\n")
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Errorf("%s: streamed %d B, whole %d B\n--- streamed\n%s--- whole\n%s", c.name, len(got), len(whole), got, whole)
		}
	}
	if n == 0 {
		t.Fatal("no corpus case for a Streamer")
	}
}
