package permission

import (
	"regexp"
	"sync"
)

// lazyRE compiles pattern on first use: a hook runs one host's reader, so
// no other host's expressions are compiled at start (package init).
func lazyRE(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// lazySet is a set of words built on first use.
func lazySet(words ...string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool { return set(words...) })
}
