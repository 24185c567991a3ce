package filter

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled on first use. gotk starts
// once per command: compiling every filter's patterns at start-up cost
// about 1 ms on every run, for the one filter a run needs.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// lazy returns a pattern compiled on first use; a bad pattern panics then,
// as regexp.MustCompile would at start-up (the corpus tests use them all).
func lazy(src string) *lazyRegexp { return &lazyRegexp{src: src} }

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (l *lazyRegexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }

// MatchString is regexp.Regexp.MatchString.
func (l *lazyRegexp) MatchString(s string) bool { return l.get().MatchString(s) }

// FindString is regexp.Regexp.FindString.
func (l *lazyRegexp) FindString(s string) string { return l.get().FindString(s) }

// FindStringSubmatchIndex is regexp.Regexp.FindStringSubmatchIndex.
func (l *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.get().FindStringSubmatchIndex(s)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (l *lazyRegexp) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is regexp.Regexp.ReplaceAllStringFunc.
func (l *lazyRegexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return l.get().ReplaceAllStringFunc(src, repl)
}
