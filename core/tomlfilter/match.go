package tomlfilter

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/regfile"
)

// Matcher answers, on a hook call, which user or trusted project filter a
// command line matches. It never parses a TOML file whose size and
// modification time it has seen: the match part of each file (name,
// match_command and the literal prefix every match starts with) is kept in
// a cache in the cache directory, and a regex is compiled only for a line
// that starts with its literal prefix. With 200 filters in a file, a hook
// call costs a stat, one small file read split into lines (cache.go: no
// reflection, no JSON) and a few string comparisons.
type Matcher struct {
	entries  []*Entry
	Warnings []string
}

// Entry is one filter as the matcher knows it.
type Entry struct {
	Name   string
	Match  string
	Prefix string
	Source string
	Scope  Scope

	once sync.Once
	re   *regexp.Regexp
}

// CachePath is the matcher's cache file.
func CachePath(e Env) string {
	d := e.CacheDir()
	if d == "" {
		return ""
	}
	return filepath.Join(d, "filters-match")
}

// LoadMatcher finds the filter files in force for e and reads their match
// part, from the cache when a file's size and mtime (and, for a project
// file, its pinned hash) are the cached ones. Problems in a file are
// reported (Warnings) when it is read anew, i.e. once per change.
func LoadMatcher(e Env) *Matcher {
	f := Find(e)
	m := &Matcher{Warnings: f.Warnings}
	if len(f.Sources) == 0 {
		return m
	}
	cpath := CachePath(e)
	cache := cacheFile{Files: map[string]cacheEntry{}}
	if cpath != "" {
		if data, err := regfile.Read(cpath, regfile.MaxRules); err == nil {
			cache = decodeCache(data)
		}
	}
	dirty := false
	for _, s := range f.Sources {
		fi, err := os.Stat(s.Path)
		if err != nil {
			continue
		}
		sum := ""
		if d, ok := f.Data[s.Path]; ok {
			sum = digest(d)
		}
		ce, ok := cache.Files[s.Path]
		if !ok || ce.MtimeNS != fi.ModTime().UnixNano() || ce.Size != fi.Size() || ce.SHA256 != sum {
			data, err := f.Read(s)
			if err != nil {
				var big *TooLargeError
				if errors.As(err, &big) {
					m.Warnings = append(m.Warnings, "gotk: "+big.Error())
				}
				continue
			}
			specs, problems := Parse(s.Path, data)
			ce = cacheEntry{MtimeNS: fi.ModTime().UnixNano(), Size: fi.Size(), SHA256: sum}
			for _, sp := range specs {
				ce.Filters = append(ce.Filters, &Entry{Name: sp.Name, Match: sp.MatchCommand, Prefix: literalPrefix(sp.MatchCommand)})
			}
			for _, p := range problems {
				ce.Problems = append(ce.Problems, "gotk: "+p.String())
			}
			m.Warnings = append(m.Warnings, ce.Problems...)
			cache.Files[s.Path] = ce
			dirty = true
		}
		for _, en := range ce.Filters {
			en.Source, en.Scope = s.Path, s.Scope
			m.entries = append(m.entries, en)
		}
	}
	if dirty && cpath != "" {
		// forget files no longer in force, so the cache does not grow
		for p := range cache.Files {
			keep := false
			for _, s := range f.Sources {
				keep = keep || s.Path == p
			}
			if !keep {
				delete(cache.Files, p)
			}
		}
		_ = writePrivate(cpath, encodeCache(cache))
	}
	return m
}

// Prefixes are the literal prefixes of the filters' match_command ("" for
// one without: it may match any line), in precedence order.
func (m *Matcher) Prefixes() []string {
	out := make([]string, len(m.entries))
	for i, en := range m.entries {
		out[i] = en.Prefix
	}
	return out
}

// Len is the number of filters known.
func (m *Matcher) Len() int { return len(m.entries) }

// Match returns the first filter, in precedence order, whose match_command
// matches line.
func (m *Matcher) Match(line string) (*Entry, bool) {
	for _, en := range m.entries {
		if !strings.HasPrefix(line, en.Prefix) {
			continue
		}
		en.once.Do(func() { en.re, _ = regexp.Compile(en.Match) })
		if en.re != nil && en.re.MatchString(line) {
			return en, true
		}
	}
	return nil, false
}

// literalPrefix is the text every match of an anchored pattern starts
// with ("jq" for `^jq\b`), or "" when there is none to be sure of.
func literalPrefix(pattern string) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return ""
	}
	re = re.Simplify()
	var b strings.Builder
	var walk func(r *syntax.Regexp) bool // false: stop
	walk = func(r *syntax.Regexp) bool {
		switch r.Op {
		case syntax.OpBeginText:
			return true
		case syntax.OpLiteral:
			if r.Flags&syntax.FoldCase != 0 {
				return false
			}
			b.WriteString(string(r.Rune))
			return true
		case syntax.OpCapture:
			return walk(r.Sub[0])
		case syntax.OpConcat:
			for _, s := range r.Sub {
				if !walk(s) {
					return false
				}
			}
			return true
		}
		return false
	}
	if re.Op != syntax.OpConcat || len(re.Sub) == 0 || re.Sub[0].Op != syntax.OpBeginText {
		if re.Op != syntax.OpBeginText {
			return ""
		}
	}
	walk(re)
	return b.String()
}
