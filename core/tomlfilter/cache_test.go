package tomlfilter

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzCacheRoundTrip: whatever the strings (tabs, newlines, quotes,
// invalid UTF-8), the cache decodes to exactly what was encoded, and any
// bytes at all decode without a panic to a cache that round-trips.
func FuzzCacheRoundTrip(f *testing.F) {
	f.Add("/home/u/.config/gotk/filters.toml", "deploy", "./deploy", `^\./deploy\b`, "gotk: f.toml:3: bad", "", int64(1764600000000000000), int64(120))
	f.Add("p\tq\n", "a\"b", "\\", "\xff\x00", "-", "-", int64(-1), int64(0))
	f.Fuzz(func(t *testing.T, path, name, prefix, match, problem, sum string, mtime, size int64) {
		if path == "" {
			path = "x"
		}
		c := cacheFile{Files: map[string]cacheEntry{
			path:        {MtimeNS: mtime, Size: size, SHA256: sum, Filters: []*Entry{{Name: name, Prefix: prefix, Match: match}}, Problems: []string{problem}},
			path + "/2": {MtimeNS: size, Size: mtime},
		}}
		got := decodeCache(encodeCache(c))
		want := c
		if sum == "-" { // "-" is how "no hash" is written
			e := want.Files[path]
			e.SHA256 = ""
			want.Files[path] = e
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip:\n got %#v\nwant %#v", got, want)
		}
		// arbitrary bytes: no panic, and what decodes re-encodes the same
		for _, raw := range [][]byte{[]byte(path + name), encodeCache(c)[:len(encodeCache(c))/2], append([]byte(cacheHeader+"\n"), match...)} {
			d := decodeCache(raw)
			if again := decodeCache(encodeCache(d)); !reflect.DeepEqual(again, d) {
				t.Fatalf("decode(encode(d)) != d for %q", raw)
			}
		}
	})
}

// TestMatcherCacheFormats: a cache in another format (the JSON one of
// earlier versions) or torn halfway is no cache: the files are read anew
// and the cache rewritten in the current format.
func TestMatcherCacheFormats(t *testing.T) {
	root := t.TempDir()
	e := bigFileEnv(root, 3)
	os.MkdirAll(filepath.Join(root, "k"), 0o755)
	for _, stale := range []string{
		`{"version":1,"files":{}}`,
		cacheHeader + "\nfile\t\"" + filepath.Join(root, "c", "gotk", "filters.toml") + "\"\t1\t2\t\"-\"\nfilter\t\"x\"", // torn
	} {
		os.WriteFile(CachePath(e), []byte(stale), 0o600)
		m := LoadMatcher(e)
		if m.Len() != 3 {
			t.Fatalf("stale cache %q: %d filters, want 3", stale, m.Len())
		}
		if _, ok := m.Match("tool002 run"); !ok {
			t.Fatalf("stale cache %q: tool002 not matched", stale)
		}
		data, _ := os.ReadFile(CachePath(e))
		if c := decodeCache(data); len(c.Files) != 1 {
			t.Fatalf("cache not rewritten: %q", data)
		}
	}
}
