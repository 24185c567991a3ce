package filter

import "testing"

// Maven's boilerplate is its generic advice, with or without its level
// and colour; the lines that say what failed are not.
func TestMavenBoilerplate(t *testing.T) {
	for l, want := range map[string]bool{
		"[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.":                 true,
		"[\x1b[1;31mERROR\x1b[m] Re-run Maven using the \x1b[1m-X\x1b[m switch to enable full debug logging.": true,
		"[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException":              true,
		"[ERROR] -> [Help 1]": true,
		"[ERROR] Please refer to /tmp/shop/target/surefire-reports for the individual test results.":               true,
		"[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:2.22.3:test (default-test)": false,
		"[ERROR]   TaxTest.vatOnLines:7 expected:<1440> but was:<1200>":                                            false,
		"[ERROR] ":      false,
		"BUILD FAILURE": false,
	} {
		if got := (maven{}).Boilerplate(l); got != want {
			t.Errorf("%q: boilerplate %v, want %v", l, got, want)
		}
	}
	if BoilerplateOf(maven{}) == nil || BoilerplateOf(pytest{}) != nil {
		t.Error("BoilerplateOf: maven's is its own, pytest has none")
	}
}
