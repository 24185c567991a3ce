package tomlfilter

import (
	"sort"
	"strconv"
	"strings"
)

// The matcher's cache file is read on every hook call with user filters,
// so it is a format a few string splits decode: a header line, then for
// each filter file a "file" line followed by its "problem" and "filter"
// lines. Fields are separated by tabs and every string is Go-quoted
// (strconv.Quote escapes tabs and newlines, so a field never holds one);
// numbers are decimal.
//
//	gotk-filter-matches 2
//	file	"/home/u/.config/gotk/filters.toml"	1764600000000000000	1234	-
//	filter	"deploy"	"./deploy"	"^\\./deploy\\b"
//	problem	"gotk: filters.toml:7: …"
//
// Anything that does not decode as a whole is an empty cache: every file is
// then read anew and the cache rewritten.
const cacheHeader = "gotk-filter-matches 2"

type cacheFile struct {
	Files map[string]cacheEntry
}

type cacheEntry struct {
	MtimeNS  int64
	Size     int64
	SHA256   string // project files: the pinned content's; "" for others
	Filters  []*Entry
	Problems []string
}

// encodeCache writes c in the cache format, files in path order so that
// the same cache is always the same bytes.
func encodeCache(c cacheFile) []byte {
	paths := make([]string, 0, len(c.Files))
	for p := range c.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	b := []byte(cacheHeader + "\n")
	for _, p := range paths {
		ce := c.Files[p]
		sum := ce.SHA256
		if sum == "" {
			sum = "-"
		}
		b = append(b, "file\t"...)
		b = strconv.AppendQuote(b, p)
		b = append(b, '\t')
		b = strconv.AppendInt(b, ce.MtimeNS, 10)
		b = append(b, '\t')
		b = strconv.AppendInt(b, ce.Size, 10)
		b = append(b, '\t')
		b = strconv.AppendQuote(b, sum)
		b = append(b, '\n')
		for _, en := range ce.Filters {
			b = append(b, "filter\t"...)
			b = strconv.AppendQuote(b, en.Name)
			b = append(b, '\t')
			b = strconv.AppendQuote(b, en.Prefix)
			b = append(b, '\t')
			b = strconv.AppendQuote(b, en.Match)
			b = append(b, '\n')
		}
		for _, pr := range ce.Problems {
			b = append(b, "problem\t"...)
			b = strconv.AppendQuote(b, pr)
			b = append(b, '\n')
		}
	}
	return b
}

// decodeCache reads what encodeCache wrote; anything else (an older
// format, a torn or edited file) is an empty cache. It works on substrings
// of one string: a field without escapes costs no allocation.
func decodeCache(data []byte) cacheFile {
	empty := cacheFile{Files: map[string]cacheEntry{}}
	rest, ok := strings.CutPrefix(string(data), cacheHeader+"\n")
	if !ok {
		return empty
	}
	c := cacheFile{Files: map[string]cacheEntry{}}
	path := ""
	var cur cacheEntry
	var pool []Entry // the filters' entries, allocated together
	flush := func() {
		if path != "" {
			c.Files[path] = cur
		}
	}
	var f [6]string
	for rest != "" {
		line, more, found := strings.Cut(rest, "\n")
		if !found {
			return empty // torn: the last line has no newline
		}
		rest = more
		n := 0
		for n < len(f) {
			var field string
			field, line, found = strings.Cut(line, "\t")
			f[n] = field
			n++
			if !found {
				break
			}
		}
		if found { // more fields than any line has
			return empty
		}
		switch {
		case f[0] == "file" && n == 5:
			p, ok1 := unquote(f[1])
			mt, err2 := strconv.ParseInt(f[2], 10, 64)
			sz, err3 := strconv.ParseInt(f[3], 10, 64)
			sum, ok4 := unquote(f[4])
			if !ok1 || err2 != nil || err3 != nil || !ok4 || p == "" {
				return empty
			}
			if _, dup := c.Files[p]; dup || p == path {
				return empty
			}
			flush()
			if sum == "-" {
				sum = ""
			}
			path, cur = p, cacheEntry{MtimeNS: mt, Size: sz, SHA256: sum}
		case f[0] == "filter" && n == 4 && path != "":
			name, ok1 := unquote(f[1])
			prefix, ok2 := unquote(f[2])
			match, ok3 := unquote(f[3])
			if !ok1 || !ok2 || !ok3 {
				return empty
			}
			if len(pool) == cap(pool) {
				pool = make([]Entry, 0, max(16, 2*cap(pool)))
			}
			pool = append(pool, Entry{Name: name, Prefix: prefix, Match: match})
			cur.Filters = append(cur.Filters, &pool[len(pool)-1])
		case f[0] == "problem" && n == 2 && path != "":
			pr, ok := unquote(f[1])
			if !ok {
				return empty
			}
			cur.Problems = append(cur.Problems, pr)
		default:
			return empty
		}
	}
	flush()
	return c
}

// unquote is strconv.Unquote for a double-quoted field, without an
// allocation when the field is printable ASCII with no escape (what
// strconv.Unquote takes verbatim).
func unquote(q string) (string, bool) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", false
	}
	for i := 1; i < len(q)-1; i++ {
		if c := q[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			s, err := strconv.Unquote(q)
			return s, err == nil
		}
	}
	return q[1 : len(q)-1], true
}
