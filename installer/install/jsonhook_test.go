package install

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// pairs builds an ordered object from keys and values.
func pairs(kv ...any) agentconf.Obj {
	var o agentconf.Obj
	for i := 0; i < len(kv); i += 2 {
		o = append(o, agentconf.KV{K: kv[i].(string), V: kv[i+1]})
	}
	return o
}

func claudeSpec(cmd string, timeout int) *agentconf.HookSpec {
	return &agentconf.HookSpec{
		Event: []string{"hooks", "PreToolUse"}, Matcher: "Bash", Tool: "Bash",
		Handler: pairs("type", "command", "command", cmd, "timeout", timeout),
		CmdKey:  "command", Bin: "gotk-hook-claude",
	}
}

func cursorSpec() *agentconf.HookSpec {
	return &agentconf.HookSpec{
		Event: []string{"hooks", "preToolUse"}, Tool: "Shell",
		Handler: pairs("command", "/opt/gotk/gotk-hook-cursor", "matcher", "Shell"),
		CmdKey:  "command", Bin: "gotk-hook-cursor",
		RootKeys: pairs("version", 1),
	}
}

// droidSpec is Droid's: events at the top level, a group member of gotk's.
func droidSpec(re string) *agentconf.HookSpec {
	return &agentconf.HookSpec{
		Event: []string{"PreToolUse"}, Matcher: "Execute", Tool: "Execute",
		Handler: pairs("type", "command", "command", "/opt/gotk/gotk-hook-droid", "timeout", 10, "preserveRiskLevel", true),
		CmdKey:  "command", Bin: "gotk-hook-droid",
		Group: pairs("commandRegex", re),
	}
}

// crushSpec is Crush's: flat entries with their own matcher.
func crushSpec() *agentconf.HookSpec {
	return &agentconf.HookSpec{
		Event: []string{"hooks", "PreToolUse"}, Tool: "bash",
		Handler: pairs("name", "gotk", "matcher", "^bash$", "command", "/opt/gotk/gotk-hook-crush", "timeout", 10),
		CmdKey:  "command", Bin: "gotk-hook-crush",
	}
}

// roundTrip installs then uninstalls and checks the law the installer
// promises: the file comes back byte for byte, and a second install is a no-op.
func roundTrip(t *testing.T, s *agentconf.HookSpec, in string) string {
	t.Helper()
	out, undo, _, _, err := installJSON([]byte(in), s, agentconf.Owner{})
	if err != nil {
		t.Fatalf("install %q: %v", in, err)
	}
	if _, err := agentconf.ParseJSONC(out); err != nil {
		t.Fatalf("install made invalid JSON from %q:\n%s\n%v", in, out, err)
	}
	if !strings.Contains(string(out), s.Bin) {
		t.Fatalf("install of %q did not add the entry:\n%s", in, out)
	}
	mine := agentconf.Owner{Recorded: true, Cmd: s.Command()}
	again, _, _, _, err := installJSON(out, s, mine)
	if err != nil || string(again) != string(out) {
		t.Fatalf("second install changed the file (%v):\n%s\n---\n%s", err, out, again)
	}
	back, removed, _, err := uninstallJSON(out, s, undo, mine)
	if err != nil || !removed {
		t.Fatalf("uninstall: removed=%v err=%v", removed, err)
	}
	if string(back) != in {
		t.Fatalf("uninstall did not restore the input\nin:   %q\nout:  %q\nback: %q", in, out, back)
	}
	return string(out)
}

var jsonSeeds = []string{
	``,
	"\n",
	`{}`,
	"{}\n",
	"{\n}\n",
	`{"a":1}`,
	"{\n  \"model\": \"opus\"\n}\n",
	"{\r\n  \"model\": \"opus\",\r\n  \"hooks\": {}\r\n}\r\n",
	"{\n\t\"hooks\": {\n\t\t\"PreToolUse\": [\n\t\t\t{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"rtk hook claude\"}]}\n\t\t]\n\t}\n}\n",
	"{\n    \"hooks\": {\n        \"PreToolUse\": []\n    }\n}\n",
	"{\n  // comment\n  \"hooks\": {\n    \"BeforeTool\": [\n      {\"matcher\": \"x\"}, // trailing\n    ],\n  },\n}\n",
	"{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Edit\"} // no comma\n    ]\n  }\n}\n",
	"{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[]}]},\"x\":[1,2]}",
	"{\n  \"hooks\": {\n    \"PreToolUse\": [ /* nothing yet */ ]\n  }\n}\n",
	"{ \"hooks\" : { \"Stop\": [] } , }",
	"\xef\xbb\xbf{\"k\": \"v\"}\n",
}

func TestJSONRoundTrip(t *testing.T) {
	for _, in := range jsonSeeds {
		roundTrip(t, claudeSpec("/opt/gotk/gotk-hook-claude", 10), in)
		roundTrip(t, cursorSpec(), in)
		roundTrip(t, droidSpec(`\b(git|go)\b`), in)
		roundTrip(t, crushSpec(), in)
	}
}

// TestJSONGroupMembers: gotk's group member is written after the matcher,
// brought up to date in place, added to a group of gotk's that lacks it,
// and never set on a group that holds another hook too.
func TestJSONGroupMembers(t *testing.T) {
	mine := agentconf.Owner{Recorded: true}
	out := roundTrip(t, droidSpec(`\b(git)\b`), "{\n  \"model\": \"x\"\n}\n")
	if flat := strings.Join(strings.Fields(out), ""); !strings.Contains(flat, `"matcher":"Execute","commandRegex":"\\b(git)\\b","hooks":[`) {
		t.Fatalf("group member not after the matcher:\n%s", out)
	}
	upd, _, _, _, err := installJSON([]byte(out), droidSpec(`\b(git|go)\b`), mine)
	if err != nil || string(upd) != strings.Replace(out, `(git)`, `(git|go)`, 1) {
		t.Fatalf("update in place (%v):\n%s", err, upd)
	}
	old := "{\"PreToolUse\": [{\"matcher\": \"Execute\", \"hooks\": [{\"type\": \"command\", \"command\": \"/opt/gotk/gotk-hook-droid\", \"timeout\": 10, \"preserveRiskLevel\": true}]}]}"
	add, _, _, _, err := installJSON([]byte(old), droidSpec(`x`), mine)
	if want := strings.Replace(old, "}]}]}", "}],\"commandRegex\":\"x\"}]}", 1); err != nil || string(add) != want {
		t.Fatalf("missing member (%v):\n%s\nwant\n%s", err, add, want)
	}
	shared := "{\"PreToolUse\": [{\"matcher\": \"Execute\", \"hooks\": [{\"command\": \"mine\"}, {\"type\": \"command\", \"command\": \"/opt/gotk/gotk-hook-droid\", \"timeout\": 10, \"preserveRiskLevel\": true}]}]}"
	if same, _, _, _, err := installJSON([]byte(shared), droidSpec(`x`), mine); err != nil || string(same) != shared {
		t.Fatalf("a shared group changed (%v):\n%s", err, same)
	}
}

func TestJSONUpdateInPlace(t *testing.T) {
	in := "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"/old/gotk-hook-claude\"}\n        ]\n      }\n    ]\n  }\n}\n"
	// A record of an older gotk-install names no command: its gotk entry is
	// the one in the file.
	out, _, _, _, err := installJSON([]byte(in), claudeSpec("/new/gotk-hook-claude", 10), agentconf.Owner{Recorded: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"/new/gotk-hook-claude\",\"timeout\":10}\n        ]\n      }\n    ]\n  }\n}\n"
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}

func TestJSONErrorsNameLineCol(t *testing.T) {
	for in, want := range map[string]string{
		"{\n  \"a\": 1\n  \"b\": 2\n}": "line 3:3",
		"[1]":                          "the top-level value is not an object, line 1:1",
		"{\"hooks\": []}":              "hooks is not an object, line 1:11",
		"{\"a\": /* x":                 "parsing comment: unexpected EOF, line 1:7",
	} {
		_, _, _, _, err := installJSON([]byte(in), claudeSpec("/x/gotk-hook-claude", 10), agentconf.Owner{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
}

// FuzzJSONRoundTrip: for any JSON object document, install then uninstall
// returns the input byte for byte.
func FuzzJSONRoundTrip(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		root, err := agentconf.ParseJSONC([]byte(in))
		if err != nil || (root != nil && root.Kind != agentconf.JObject) {
			return
		}
		if root == nil && strings.TrimSpace(in) != "" {
			return // comments only
		}
		// Cross-check the parser on documents without comments.
		if !strings.ContainsAny(in, "/\ufeff") && root != nil {
			var v any
			if json.Unmarshal([]byte(in), &v) != nil && !strings.Contains(in, ",") {
				t.Fatalf("parser accepted invalid JSON %q", in)
			}
		}
		for _, s := range []*agentconf.HookSpec{claudeSpec("/opt/gotk/gotk-hook-claude", 10), cursorSpec(), droidSpec(`\b(git|go)\b`), crushSpec()} {
			if _, _, _, _, err := installJSON([]byte(in), s, agentconf.Owner{}); err != nil {
				continue // e.g. "hooks" is not an object: refused, nothing changed
			}
			roundTrip(t, s, in)
		}
	})
}
