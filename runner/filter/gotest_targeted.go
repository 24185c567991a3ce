package filter

import (
	"fmt"
	"slices"
	"strings"
)

// targetedMax is how many tests a -v run may run and still count as
// targeted: the agent is reading those tests, not a suite.
const targetedMax = 10

// testLog is the first line of a t.Log entry: "    file_test.go:12: …".
var testLog = lazy(`^    \S+\.go:\d+: `)

// testVerdict is a test's own closing line ("--- PASS: TestX (0.00s)").
var testVerdict = lazy(`^\s*--- (PASS|SKIP|FAIL): `)

// passedOutput is what the passing and skipped tests printed (t.Log
// with -v, fmt.Println), as go test as typed shows it, for a targeted run:
// one that names its tests (-run) or is -v over at most targetedMax tests:
// the agent added those lines to read them. Any other run leaves them out
// with one line that says so and names gotk recall. keys are in the order their output began; failed
// tests are printed with the failures already.
func passedOutput(in Input, keys []goTestKey, out map[goTestKey][]string, failed []goTestKey, ran int) []string {
	args := in.Argv
	if at := subIndex(in.Argv, in.Tool, "test"); at >= 0 {
		args = in.Argv[at+1:]
	}
	verbose := goFlag(args, "v")
	targeted := goFlag(args, "run") || verbose && ran <= targetedMax
	var res []string
	dropped := 0
	for _, k := range keys {
		if k.test == "" || slices.Contains(failed, k) {
			continue
		}
		var said []string
		logging := false // inside a t.Log entry, which go test shows with -v only
		for _, l := range out[k] {
			if testFraming.MatchString(l) || testVerdict.MatchString(l) {
				continue
			}
			if !verbose {
				logging = testLog.MatchString(l) || logging && strings.HasPrefix(l, "        ")
				if logging {
					continue
				}
			}
			said = append(said, l)
		}
		if len(said) == 0 {
			continue
		}
		if !targeted {
			dropped += len(said)
			continue
		}
		if verbose {
			said = dropMatching(out[k], testFraming)
		}
		res = append(res, capKeeping(foldGoFrames(said, in), 150, nil, in)...)
	}
	if dropped > 0 {
		res = append(res, printedNote(dropped, in))
	}
	return res
}

// printedNote is the line that stands for what passing tests printed when
// a run that does not name its tests leaves it out.
func printedNote(dropped int, in Input) string {
	return fmt.Sprintf("(%s the passing tests printed not shown: %s)", plural(dropped, "line", "lines"), in.Recall())
}
