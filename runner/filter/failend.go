package filter

import (
	"path"
	"slices"
	"strings"
)

// failEndLines is how many of a failing run's last stdout lines a cut
// that dropped them gets back.
const failEndLines = 3

// keepEnd gives a failing run's rendering back the end of its stdout when
// the filter cut it away: a failure says why at its end. It applies when
// the rendering ends with a cut (a line naming in.Recall) and the raw
// stdout's last line is not in it; the last failEndLines lines not shown
// then follow the cut, as a tail. Output gotk asked in another format
// (RanArgv differs) has no end in the tool's words to give back, and
// diff's exit 1 says the files differ, not that it failed.
func keepEnd(stdout []byte, in Input) []byte {
	if in.Exit <= 0 || in.Recall == nil || !slices.Equal(in.Argv, in.RanArgv) {
		return stdout
	}
	if in.Tool < len(in.Argv) && path.Base(in.Argv[in.Tool]) == "diff" && in.Exit == 1 {
		return stdout
	}
	raw := lines(in.Stdout)
	for len(raw) > 0 && strings.TrimSpace(raw[len(raw)-1]) == "" {
		raw = raw[:len(raw)-1]
	}
	shown := lines(stdout)
	if len(raw) == 0 || len(shown) == 0 || !strings.Contains(shown[len(shown)-1], in.Recall()) {
		return stdout
	}
	have := map[string]bool{}
	for _, l := range shown {
		have[l] = true
	}
	if have[raw[len(raw)-1]] {
		return stdout
	}
	tail := raw[max(0, len(raw)-failEndLines):]
	for len(tail) > 0 && have[tail[0]] {
		tail = tail[1:]
	}
	return []byte(join(append(shown, tail...)))
}
