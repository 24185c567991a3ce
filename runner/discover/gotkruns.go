package discover

import (
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gotk-dev/gotk/runner/gain"
	"github.com/gotk-dev/gotk/runner/store"
)

// Some agents do not record a hook's or plugin's rewrite in their
// transcript (Copilot CLI, Pi): the transcript shows `git status`, and the
// output is gotk's. gotk's own run log (runner/store, what `gotk gain`
// reads) says what gotk ran, when and where: a call is taken as run
// through gotk when gotk recorded a run of the same command, in the same
// project, between the model's request and the result — or, when none
// started in that span, within runSlack of it (an agent that stamps a call
// when it ends). Each recorded run vouches for one call, the first that
// claims it: calls are claimed in the order they ran.

const runSlack = time.Second

type gotkRun struct {
	at      time.Time
	project string
	used    bool
	// raw and shown are the run's output bytes, when measured.
	raw, shown int64
	measured   bool
}

// removedBytes is what gotk removed from the run's output, as far as the
// host would have shown it (each side capped at what it keeps of one
// result; negative when gotk printed more).
func (r *gotkRun) removedBytes() int64 {
	return min(r.raw, gain.AgentLimit) - min(r.shown, gain.AgentLimit)
}

// runIndex finds gotk's recorded runs by command and time.
type runIndex struct {
	mu    sync.Mutex
	byKey map[string][]*gotkRun // oldest first
}

func newRunIndex(runs []store.Run) *runIndex {
	x := &runIndex{byKey: map[string][]*gotkRun{}}
	for _, r := range runs {
		key := fallbackKey(r.Command)
		if segs := segments(r.Command, nil); len(segs) > 0 && segs[0].ok {
			key = commandKey(segs[0].argv)
		}
		x.byKey[key] = append(x.byKey[key], &gotkRun{at: r.At, project: r.Project, raw: r.RawBytes, shown: r.Shown, measured: r.Measured})
	}
	for _, l := range x.byKey {
		sort.SliceStable(l, func(i, j int) bool { return l[i].at.Before(l[j].at) })
	}
	return x
}

// claim returns gotk's recorded, unclaimed run of the command key in the
// call's project and time, and claims it (nil: none).
func (x *runIndex) claim(key, cwd string, start, end time.Time) *gotkRun {
	if x == nil {
		return nil
	}
	if start.IsZero() {
		start = end
	}
	if end.IsZero() {
		end = start
	}
	if start.IsZero() {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	l := x.byKey[key]
	for _, slack := range []time.Duration{0, runSlack} {
		from, to := start.Add(-slack), end.Add(slack)
		i := sort.Search(len(l), func(i int) bool { return !l[i].at.Before(from) })
		for ; i < len(l) && !l[i].at.After(to); i++ {
			if !l[i].used && related(cwd, l[i].project) {
				l[i].used = true
				return l[i]
			}
		}
	}
	return nil
}

// related: one directory is the other or holds it (gotk records the git
// top level of where it ran; the agent records its working directory).
func related(a, b string) bool {
	if a == "" || b == "" {
		return true
	}
	a, b = filepath.Clean(a), filepath.Clean(b)
	return a == b || within(a, b) || within(b, a)
}

// within reports whether dir is root or below it.
func within(dir, root string) bool {
	if dir == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(dir, root)
}
