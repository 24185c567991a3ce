package store

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzHeadJSON: a journal head written by hand is byte for byte what
// encoding/json writes (HTML escaping off), so the reader's json.Unmarshal
// gets back every field.
func FuzzHeadJSON(f *testing.F) {
	f.Add("0000018f-abc", int64(1764600000000), "/work/app", "git status", "git.status", "filter", true, int64(1234), int64(99), 1, int64(12), "abc123", 10, 5, int64(15), uint32(0xdeadbeef))
	f.Add("", int64(-1), "é\x00\xff<&>", "a\"b\\c\n\t\u2028", "", "", false, int64(0), int64(0), -128, int64(0), "", 0, 0, int64(0), uint32(0))
	f.Fuzz(func(t *testing.T, key string, at int64, project, command, rule, mode string, measured bool, rawBytes, shown int64, exit int, dur int64, id string, rawLen, shownLen int, size int64, crc uint32) {
		h := journalHead{Key: key, At: at, Project: project, Command: command, Rule: rule, Mode: mode, Measured: measured,
			RawBytes: rawBytes, Shown: shown, Exit: exit, Duration: dur, ID: id, RawLen: rawLen, ShownLen: shownLen, Size: size, CRC: crc}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(h); err != nil {
			t.Fatal(err)
		}
		if got := h.appendJSON(nil); !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Fatalf("appendJSON:\n got %s\nwant %s", got, want.Bytes())
		}
	})
}
