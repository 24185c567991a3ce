package runner

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/runner/filter"
	"github.com/gotk-dev/gotk/runner/store"
)

// repeatWindow is how soon a second run of the same command counts as a
// retry: an agent that re-runs a command did not see what it needed, and
// a compact output again would only make it loop.
const repeatWindow = 5 * time.Minute

// modeRepeat: a retry of a command run moments before, printed raw.
const modeRepeat = "repeat"

// volatileEnv are variables that change from one shell to the next
// without changing what a command does.
var volatileEnv = []string{"_", "SHLVL", "OLDPWD", "PWD", "RANDOM", "SECONDS", "LINENO", "TERM_SESSION_ID", "WINDOWID"}

// runKey names a run for retry detection: the command line, the
// directory and the environment (volatile variables aside). A run with a
// different directory or environment is a new run.
func (a *app) runKey(argv []string, dir string) string {
	var env []string
	if a.environ != nil {
		env = a.environ()
	}
	return runKey(argv, dir, env)
}

func runKey(argv []string, dir string, env []string) string {
	h := sha256.New()
	for _, a := range argv {
		fmt.Fprintf(h, "%d:%s", len(a), a)
	}
	fmt.Fprintf(h, "|%s|", dir)
	env = slices.Clone(env)
	slices.Sort(env)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(volatileEnv, name) || strings.HasPrefix(name, "GOTK_") {
			continue
		}
		fmt.Fprintf(h, "%d:%s", len(kv), kv)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// repeated reports whether the run named key was seen within
// repeatWindow, and notes it as seen now. The notes are one small file
// beside the database (recent-runs: "unix-seconds key" lines, those past
// the window dropped); a data directory that cannot be read or written,
// or GOTK_TRACK=0, makes every run a new one and loses nothing else;
// GOTK_RETRY_RAW=0 turns retries off.
func (a *app) repeated(key string) bool {
	if off(a.getenv("GOTK_TRACK")) || !on(a.getenv("GOTK_RETRY_RAW")) && a.getenv("GOTK_RETRY_RAW") != "" {
		return false // nothing is written, or retries are not wanted raw
	}
	db, err := store.DefaultPath(a.getenv)
	if err != nil {
		return false
	}
	path := filepath.Join(filepath.Dir(db), "recent-runs")
	now := a.now()
	seen := false
	var keep bytes.Buffer
	if f, err := os.Open(path); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			at, k, ok := strings.Cut(sc.Text(), " ")
			sec, err := strconv.ParseInt(at, 10, 64)
			if !ok || err != nil || now.Sub(time.Unix(sec, 0)) > repeatWindow || now.Before(time.Unix(sec, 0)) {
				continue
			}
			if k == key {
				seen = true
				continue
			}
			keep.WriteString(sc.Text() + "\n")
		}
		f.Close()
	}
	fmt.Fprintf(&keep, "%d %s\n", now.Unix(), key)
	if os.MkdirAll(filepath.Dir(path), 0o700) == nil {
		tmp := fmt.Sprintf("%s.%d", path, os.Getpid())
		if os.WriteFile(tmp, keep.Bytes(), 0o600) == nil && os.Rename(tmp, path) != nil {
			os.Remove(tmp)
		}
	}
	return seen
}

// repeatNote is the one line a retry prints, on stderr.
func repeatNote(window time.Duration) string {
	return fmt.Sprintf("gotk: the same command ran here less than %d minutes ago: its output in full this time (GOTK_RAW=1 always does)\n", int(window.Minutes()))
}

// retryOutput is what a retry prints: the command's own output, as the
// host would keep it (filter.Cap: past its limit, head and tail around a
// note naming gotk recall), after one line saying why. With stdout and
// stderr one file it comes in arrival order.
func (a *app) retryOutput(p plainText, in filter.Input) filter.Output {
	out := filter.Output{Stdout: p.stdout, Stderr: p.stderr}
	if a.sameFile() {
		out = filter.Output{Stdout: p.combined}
	}
	out = filter.Cap(out, in)
	out.Stderr = append([]byte(repeatNote(repeatWindow)), out.Stderr...)
	return out
}
