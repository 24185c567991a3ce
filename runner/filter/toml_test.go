package filter

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/core/tomlfilter"
)

// TestBuiltinGenerated: builtin_toml.go is builtin/*.toml as they are now
// (run go generate ./filter after editing one).
func TestBuiltinGenerated(t *testing.T) {
	files, _ := filepath.Glob("builtin/*.toml")
	sort.Strings(files)
	var specs []tomlfilter.Spec
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, problems := tomlfilter.Parse(f, data)
		for _, p := range problems {
			t.Errorf("%s", p)
		}
		specs = append(specs, s...)
	}
	if !reflect.DeepEqual(specs, builtinSpecs) {
		t.Fatal("builtin_toml.go is stale: run `go generate ./filter` in runner/")
	}
}

// TestBuiltinInlineTests runs every built-in filter's [[tests.NAME]]
// (what `gotk filters test` runs), and requires each to have one.
func TestBuiltinInlineTests(t *testing.T) {
	for _, s := range builtinSpecs {
		f, err := tomlfilter.Compile(s)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if len(s.Tests) == 0 {
			t.Errorf("%s (%s) has no inline test", s.Name, s.Source)
		}
		for _, o := range f.RunTests() {
			if !o.Passed {
				t.Errorf("%s: %s:\n--- expected ---\n%s\n--- actual ---\n%s", s.Name, o.Test, o.Expected, o.Actual)
			}
		}
	}
}

// TestBuiltinRows: every built-in filter is some registry row's handler,
// and its match_command matches the commands of its corpus cases.
func TestBuiltinRows(t *testing.T) {
	used := map[string]bool{}
	for _, r := range registry.Rules() {
		used[r.Handler] = true
	}
	for _, s := range builtinSpecs {
		if !used[s.Name] {
			t.Errorf("built-in filter %s is no registry row's handler", s.Name)
		}
	}
	byName := map[string]*tomlfilter.Filter{}
	for _, s := range builtinSpecs {
		byName[s.Name], _ = tomlfilter.Compile(s)
	}
	for _, c := range loadCorpus(t) {
		f := byName[c.match.Rule.Handler]
		if f == nil {
			continue
		}
		line := strings.Join(c.argv[c.match.Tool:], " ")
		if !f.Matches(line) {
			t.Errorf("%s: %s's match_command %q does not match %q", c.name, f.Name, f.MatchCommand, line)
		}
	}
}

func tomlInput(spec string, stdout, stderr string, exit int) (Filter, Input) {
	specs, problems := tomlfilter.Parse("t.toml", []byte("schema_version = 1\n[filters.t]\nmatch_command = \"^t\"\n"+spec))
	if len(problems) > 0 {
		panic(problems[0].String())
	}
	f, _ := tomlfilter.Compile(specs[0])
	return tomlFilter{f: f}, Input{Argv: []string{"t"}, RanArgv: []string{"t"}, Stdout: []byte(stdout), Stderr: []byte(stderr),
		Combined: []byte(stdout + stderr), Exit: exit, Recall: func() string { return testRecall }}
}

// TestTOMLFidelity: gotk's rules on a declarative filter.
func TestTOMLFidelity(t *testing.T) {
	// every cap names the recall; stderr is kept as it came
	f, in := tomlInput("max_lines = 2\n", "a\nb\nc\nd\n", "warning: x\n", 0)
	out, _ := f.Render(in)
	if string(out.Stdout) != "a\nb\n... (2 lines truncated; gotk recall TEST01)\n" || string(out.Stderr) != "warning: x\n" {
		t.Errorf("cap: %q %q", out.Stdout, out.Stderr)
	}
	// a failing run is never replaced by a message
	f, in = tomlInput("match_output = [{ pattern = \"Deploying\", message = \"deployed\" }]\non_empty = \"ok\"\n", "Deploying a\nerror: quota\n", "", 3)
	out, _ = f.Render(in)
	if strings.Contains(string(out.Stdout), "deployed") || !strings.Contains(string(out.Stdout), "error: quota") {
		t.Errorf("red run: %q", out.Stdout)
	}
	// a failing run filtered to nothing: the raw output is printed
	f, in = tomlInput("strip_lines_matching = [\".\"]\n", "boom\n", "", 1)
	if _, err := f.Render(in); err == nil {
		t.Error("a red run rendered to nothing")
	}
	// filter_stderr filters both streams, in arrival order
	f, in = tomlInput("filter_stderr = true\nstrip_lines_matching = [\"^INFO\"]\n", "INFO a\n", "INFO b\nERROR c\n", 0)
	out, _ = f.Render(in)
	if string(out.Stdout) != "ERROR c\n" || len(out.Stderr) != 0 {
		t.Errorf("filter_stderr: %q %q", out.Stdout, out.Stderr)
	}
	// CRLF and bytes that are not UTF-8 survive; the rules do not see the CR
	f, in = tomlInput("strip_lines_matching = [\"^noise$\"]\ntruncate_lines_at = 40\n", "noise\r\n"+hostile+"\r\n", "", 0)
	out, _ = f.Render(in)
	if string(out.Stdout) != hostile+"\r\n" {
		t.Errorf("bytes: %q", out.Stdout)
	}
	// replace rules that grow the text without end: capped, and said so
	f, in = tomlInput("head_lines = 1\n"+strings.Repeat("[[filters.t.replace]]\npattern = '.+'\nreplacement = '$0$0'\n", 40), "ab\ncd\n", "", 0)
	out, _ = f.Render(in)
	if len(out.Stdout) > 2*tomlfilter.GrowthLimit || !strings.HasSuffix(string(out.Stdout), "the rest is left out; gotk recall TEST01)\n") {
		t.Errorf("growth: %d bytes, ends %q", len(out.Stdout), out.Stdout[max(0, len(out.Stdout)-120):])
	}
	// a truncated line says so
	f, in = tomlInput("truncate_lines_at = 5\n", "abcdefgh\n", "", 0)
	out, _ = f.Render(in)
	if string(out.Stdout) != "ab...\n... (1 line cut at 5 characters; gotk recall TEST01)\n" {
		t.Errorf("truncate: %q", out.Stdout)
	}
}

// TestDeclarativeFiltersReadTheToolsStream: a built-in declarative filter
// whose tool writes its output on stderr (markdownlint-cli, composer, uv)
// must filter stderr, or none of its rules ever applies to a real run —
// as happened to markdownlint and composer. Checked on every real capture
// whose output is on stderr alone.
func TestDeclarativeFiltersReadTheToolsStream(t *testing.T) {
	for _, c := range loadCorpus(t) {
		lt, ok := For(c.match.Rule.Handler).(lazyTOML)
		if !ok || strings.Contains(c.note, "sample") || len(c.stdout) > 0 || bytes.Count(c.stderr, []byte("\n")) < 3 {
			continue
		}
		if !lt.spec.FilterStderr {
			t.Errorf("%s: %s writes on stderr, but filter %s does not set filter_stderr = true", c.name, c.argv[0], c.match.Rule.Handler)
		}
	}
}
