package permission

import (
	"regexp"
	"strings"
	"sync"
)

// PrefixMatch implements Claude Code's Bash(...) rule matching:
//   - "*" matches everything;
//   - "P *" or legacy "P:*" (a trailing star): cmd is P or starts with "P "
//     (a word boundary: `git push *` does not match `git pushx`);
//   - "P*" with no space before the star: a plain prefix (`ls*` matches lsof);
//   - any other star: a glob, each star any run of characters;
//   - no star: cmd is exactly P.
//
// Check also tests deny and ask rules without a star as word-boundary
// prefixes (see lenient): on that side, matching more is the safe error.
func PrefixMatch(pattern, cmd string) bool {
	p := Normalize(pattern)
	c := Normalize(cmd)
	if p == "" {
		return false
	}
	if p == "*" {
		return true
	}
	if strings.HasSuffix(p, "*") && strings.Count(p, "*") == 1 {
		body := strings.TrimSuffix(p, "*")
		switch {
		case strings.HasSuffix(body, ":"):
			body = strings.TrimSuffix(body, ":")
			return WordPrefix(c, strings.TrimSpace(body))
		case strings.HasSuffix(body, " "):
			return WordPrefix(c, strings.TrimSpace(body))
		default:
			return strings.HasPrefix(c, body)
		}
	}
	if strings.Contains(p, "*") {
		p = strings.ReplaceAll(p, ":*", " *")
		return Glob(p, c)
	}
	return c == p
}

// lenient extends a matcher for deny and ask rules: a pattern without a
// star also matches the commands it starts (`git push` matches
// `git push -f`). Matching too much there can only make gotk step aside.
func lenient(m func(string, string) bool) func(string, string) bool {
	return func(pattern, cmd string) bool {
		if m(pattern, cmd) {
			return true
		}
		p := Normalize(pattern)
		return p != "" && !strings.Contains(p, "*") && WordPrefix(Normalize(cmd), p)
	}
}

// WordPrefix: c is p, or p followed by a space.
func WordPrefix(c, p string) bool {
	if p == "" {
		return true
	}
	return c == p || strings.HasPrefix(c, p+" ")
}

// Glob matches s against a pattern whose only metacharacter is '*' (any
// run of characters). A star preceded by a space may also match nothing
// with the space, so `git * diff *` matches `git -C x diff` and `git *`
// matches `git`.
func Glob(p, s string) bool {
	re, ok := globCache.Load(p)
	if !ok {
		var b strings.Builder
		b.WriteString("^")
		parts := strings.Split(p, " *")
		for i, part := range parts {
			if i > 0 {
				b.WriteString("(?: .*)?")
			}
			sub := strings.Split(part, "*")
			for j, x := range sub {
				if j > 0 {
					b.WriteString(".*")
				}
				b.WriteString(regexp.QuoteMeta(x))
			}
		}
		b.WriteString("$")
		re, _ = globCache.LoadOrStore(p, regexp.MustCompile(b.String()))
	}
	return re.(*regexp.Regexp).MatchString(s)
}

var globCache sync.Map
