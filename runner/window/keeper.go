package window

import "bytes"

// Keeper keeps what a window shows of an output written to it in pieces
// — its first N lines, or its last N — in bounded memory: an output too
// large to hold whole (streamed to the spool) still has its raw window.
type Keeper struct {
	w     Window
	max   int    // bytes the window's lines may take
	buf   []byte // head: the first lines; tail: the last bytes (up to 2·max)
	lines int    // head: line breaks in buf
	total int64  // bytes written
}

// NewKeeper keeps w's lines of what is written, within max bytes.
func NewKeeper(w Window, max int) *Keeper { return &Keeper{w: w, max: max} }

// Write takes the next piece of the output; it never fails.
func (k *Keeper) Write(p []byte) (int, error) {
	n := len(p)
	k.total += int64(n)
	if !k.w.Tail {
		for len(p) > 0 && k.lines < k.w.N && len(k.buf) < k.max {
			i := bytes.IndexByte(p, '\n')
			if i < 0 {
				i = len(p) - 1
			} else {
				k.lines++
			}
			k.buf = append(k.buf, p[:i+1]...)
			p = p[i+1:]
		}
		return n, nil
	}
	if len(p) >= k.max {
		k.buf = append(k.buf[:0], p[len(p)-k.max:]...)
	} else {
		if len(k.buf)+len(p) > 2*k.max {
			n := copy(k.buf, k.buf[len(k.buf)-k.max:])
			k.buf = k.buf[:n]
		}
		k.buf = append(k.buf, p...)
	}
	return n, nil
}

// Window returns the raw window of everything written, and whether it is
// exact: false when its lines took more than max bytes (then it is not
// known).
func (k *Keeper) Window() ([]byte, bool) {
	if !k.w.Tail {
		if k.lines >= k.w.N || int64(len(k.buf)) == k.total {
			return k.w.Apply(k.buf), true
		}
		return nil, false
	}
	b := k.buf
	if len(b) > k.max {
		b = b[len(b)-k.max:]
	}
	win := k.w.Apply(b)
	if int64(len(b)) == k.total || len(win) < len(b) {
		return win, true
	}
	return nil, false
}

// Complete reports whether a head window has all its lines: nothing
// written later changes it.
func (k *Keeper) Complete() bool { return !k.w.Tail && k.lines >= k.w.N }
