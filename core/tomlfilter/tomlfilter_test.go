package tomlfilter

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func mustParse(t *testing.T, src string) []Spec {
	t.Helper()
	specs, problems := Parse("f.toml", []byte(src))
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	return specs
}

func apply(t *testing.T, src, input string) string {
	t.Helper()
	f, err := Compile(mustParse(t, src)[0])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(f.Apply(SplitLines(input), Options{}).Lines, "\n")
}

// TestRefusedWithFileLine: unknown fields, bad regexes, unanchored
// matches, keep+strip and bad counts refuse that filter only, named with
// file:line; the other filters of the file still load.
func TestRefusedWithFileLine(t *testing.T) {
	src := `schema_version = 1

[filters.good]
match_command = "^good\\b"
max_lines = 3

[filters.typo]
match_command = "^typo"
strip_line_matching = ["x"]

[filters.badre]
match_command = "^badre"
strip_lines_matching = [
  "^ok",
  "([unclosed",
]

[filters.loose]
match_command = "^a|b"

[filters.both]
match_command = "^both"
strip_lines_matching = ["a"]
keep_lines_matching = ["b"]

[filters.zero]
match_command = "^zero"
head_lines = 0

[filters.nested]
match_command = "^nested"
replace = [{ pattern = "a", replacement = "b", flags = "i" }]
`
	specs, problems := Parse("/cfg/filters.toml", []byte(src))
	if len(specs) != 1 || specs[0].Name != "good" || specs[0].Line != 3 {
		t.Fatalf("specs = %+v", specs)
	}
	want := map[string]string{
		"typo":   `/cfg/filters.toml:9: filter "typo": unknown field "strip_line_matching"`,
		"badre":  `/cfg/filters.toml:13: filter "badre": invalid strip_lines_matching regex "([unclosed"`,
		"loose":  `/cfg/filters.toml:19: filter "loose": match_command "^a|b" has a top-level branch`,
		"both":   `/cfg/filters.toml:24: filter "both": strip_lines_matching and keep_lines_matching are mutually exclusive`,
		"zero":   `/cfg/filters.toml:28: filter "zero": head_lines = 0: want a count from 1`,
		"nested": `/cfg/filters.toml:32: filter "nested": unknown field "replace.flags"`,
	}
	got := map[string]string{}
	for _, p := range problems {
		got[p.Filter] = p.String()
	}
	for name, w := range want {
		if !strings.HasPrefix(got[name], w) || !strings.HasSuffix(got[name], "filter skipped") {
			t.Errorf("%s: got %q, want prefix %q", name, got[name], w)
		}
	}
	if len(problems) != len(want) {
		t.Errorf("problems = %v", problems)
	}
}

func TestFileRefused(t *testing.T) {
	for src, want := range map[string]string{
		"schema_version = 2\n[filters.a]\nmatch_command = \"^a\"\n": "f.toml:1: unsupported schema_version 2",
		"[filters.a]\nmatch_command = \"^a\"\n":                     "f.toml:1: schema_version = 1 is missing",
		"schema_version = 1\n[filters.a\n":                          "f.toml:3: not valid TOML",
	} {
		specs, problems := Parse("f.toml", []byte(src))
		if len(specs) != 0 || len(problems) != 1 || !strings.HasPrefix(problems[0].String(), want) {
			t.Errorf("%q: specs %v problems %v, want %q", src, specs, problems, want)
		}
	}
	// a BOM is fine
	if specs, _ := Parse("f.toml", []byte("\uFEFFschema_version = 1\n[filters.a]\nmatch_command = \"^a\"\n")); len(specs) != 1 {
		t.Errorf("BOM: %v", specs)
	}
}

// TestStages pins RTK's stage order and wording.
func TestStages(t *testing.T) {
	cases := []struct{ name, src, in, want string }{
		{"strip ansi then keep", `strip_ansi = true
keep_lines_matching = ["^error"]`, "\x1b[31merror\x1b[0m: a\nnoise\nerror: b", "error: a\nerror: b"},
		{"replace chains, with backreferences, before match_output", `replace = [
  { pattern = "^(\\w+)=(\\d+)$", replacement = "$2 $1" },
  { pattern = "^1 ", replacement = "one " },
]
match_output = [{ pattern = "one a", message = "saw one a" }]`, "a=1\nb=2", "saw one a"},
		{"match_output unless keeps the output", `match_output = [{ pattern = "done", message = "ok", unless = "(?i)warn" }]`, "done\nWARNING x", "done\nWARNING x"},
		{"head", "head_lines = 2", "1\n2\n3\n4", "1\n2\n... (2 lines omitted)"},
		{"tail", "tail_lines = 1", "1\n2\n3", "... (2 lines omitted)\n3"},
		{"head and tail", "head_lines = 1\ntail_lines = 1", "1\n2\n3\n4", "1\n... (2 lines omitted)\n4"},
		{"max after head counts the note", "head_lines = 3\nmax_lines = 2", "1\n2\n3\n4\n5", "1\n2\n... (2 lines truncated)"},
		{"truncate", "truncate_lines_at = 6", "abcdefgh\nabc\nétéété!", "abc...\nabc\nété..."},
		{"on_empty", `strip_lines_matching = ["^\\s*$", "^Compiling"]
on_empty = "build: ok"`, "Compiling a\n\nCompiling b", "build: ok"},
		{"strip keeps order", `strip_lines_matching = ["^-"]`, "a\n-b\nc", "a\nc"},
	}
	for _, c := range cases {
		src := "schema_version = 1\n[filters.x]\nmatch_command = \"^x\"\n" + c.src + "\n"
		if got := apply(t, src, c.in); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestFailedRunKeepsItsOutput: a failing command's output is never
// replaced by a match_output message or on_empty.
func TestFailedRunKeepsItsOutput(t *testing.T) {
	f, _ := Compile(mustParse(t, `schema_version = 1
[filters.x]
match_command = "^x"
match_output = [{ pattern = "Deployed", message = "ok" }]
strip_lines_matching = ["^debug"]
on_empty = "x: ok"
`)[0])
	r := f.Apply([]string{"Deployed to a", "error: b"}, Options{Failed: true})
	if strings.Join(r.Lines, "\n") != "Deployed to a\nerror: b" || r.Message {
		t.Errorf("failed run: %+v", r)
	}
	r = f.Apply([]string{"debug 1"}, Options{Failed: true})
	if len(r.Lines) != 0 || r.Message {
		t.Errorf("failed run, all stripped: %+v", r)
	}
	r = f.Apply([]string{"debug 1", "x"}, Options{Notes: Notes{Where: "gotk recall ID"}})
	if strings.Join(r.Lines, "\n") != "x" {
		t.Errorf("%+v", r)
	}
}

// TestFailedRunKeepsItsEnd: a failing run's cut keeps the head and the
// end of its output (where it says why it failed) around one note; a run
// that succeeded keeps RTK's head-only cut.
func TestFailedRunKeepsItsEnd(t *testing.T) {
	var in []string
	for i := 1; i < 80; i++ {
		in = append(in, fmt.Sprintf("step %d of the rollout", i))
	}
	in = append(in, "FATAL: rollout stuck")
	for _, rule := range []string{"max_lines = 12", "head_lines = 12", "head_lines = 30\nmax_lines = 12"} {
		f, err := Compile(mustParse(t, "schema_version = 1\n[filters.x]\nmatch_command = \"^x\"\n"+rule+"\n")[0])
		if err != nil {
			t.Fatal(err)
		}
		r := f.Apply(in, Options{Failed: true, Notes: Notes{Where: "gotk recall ID"}})
		notes := 0
		for _, l := range r.Lines {
			if strings.HasPrefix(l, "... (") {
				notes++
				if !strings.Contains(l, "gotk recall ID") {
					t.Errorf("%s: note without recall: %q", rule, l)
				}
			}
		}
		if len(r.Lines) > 13 || r.Lines[0] != in[0] || r.Lines[len(r.Lines)-1] != "FATAL: rollout stuck" || notes != 1 {
			t.Errorf("%s, failed: %q", rule, r.Lines)
		}
		ok := f.Apply(in, Options{Notes: Notes{Where: "gotk recall ID"}})
		if last := ok.Lines[len(ok.Lines)-1]; !strings.HasPrefix(last, "... (") {
			t.Errorf("%s, green: ends %q, want the note", rule, last)
		}
	}
}

func TestNotesNameWhere(t *testing.T) {
	f, _ := Compile(mustParse(t, "schema_version = 1\n[filters.x]\nmatch_command = \"^x\"\nmax_lines = 1\n")[0])
	r := f.Apply([]string{"a", "b", "c"}, Options{Notes: Notes{Where: "gotk recall 7f3a"}})
	if got := strings.Join(r.Lines, "\n"); got != "a\n... (2 lines truncated; gotk recall 7f3a)" || r.Cut != 2 {
		t.Errorf("got %q cut %d", got, r.Cut)
	}
}

func TestInlineTests(t *testing.T) {
	specs := mustParse(t, `schema_version = 1
[filters.x]
match_command = "^x"
strip_lines_matching = ["^noise"]

[[tests.x]]
name = "drops noise"
input = """
noise 1
kept
"""
expected = "kept"

[[tests.x]]
name = "wrong on purpose"
input = "a"
expected = "b"
`)
	f, _ := Compile(specs[0])
	out := f.RunTests()
	if len(out) != 2 || !out[0].Passed || out[1].Passed || out[1].Actual != "a" {
		t.Errorf("%+v", out)
	}
}

func TestAnchored(t *testing.T) {
	for p, want := range map[string]bool{
		`^jq\b`: true, `(?i)^jq`: true, `^a|^b`: true, `^(a|b)`: true, `^a|b`: false, `jq`: false,
		`^[|]x`: true, `^a\|b`: true, `(^a)`: false,
	} {
		if Anchored(p) != want {
			t.Errorf("Anchored(%q) = %v", p, !want)
		}
	}
}

func TestLiteralPrefix(t *testing.T) {
	for p, want := range map[string]string{
		`^jq\b`: "jq", `^my-tool\s+run`: "my-tool", `^(deploy)\.sh`: "deploy.sh", `(?i)^jq`: "",
		`^(jq|yq)`: "", `^\./scripts/x`: "./scripts/x", `^a*b`: "", `^ab?c`: "a",
	} {
		if got := literalPrefix(p); got != want {
			t.Errorf("literalPrefix(%q) = %q, want %q", p, got, want)
		}
	}
}

// testEnv is a private XDG world rooted at dir, working in cwd.
func testEnv(t *testing.T, cwd string) Env {
	root := t.TempDir()
	vars := map[string]string{
		"XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"XDG_DATA_HOME":   filepath.Join(root, "data"),
		"XDG_CACHE_HOME":  filepath.Join(root, "cache"),
	}
	return Env{Getenv: func(k string) string { return vars[k] }, Home: root, Cwd: cwd}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

const projectFilters = "schema_version = 1\n[filters.deploy]\nmatch_command = \"^\\\\./deploy\\\\.sh\"\n"

// TestTrust: a project file counts only once trusted; a change untrusts
// it with one warning; gotk trust pins it again; untrust removes the pin.
func TestTrust(t *testing.T) {
	proj := t.TempDir()
	os.Mkdir(filepath.Join(proj, ".git"), 0o755)
	sub := filepath.Join(proj, "src")
	os.Mkdir(sub, 0o755)
	e := testEnv(t, sub)
	file := filepath.Join(proj, ".gotk", "filters.toml")
	write(t, file, projectFilters)

	if ProjectFile(e) != file {
		t.Fatalf("ProjectFile = %q", ProjectFile(e))
	}
	if f := Find(e); len(f.Sources) != 0 || f.Untrusted != file || f.State != Untrusted {
		t.Fatalf("untrusted: %+v", f)
	}
	if m := LoadMatcher(e); m.Len() != 0 {
		t.Fatal("an untrusted project file is used")
	}
	if _, _, err := TrustPath(e, file); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(TrustFile(e)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("trust file: %v %v", fi, err)
	}
	m := LoadMatcher(e)
	if en, ok := m.Match("./deploy.sh prod"); !ok || en.Scope != Project || en.Source != file {
		t.Fatalf("trusted: %v %v", en, ok)
	}
	write(t, file, projectFilters+"# an edit\n")
	m = LoadMatcher(e)
	if m.Len() != 0 || len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], file+" changed since `gotk trust`") {
		t.Fatalf("changed: len %d warnings %q", m.Len(), m.Warnings)
	}
	if m = LoadMatcher(e); len(m.Warnings) != 0 || m.Len() != 0 {
		t.Fatalf("second look: warnings %q len %d (one warning only)", m.Warnings, m.Len())
	}
	if f := Find(e); f.State != Changed {
		t.Fatalf("state %v", f.State)
	}
	TrustPath(e, file)
	if m = LoadMatcher(e); m.Len() != 1 {
		t.Fatal("re-trusted file not used")
	}
	if _, ok, _ := UntrustPath(e, file); !ok {
		t.Fatal("untrust found no pin")
	}
	if m = LoadMatcher(e); m.Len() != 0 {
		t.Fatal("untrusted file still used")
	}
}

// TestPrecedence: project > global filters.toml > filters.d, first match
// wins.
func TestPrecedence(t *testing.T) {
	proj := t.TempDir()
	e := testEnv(t, proj)
	cfg := e.ConfigDir()
	write(t, filepath.Join(cfg, "filters.toml"), "schema_version = 1\n[filters.g]\nmatch_command = \"^tool\"\n[filters.h]\nmatch_command = \"^other\"\n")
	write(t, filepath.Join(cfg, "filters.d", "b.toml"), "schema_version = 1\n[filters.d]\nmatch_command = \"^other|^third\"\n")
	write(t, filepath.Join(proj, ".gotk", "filters.toml"), "schema_version = 1\n[filters.p]\nmatch_command = \"^tool run\"\n")
	TrustPath(e, filepath.Join(proj, ".gotk", "filters.toml"))
	m := LoadMatcher(e)
	for line, want := range map[string]string{"tool run x": "p", "tool": "g", "other": "h", "third": "d", "none": ""} {
		en, ok := m.Match(line)
		got := ""
		if ok {
			got = en.Name
		}
		if got != want {
			t.Errorf("%q matched %q, want %q", line, got, want)
		}
	}
}

func bigFile(n int) string {
	var b strings.Builder
	b.WriteString("schema_version = 1\n")
	for i := range n {
		fmt.Fprintf(&b, "\n[filters.tool%03d]\ndescription = \"private tool %d\"\nmatch_command = \"^tool%03d( |$)\"\nstrip_lines_matching = [\"^debug\", \"^\\\\s*$\"]\nmax_lines = 50\n\n[[tests.tool%03d]]\nname = \"t\"\ninput = \"debug\\nx\"\nexpected = \"x\"\n", i, i, i, i)
	}
	return b.String()
}

// bigFileEnv is an environment under root whose global filters.toml holds
// bigFile(n).
func bigFileEnv(root string, n int) Env {
	vars := map[string]string{"XDG_CONFIG_HOME": filepath.Join(root, "c"), "XDG_DATA_HOME": filepath.Join(root, "d"), "XDG_CACHE_HOME": filepath.Join(root, "k")}
	e := Env{Getenv: func(k string) string { return vars[k] }, Home: root, Cwd: root}
	os.MkdirAll(filepath.Join(root, "c", "gotk"), 0o755)
	os.WriteFile(filepath.Join(root, "c", "gotk", "filters.toml"), []byte(bigFile(n)), 0o644)
	return e
}

// TestMatcherCache: a file seen before (same size and mtime) is not parsed
// again: a cache hit survives content the parser would refuse.
func TestMatcherCache(t *testing.T) {
	e := testEnv(t, t.TempDir())
	path := filepath.Join(e.ConfigDir(), "filters.toml")
	src := bigFile(200)
	write(t, path, src)
	m := LoadMatcher(e)
	if m.Len() != 200 || len(m.Warnings) != 0 {
		t.Fatalf("len %d warnings %v", m.Len(), m.Warnings)
	}
	fi, _ := os.Stat(path)
	// same size, same mtime, not TOML: only a cache hit still matches
	os.WriteFile(path, []byte(strings.Repeat("#", len(src))), 0o644)
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	if en, ok := LoadMatcher(e).Match("tool123 --x"); !ok || en.Name != "tool123" {
		t.Fatalf("cache not used: %v %v", en, ok)
	}
	// a change of mtime: parsed anew, and its problem reported
	os.Chtimes(path, fi.ModTime().Add(time.Second), fi.ModTime().Add(time.Second))
	if m := LoadMatcher(e); m.Len() != 0 || len(m.Warnings) != 1 {
		t.Fatalf("after change: len %d warnings %v", m.Len(), m.Warnings)
	}
}

// BenchmarkMatcher200: a hook call's cost for a 200-filter user file (the
// cache warm, as on every call after the first).
func BenchmarkMatcher200(b *testing.B) {
	e := bigFileEnv(b.TempDir(), 200)
	LoadMatcher(e)
	for b.Loop() {
		m := LoadMatcher(e)
		if _, ok := m.Match("tool150 run"); !ok {
			b.Fatal("no match")
		}
	}
}

// BenchmarkParse200 is what each call would cost without the cache.
func BenchmarkParse200(b *testing.B) {
	src := []byte(bigFile(200))
	for b.Loop() {
		specs, _ := Parse("f.toml", src)
		for _, s := range specs {
			Compile(s)
		}
	}
}
