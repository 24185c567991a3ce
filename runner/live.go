package runner

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/gotk-dev/gotk/runner/filter"
)

// liveAfterDefault is how long a filtered run holds its output: a command
// still running then goes live (its new output passes through as it
// comes), so an agent never waits minutes in silence for a build, a test
// suite or a server. GOTK_LIVE_AFTER changes it.
const liveAfterDefault = 30 * time.Second

// liveTextLimit bounds the copy of the live output kept as what was shown
// (for gain --exact); the byte count goes on past it.
const liveTextLimit = 1 << 20

// liveAfter reads GOTK_LIVE_AFTER: a Go duration ("30s", "200ms"); 0 or
// "off" never goes live. A value gotk cannot read costs one warning and
// keeps the default.
func (a *app) liveAfter() time.Duration {
	v := a.getenv("GOTK_LIVE_AFTER")
	if v == "" {
		return liveAfterDefault
	}
	if off(v) {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		a.warn("GOTK_LIVE_AFTER=%q is not a duration like 30s or 500ms; using %s", v, liveAfterDefault)
		return liveAfterDefault
	}
	return d
}

// liveRun is what a run that went live printed, for gain and recall.
type liveRun struct {
	rawBefore, shownBefore int64  // the part held until the switch: its plain and its printed size
	shownText              []byte // what was printed for that part
	live                   int64  // bytes shown live: for this part, shown = raw
	liveText               []byte // their beginning
	stdout                 io.Writer
	conv                   *lineConv // stdout through the filter's Streamer
	plainAtEnd             bool      // stdout's own format can only be rebuilt whole: at the end
}

// goLive is called once when a filtered run is still running after
// GOTK_LIVE_AFTER: it prints the output so far (compact, or the command's
// own output when that is not smaller), says once on stderr that the rest
// comes live, and returns where the rest goes. Where gotk asked the tool
// for machine-readable output, the live part is still the tool's own
// format: converted as it comes (filter.Streamer), else printed whole at
// the end from what was held (the machine form is never shown).
func (a *app) goLive(lv *liveRun, f filter.Filter, in filter.Input, plain plainText, injected bool, after time.Duration, keep bool, recall string) (io.Writer, io.Writer) {
	// For a Twin filter (git log) the command as typed has not ended yet:
	// the part so far counts, and falls back to, the machine form's size.
	lv.rawBefore = int64(len(plain.stdout) + len(plain.stderr))
	shown, err := safeRender(f, in)
	if n := int64(len(shown.Stdout) + len(shown.Stderr)); err != nil || n >= lv.rawBefore {
		a.printPlain(plain)
		lv.shownBefore, lv.shownText = lv.rawBefore, append([]byte{}, plain.combined...)
	} else {
		a.stdout.Write(shown.Stdout)
		a.stderr.Write(shown.Stderr)
		lv.shownBefore, lv.shownText = n, append(append([]byte{}, shown.Stdout...), shown.Stderr...)
	}
	where := ""
	if keep {
		where = " (" + recall + " has all of it)"
	}
	fmt.Fprintf(a.stderr, "gotk: still running after %s; showing output live%s\n", after, where)

	lv.stdout = &counted{w: a.stdout, lv: lv}
	stdout := lv.stdout
	if injected {
		if s, ok := f.(filter.Streamer); ok {
			conv := s.Stream(in)
			for _, l := range bytes.SplitAfter(in.Stdout, []byte("\n")) {
				if len(l) > 0 {
					conv(l) // printed above already: only the converter's state
				}
			}
			lv.conv = &lineConv{conv: conv, w: lv.stdout}
			stdout = lv.conv
		} else {
			lv.plainAtEnd = true
			stdout = io.Discard
		}
	}
	return stdout, &counted{w: a.stderr, lv: lv}
}

// finish prints what the live part still owes once the program has
// ended: the converter's held lines, or stdout's own format rebuilt from
// the whole run (plain).
func (lv *liveRun) finish(plain plainText) {
	switch {
	case lv.conv != nil:
		lv.conv.Close()
	case lv.plainAtEnd:
		lv.stdout.Write(plain.stdout)
	}
}

// counted passes writes on, counting them as shown live.
type counted struct {
	w  io.Writer
	lv *liveRun
}

func (c *counted) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.lv.live += int64(n)
	if room := liveTextLimit - len(c.lv.liveText); room > 0 {
		c.lv.liveText = append(c.lv.liveText, p[:min(room, n)]...)
	}
	return n, err
}

// maxLine is the longest partial line lineConv holds: longer, it goes to
// the converter as it is.
const maxLine = 1 << 20

// lineConv hands its input to a filter's stream converter a line at a time
// and writes what it returns.
type lineConv struct {
	conv func([]byte) []byte
	w    io.Writer
	part []byte
}

func (l *lineConv) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.part = append(l.part, p...)
			if len(l.part) > maxLine {
				return n, l.emit(l.take())
			}
			return n, nil
		}
		line := p[:i+1]
		if len(l.part) > 0 {
			line = append(l.take(), line...)
		}
		if err := l.emit(line); err != nil {
			return n, err
		}
		p = p[i+1:]
	}
	return n, nil
}

func (l *lineConv) take() []byte {
	b := l.part
	l.part = nil
	return b
}

func (l *lineConv) emit(line []byte) error {
	if out := l.conv(line); len(out) > 0 {
		_, err := l.w.Write(out)
		return err
	}
	return nil
}

// Close converts a last line without a newline, then what the converter
// still holds.
func (l *lineConv) Close() error {
	if len(l.part) > 0 {
		if err := l.emit(l.take()); err != nil {
			return err
		}
	}
	if out := l.conv(nil); len(out) > 0 {
		_, err := l.w.Write(out)
		return err
	}
	return nil
}
