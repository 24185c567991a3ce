package permission

import (
	"regexp"
	"strings"
	"sync"
)

// PrefixMatch implements Claude Code's Bash(...) rule matching, as its
// 2.1.328 bundle does it (minified aot, JUt, s0i, Xse; the model in
// claude_model_test.go holds gotk to it):
//   - "P:*" (P not empty) is a prefix rule: cmd is P, starts with "P ", or
//     is either behind `xargs `; a star inside P is literal;
//   - else a pattern with an unescaped star is a wildcard: each star any
//     run of characters, `\*` a literal star, `\\` a backslash, and a
//     lone trailing " *" optional with its space;
//   - else cmd is exactly the pattern.
//
// Runs of spaces and tabs count as one space in prefix and wildcard rules,
// not in exact ones. Check also tests deny and ask rules without a star as
// word-boundary prefixes (see lenient): on that side, matching more is the
// safe error.
func PrefixMatch(pattern, cmd string) bool {
	c := Normalize(cmd)
	if body, ok := strings.CutSuffix(pattern, ":*"); ok && body != "" && !strings.Contains(body, "\n") {
		b := claudeSpaces().ReplaceAllString(body, " ")
		return WordPrefix(c, b) && b != "" || c == "xargs "+b || strings.HasPrefix(c, "xargs "+b+" ")
	}
	p := strings.TrimSpace(pattern)
	if p == "" {
		return false
	}
	if claudeWildcard(p) {
		return claudeGlob(claudeSpaces().ReplaceAllString(p, " "), c)
	}
	return c == p
}

// claudeSpaces is compiled on first use: gotk running a command never
// matches a rule, and a compile at start-up is paid by every run.
var claudeSpaces = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[ \t]+`) })

// claudeWildcard: p has a star not escaped by an odd run of backslashes.
func claudeWildcard(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] != '*' {
			continue
		}
		n := 0
		for j := i - 1; j >= 0 && p[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return true
		}
	}
	return false
}

// claudeGlob is Claude's Xse: the pattern as a regular expression over the
// whole command, newlines included.
func claudeGlob(p, c string) bool {
	re, ok := claudeGlobCache.Load(p)
	if !ok {
		var b strings.Builder
		stars := 0
		for i := 0; i < len(p); i++ {
			switch {
			case p[i] == '\\' && i+1 < len(p) && (p[i+1] == '*' || p[i+1] == '\\'):
				b.WriteString(regexp.QuoteMeta(p[i+1 : i+2]))
				i++
			case strings.HasPrefix(p[i:], "/**/"):
				for strings.HasPrefix(p[i:], "/**/") {
					i += 3
					stars += 2
				}
				b.WriteString("/(?:.*/)?")
			case p[i] == '*':
				b.WriteString(".*")
				stars++
			default:
				b.WriteString(regexp.QuoteMeta(p[i : i+1]))
			}
		}
		x := b.String()
		if stars == 1 && strings.HasSuffix(x, " .*") {
			x = strings.TrimSuffix(x, " .*") + "(?: .*)?"
		}
		re, _ = claudeGlobCache.LoadOrStore(p, regexp.MustCompile(`(?s)^`+x+`$`))
	}
	return re.(*regexp.Regexp).MatchString(c)
}

var claudeGlobCache sync.Map

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
