package discover

import (
	"bufio"
	"errors"
	"io"
)

// MaxLine is the longest transcript line read. Agents write a whole record
// on one line, and a few records are huge (a pasted image, a model request
// snapshot); a longer line is skipped and counted, so memory stays bounded
// whatever the files hold.
const MaxLine = 8 << 20

// eachLine calls fn with every line of r, without its newline, in order.
// The slice is reused: fn must not keep it. A line longer than max is not
// passed; it is counted in oversized. The last line is passed even without
// a newline: a file the agent is still writing may end mid-record, and the
// caller then counts it as malformed.
func eachLine(r io.Reader, max int, fn func(line []byte)) (oversized int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	skipping := false
	for {
		chunk, err := br.ReadSlice('\n')
		full := err == nil
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return oversized, err
		}
		switch {
		case skipping:
		case len(buf)+len(chunk) > max+1: // +1: the newline
			skipping, buf = true, buf[:0]
			oversized++
		case len(buf) == 0 && full:
			fn(chunk[:len(chunk)-1]) // the whole line is in the reader's buffer
		default:
			buf = append(buf, chunk...)
		}
		if full || errors.Is(err, io.EOF) {
			if !skipping && len(buf) > 0 {
				if buf[len(buf)-1] == '\n' {
					buf = buf[:len(buf)-1]
				}
				fn(buf)
			}
			buf, skipping = buf[:0], false
			if cap(buf) > 1<<20 {
				buf = nil // one huge line must not pin its buffer for the rest of the file
			}
		}
		if errors.Is(err, io.EOF) {
			return oversized, nil
		}
	}
}
