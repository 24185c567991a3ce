package tomlfilter

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestOversizedProjectFile: a project filter file over MaxFileSize — a
// 1 GB sparse file here — is refused after a stat, trusted or not, with
// one warning naming it and its size; none of it is read, and gotk trust
// refuses it too.
func TestOversizedProjectFile(t *testing.T) {
	proj := t.TempDir()
	e := testEnv(t, proj)
	file := filepath.Join(proj, ".gotk", "filters.toml")
	write(t, file, projectFilters)
	if _, _, err := TrustPath(e, file); err != nil {
		t.Fatal(err)
	}
	const size = 1 << 30
	if err := os.Truncate(file, size); err != nil {
		t.Skip("no sparse files here:", err)
	}
	for _, pinned := range []bool{true, false} {
		if !pinned {
			UntrustPath(e, file)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		m := LoadMatcher(e)
		runtime.ReadMemStats(&after)
		if m.Len() != 0 {
			t.Errorf("pinned %v: an oversized file's filters are used", pinned)
		}
		if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], file) || !strings.Contains(m.Warnings[0], strconv.Itoa(size)) {
			t.Errorf("pinned %v: warnings %q, want one naming %s and %d", pinned, m.Warnings, file, size)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
			t.Errorf("pinned %v: loading allocated %d bytes", pinned, grew)
		}
		if f := Find(e); f.State != TooLarge || len(f.Sources) != 0 {
			t.Errorf("pinned %v: state %v sources %v", pinned, f.State, f.Sources)
		}
	}
	if _, _, err := TrustPath(e, file); err == nil || !strings.Contains(err.Error(), strconv.Itoa(size)) {
		t.Errorf("gotk trust of an oversized file: %v", err)
	}
	// a global file over the limit: refused the same way
	os.Truncate(file, 0)
	g := filepath.Join(e.ConfigDir(), "filters.toml")
	write(t, g, "")
	os.Truncate(g, MaxFileSize+1)
	if m := LoadMatcher(e); m.Len() != 0 || len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], g) {
		t.Errorf("global: len %d warnings %q", m.Len(), m.Warnings)
	}
	if _, _, problems := Load(e); len(problems) != 1 || !strings.Contains(problems[0].String(), strconv.Itoa(MaxFileSize+1)) {
		t.Errorf("global: problems %v", problems)
	}
}

// TestReplaceGrowthCapped: replace rules that double the text forty times
// end in a capped output that says so, not in a 2^40-byte string.
func TestReplaceGrowthCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("schema_version = 1\n[filters.x]\nmatch_command = \"^x\"\n")
	for range 40 {
		b.WriteString("[[filters.x.replace]]\npattern = '.+'\nreplacement = '$0$0'\n")
	}
	f, err := Compile(mustParse(t, b.String())[0])
	if err != nil {
		t.Fatal(err)
	}
	in := []string{"abcdef", "second line", "third"}
	res := f.Apply(in, Options{})
	total := 0
	for _, l := range res.Lines {
		total += len(l) + 1
	}
	if !res.Capped || total > GrowthLimit+2*len("abcdef second line third ")+1 {
		t.Fatalf("capped %v, %d bytes", res.Capped, total)
	}
	if !strings.HasPrefix(res.Lines[0], "abcdefabcdef") {
		t.Errorf("first line %.40q", res.Lines[0])
	}
	// within the limit nothing is capped
	if res := f.Apply([]string{""}, Options{}); res.Capped || len(res.Lines) != 1 {
		t.Errorf("empty line: %+v", res)
	}
}

// TestReplaceCappedIsReplaceAll: below its limit replaceCapped is
// regexp's ReplaceAllString, empty matches and group references included.
func TestReplaceCappedIsReplaceAll(t *testing.T) {
	pats := []string{`a`, `a*`, `x?`, `^`, `$`, `\b`, `(a)(b)?`, `(?P<w>\w+)`, `.`, `é|b`, ``}
	repls := []string{``, `-`, `$0$0`, `[$1]`, `${w}!`, `$$`, `é`}
	srcs := []string{"", "a", "aaa", "abab ba", "éaé b", "no match here", "xxaxx"}
	for _, p := range pats {
		re := regexp.MustCompile(p)
		for _, r := range repls {
			for _, s := range srcs {
				want := re.ReplaceAllString(s, r)
				got, capped := replaceCapped(re, s, r, 1<<20)
				if got != want || capped {
					t.Errorf("%q %q %q: got %q %v, want %q", p, r, s, got, capped, want)
				}
				if len(want) > 2 {
					got, capped = replaceCapped(re, s, r, len(want)-1)
					if !capped || len(got) > len(want)-1 || !strings.HasPrefix(want, got) {
						t.Errorf("%q %q %q cut to %d: %q %v", p, r, s, len(want)-1, got, capped)
					}
				}
			}
		}
	}
}

func BenchmarkLoadMatcherOversized(b *testing.B) {
	proj := b.TempDir()
	root := b.TempDir()
	e := Env{Getenv: func(k string) string {
		return map[string]string{"XDG_DATA_HOME": root, "XDG_CONFIG_HOME": root, "XDG_CACHE_HOME": root}[k]
	}, Home: root, Cwd: proj}
	file := filepath.Join(proj, ".gotk", "filters.toml")
	os.MkdirAll(filepath.Dir(file), 0o755)
	os.WriteFile(file, nil, 0o644)
	if err := os.Truncate(file, 1<<30); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if m := LoadMatcher(e); len(m.Warnings) != 1 {
			b.Fatal(fmt.Sprint(m.Warnings))
		}
	}
}
