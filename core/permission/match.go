package permission

import (
	"regexp"
	"strings"
	"sync"
)

// claudeMatch implements Claude Code's Bash(...) rule matching:
//   - "*" matches everything;
//   - "P *" or legacy "P:*" (a trailing star): cmd is P or starts with "P "
//     (a word boundary: `git push *` does not match `git pushx`);
//   - "P*" with no space before the star: a plain prefix (`ls*` matches lsof);
//   - any other star: a glob, each star any run of characters;
//   - no star: cmd is exactly P.
//
// Check also tests deny and ask rules without a star as word-boundary
// prefixes (see lenient): on that side, matching more is the safe error.
func claudeMatch(pattern, cmd string) bool {
	p := normalize(pattern)
	c := normalize(cmd)
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
			return wordPrefix(c, strings.TrimSpace(body))
		case strings.HasSuffix(body, " "):
			return wordPrefix(c, strings.TrimSpace(body))
		default:
			return strings.HasPrefix(c, body)
		}
	}
	if strings.Contains(p, "*") {
		p = strings.ReplaceAll(p, ":*", " *")
		return glob(p, c)
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
		p := normalize(pattern)
		return p != "" && !strings.Contains(p, "*") && wordPrefix(normalize(cmd), p)
	}
}

// wordPrefix: c is p, or p followed by a space.
func wordPrefix(c, p string) bool {
	if p == "" {
		return true
	}
	return c == p || strings.HasPrefix(c, p+" ")
}

// glob matches s against a pattern whose only metacharacter is '*' (any
// run of characters). A star preceded by a space may also match nothing
// with the space, so `git * diff *` matches `git -C x diff` and `git *`
// matches `git`.
func glob(p, s string) bool {
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

// cursorMatch implements Cursor CLI's Shell(...) rules: `Shell(git)` names
// the command base (the first word) and may be a glob; `Shell(curl:*)`
// names the base and a glob over the rest of the arguments.
func cursorMatch(pattern, cmd string) bool {
	p := normalize(pattern)
	c := normalize(cmd)
	if p == "" {
		return false
	}
	if p == "*" {
		return true
	}
	base, rest, _ := strings.Cut(c, " ")
	if pb, pargs, ok := strings.Cut(p, ":"); ok {
		return glob(pb, base) && (pargs == "*" || glob(pargs, rest))
	}
	return glob(p, base)
}

// geminiMatch implements Gemini CLI's run_shell_command(...) rules: a
// word-boundary prefix of the command.
func geminiMatch(pattern, cmd string) bool {
	p := normalize(pattern)
	if p == "*" {
		return true
	}
	return p != "" && wordPrefix(normalize(cmd), p)
}
