package opencode

import (
	"regexp"
	"strings"
	"sync"
)

// Rule is one bash rule of the user's configuration.
type Rule struct {
	Pattern, Action, Source string
	CatchAll                bool
}

// rulesOf are the bash rules of a permission value: "allow" (every
// permission), {"bash": ACTION}, {"bash": {PATTERN: ACTION, …}}, and the
// same under any key that matches "bash" ("*", "b*"). counts: a catch-all
// here overrides the defaults before it.
func rulesOf(v any, source string, counts bool) []Rule {
	switch p := v.(type) {
	case string:
		return []Rule{{Pattern: "*", Action: p, Source: source, CatchAll: counts}}
	case map[string]any:
		var out []Rule
		for key, val := range p {
			if !Match("bash", key) {
				continue
			}
			switch x := val.(type) {
			case string:
				out = append(out, Rule{Pattern: "*", Action: x, Source: source, CatchAll: counts})
			case map[string]any:
				for pat, act := range x {
					a, _ := act.(string)
					out = append(out, Rule{Pattern: pat, Action: a, Source: source, CatchAll: counts && CatchAll(pat)})
				}
			}
		}
		return out
	}
	return nil
}

func CatchAll(pattern string) bool {
	return pattern != "" && strings.Trim(pattern, "*") == ""
}

// RuleMatches: the pattern matches cmd, or cmd with gotk inserted
// before one of its words (the rewrite), in Kilo's wildcard. Runs of
// blanks in the pattern count as one, as in the command's words.
func RuleMatches(pattern, cmd string) bool {
	pattern = wildBlanks.ReplaceAllString(pattern, " ")
	if Match(cmd, pattern) {
		return true
	}
	w := strings.Fields(cmd)
	for i := range w {
		v := strings.Join(append(append(append([]string{}, w[:i]...), "gotk"), w[i:]...), " ")
		if Match(v, pattern) {
			return true
		}
	}
	return false
}

var (
	wildSpecial = regexp.MustCompile(`[.+^${}()|\[\]\\]`)
	wildBlanks  = regexp.MustCompile(`[ \t]+`)
)

// Match is OpenCode's (and Kilo's) wildcard: * any text, ? one character, a trailing
// " *" also matches nothing, backslashes are slashes, the whole text.
func Match(text, pattern string) bool {
	re, ok := compiled.Load(pattern)
	if !ok {
		p := wildSpecial.ReplaceAllStringFunc(strings.ReplaceAll(pattern, `\`, "/"), func(s string) string { return `\` + s })
		p = strings.ReplaceAll(strings.ReplaceAll(p, "*", ".*"), "?", ".")
		if strings.HasSuffix(p, " .*") {
			p = strings.TrimSuffix(p, " .*") + "( .*)?"
		}
		c, err := regexp.Compile("(?s)^" + p + "$")
		if err != nil {
			c = nil
		}
		re, _ = compiled.LoadOrStore(pattern, c)
	}
	c, _ := re.(*regexp.Regexp)
	return c != nil && c.MatchString(strings.ReplaceAll(text, `\`, "/"))
}

// compiled caches Match's expressions by pattern.
var compiled sync.Map
