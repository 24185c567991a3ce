package registry

import (
	"strings"
	"testing"
)

// TestNodeTest: only node's own test runner is rewritten; a script that
// takes --test as its own argument, watch mode, another reporter and
// evaluated code run untouched.
func TestNodeTest(t *testing.T) {
	for cmd, want := range map[string]bool{
		"node --test":       true,
		"node --test test/": true,
		"node --test test/a.test.js test/b.test.js": true,
		"node --test-only --test":                   true,
		"node --no-warnings --test":                 true,
		"node --test --test-name-pattern=slug":      true,
		"node":                                      false,
		"node app.js":                               false,
		"node app.js --test":                        false,
		"node --watch --test":                       false,
		"node --test --watch":                       false,
		"node --test --test-reporter=spec":          true,
		"node --test --test-reporter=tap":           true,
		"node --test --test-reporter=dot":           false,
		"node --test --test-reporter spec":          false,
		"node -e 1 --test":                          false,
		"node --import tsx --test":                  false,
		"node --test -- a.js":                       false,
	} {
		m, ok := Classify(strings.Fields(cmd))
		if ok != want || ok && m.Rule.Handler != "node-test" {
			t.Errorf("%q: classified %v (%+v), want %v", cmd, ok, m.Rule.ID, want)
		}
	}
}
