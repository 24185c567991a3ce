// Package opencodetest is a model of how OpenCode and Kilo (its fork)
// decide a bash call, transcribed from their shipped bundles, for the
// property tests of both hosts' rule readers: the wildcard, the last
// matching rule, and the verdict of a call over its patterns. It shares no
// code with the readers it checks.
package opencodetest

import (
	"regexp"
	"strings"
	"sync"
)

// Rule is one rule of a permission ruleset: {permission, pattern, action},
// as fromConfig makes them.
type Rule struct{ Permission, Pattern, Action string }

// Wildcard is Wildcard.match of @kilocode/cli 7.7.9 (the same function as
// opencode-ai 1.18.33's util/wildcard.ts): backslashes become slashes in
// both, regular-expression characters are escaped, * is any text, ? one
// character, a trailing " .*" is made optional, and the expression is
// anchored and dot-all.
func Wildcard(text, pattern string) bool {
	text = strings.ReplaceAll(text, `\`, "/")
	pattern = strings.ReplaceAll(pattern, `\`, "/")
	p := regexp.MustCompile(`[.+^${}()|\[\]\\]`).ReplaceAllStringFunc(pattern, func(s string) string { return `\` + s })
	p = strings.ReplaceAll(p, "*", ".*")
	p = strings.ReplaceAll(p, "?", ".")
	if strings.HasSuffix(p, " .*") {
		p = p[:len(p)-3] + "( .*)?"
	}
	re, ok := wildcards.Load(p)
	if !ok {
		c, err := regexp.Compile("(?s)^" + p + "$")
		if err != nil {
			c = nil
		}
		re, _ = wildcards.LoadOrStore(p, c)
	}
	c, _ := re.(*regexp.Regexp)
	return c != nil && c.MatchString(text)
}

// wildcards caches Wildcard's expressions.
var wildcards sync.Map

// Evaluate is Permission.evaluate: the last rule whose permission and
// pattern both match decides; none: ask.
func Evaluate(permission, pattern string, rules []Rule) string {
	for i := len(rules) - 1; i >= 0; i-- {
		if Wildcard(permission, rules[i].Permission) && Wildcard(pattern, rules[i].Pattern) {
			return rules[i].Action
		}
	}
	return "ask"
}

// Ask is Permission.ask for a fresh session (nothing approved yet): each
// pattern evaluated alone; the first deny refuses the call, any ask asks,
// else it runs. The answer is "deny", "ask" or "allow".
func Ask(permission string, patterns []string, rules []Rule) string {
	out := "allow"
	for _, p := range patterns {
		switch Evaluate(permission, p, rules) {
		case "deny":
			return "deny"
		case "allow":
		default:
			out = "ask"
		}
	}
	return out
}
