package install

import (
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// TestBlockRoundTrip: appending gotk's block and removing it returns the
// file byte for byte, whatever its ending.
func TestBlockRoundTrip(t *testing.T) {
	for _, in := range []string{"", "x", "x\n", "x\n\n", "a\r\nb\r\n", "a\r\nb", "# t\n[[hooks]]\nname = \"a\"\n"} {
		for _, mk := range []agentconf.Markers{agentconf.MDMarkers, agentconf.TOMLMarkers} {
			out, u, err := upsertBlock([]byte(in), mk, "body\nline 2")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(in, "\r\n") && strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
				t.Errorf("%q: mixed line endings: %q", in, out)
			}
			again, u2, _ := upsertBlock(out, mk, "body\nline 2")
			if string(again) != string(out) || u2 != nil {
				t.Errorf("%q: second upsert changed %q to %q", in, out, again)
			}
			back, removed, err := removeBlock(out, mk, u)
			if err != nil || !removed || string(back) != in {
				t.Errorf("%q: round trip gave %q (removed=%v, err=%v)", in, back, removed, err)
			}
		}
	}
}

func TestTOMLFlag(t *testing.T) {
	for _, in := range []string{
		"",
		"model = \"x\"\n",
		"enable_experimental_hooks = false\n[tools]\na = 1\n",
		"# c\r\nenable_experimental_hooks=false # off\r\n",
	} {
		out, u, err := setTOMLFlag([]byte(in), "enable_experimental_hooks")
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		var doc map[string]any
		if _, err := decodeTOML(out, &doc); err != nil || doc["enable_experimental_hooks"] != true {
			t.Fatalf("%q: flag not set in %q (%v)", in, out, err)
		}
		back, ok := unsetTOMLFlag(out, u)
		if !ok || string(back) != in {
			t.Errorf("%q: undo gave %q", in, back)
		}
	}
	if _, _, err := setTOMLFlag([]byte("[x]\nenable_experimental_hooks = false\n"), "enable_experimental_hooks"); err != nil {
		t.Errorf("a key inside a table is not the top-level key: %v", err)
	}
	if _, _, err := setTOMLFlag([]byte("enable_experimental_hooks = \"no\"\n"), "enable_experimental_hooks"); err == nil {
		t.Error("a non-boolean value must be refused")
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/local/bin/gotk-hook-claude": "/usr/local/bin/gotk-hook-claude",
		"/home/a b/bin/gotk-hook-claude":  "'/home/a b/bin/gotk-hook-claude'",
		"/home/it's/bin/gotk-hook-claude": `'/home/it'\''s/bin/gotk-hook-claude'`,
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %q, want %q", in, got, want)
		}
		if agentconf.ProgramBase(shellQuote(in)) != "gotk-hook-claude" && !strings.Contains(in, "'") {
			t.Errorf("ProgramBase(%q) does not find the hook", shellQuote(in))
		}
	}
}
