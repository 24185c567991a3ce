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
// before one of its words (the rewrite), in OpenCode's wildcard. Runs of
// blanks in the pattern count as one, as in the command's words; cmd
// keeps its own.
func RuleMatches(pattern, cmd string) bool { return ruleMatches(pattern, cmd, Match) }

// MaskedRuleMatches is RuleMatches for Kilo, which matches a command's
// text with the characters <>|&;$` and newline of its words, and all of a
// redirect to /dev/null or to a descriptor, turned into "_" (Kilo 7.7.9,
// the bash tool's Cof): a "_" of the pattern here also matches any of
// those characters. A pattern matching Kilo's text matches cmd so.
func MaskedRuleMatches(pattern, cmd string) bool { return ruleMatches(pattern, cmd, matchMasked) }

func ruleMatches(pattern, cmd string, match func(text, pattern string) bool) bool {
	pattern = wildBlanks.ReplaceAllString(pattern, " ")
	if match(cmd, pattern) {
		return true
	}
	for i := 0; i < len(cmd); i++ {
		if !isBlank(cmd[i]) && (i == 0 || isBlank(cmd[i-1])) && match(cmd[:i]+"gotk "+cmd[i:], pattern) {
			return true
		}
	}
	return false
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

var (
	wildSpecial = regexp.MustCompile(`[.+^${}()|\[\]\\]`)
	wildBlanks  = regexp.MustCompile(`[ \t]+`)
)

// Match is OpenCode's (and Kilo's) wildcard: * any text, ? one
// character, a trailing " *" also matches nothing, backslashes are
// slashes, the whole text.
func Match(text, pattern string) bool { return match(text, pattern, false, &compiled) }

// matchMasked is Match where a "_" of the pattern also matches a
// character Kilo masks as "_".
func matchMasked(text, pattern string) bool { return match(text, pattern, true, &compiledMasked) }

func match(text, pattern string, masked bool, cache *sync.Map) bool {
	re, ok := cache.Load(pattern)
	if !ok {
		p := wildSpecial.ReplaceAllStringFunc(strings.ReplaceAll(pattern, `\`, "/"), func(s string) string { return `\` + s })
		p = strings.ReplaceAll(strings.ReplaceAll(p, "*", ".*"), "?", ".")
		if masked {
			p = strings.ReplaceAll(p, "_", "[_<>|&;$`\n]")
		}
		if strings.HasSuffix(p, " .*") {
			p = strings.TrimSuffix(p, " .*") + "( .*)?"
		}
		c, err := regexp.Compile("(?s)^" + p + "$")
		if err != nil {
			c = nil
		}
		re, _ = cache.LoadOrStore(pattern, c)
	}
	c, _ := re.(*regexp.Regexp)
	return c != nil && c.MatchString(strings.ReplaceAll(text, `\`, "/"))
}

// compiled and compiledMasked cache the expressions by pattern.
var compiled, compiledMasked sync.Map
