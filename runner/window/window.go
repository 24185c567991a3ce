// Package window is the display window a pipeline shows of a command's
// output: `cmd | tail -30` shows its last 30 lines, `cmd | head -50` its
// first 50. The hook tells gotk the window (`gotk --tail 30 cmd`); gotk
// fits its output into it, and counts as raw what the window would have
// passed of the raw output, never the whole of it.
package window

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Window is a number of lines from the top (head) or the bottom (tail).
// The zero Window shows everything.
type Window struct {
	Tail bool
	N    int
}

// Set reports whether w bounds anything.
func (w Window) Set() bool { return w.N > 0 }

// Flag is how gotk is told the window: "--tail 30".
func (w Window) Flag() string {
	if w.Tail {
		return "--tail " + strconv.Itoa(w.N)
	}
	return "--head " + strconv.Itoa(w.N)
}

// Pipe is the consumer the window stands for: "tail -30".
func (w Window) Pipe() string {
	if w.Tail {
		return "tail -" + strconv.Itoa(w.N)
	}
	return "head -" + strconv.Itoa(w.N)
}

// Parse reads `--head N` or `--tail N` at the front of args and returns
// the window and the arguments after it.
func Parse(args []string) (Window, []string, error) {
	if len(args) == 0 || (args[0] != "--head" && args[0] != "--tail") {
		return Window{}, args, nil
	}
	if len(args) < 2 {
		return Window{}, nil, fmt.Errorf("%s needs a number of lines", args[0])
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n <= 0 || strconv.Itoa(n) != args[1] {
		return Window{}, nil, fmt.Errorf("%s %q: want a number of lines above 0", args[0], args[1])
	}
	return Window{Tail: args[0] == "--tail", N: n}, args[2:], nil
}

// Apply returns what the window shows of b, as head -n N or tail -n N
// print it.
func (w Window) Apply(b []byte) []byte {
	if !w.Set() || len(b) == 0 {
		return b
	}
	if !w.Tail {
		off, i := 0, 0
		for ; i < w.N; i++ {
			k := bytes.IndexByte(b[off:], '\n')
			if k < 0 {
				return b
			}
			off += k + 1
		}
		return b[:off]
	}
	end := len(b)
	if b[end-1] == '\n' {
		end--
	}
	for i := 0; i < w.N; i++ {
		k := bytes.LastIndexByte(b[:end], '\n')
		if k < 0 {
			return b
		}
		if i == w.N-1 {
			return b[k+1:]
		}
		end = k
	}
	return b
}

// Lines counts the lines of b as head and tail do (a last line without
// a newline counts).
func Lines(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// OfCommand reads the window a recorded run's command ends with
// ("go test ./... | tail -30"), as gotk records a run inside a window.
func OfCommand(cmd string) (Window, bool) {
	i := strings.LastIndex(cmd, " | ")
	if i < 0 {
		return Window{}, false
	}
	f := strings.Fields(cmd[i+3:])
	if len(f) != 2 || (f[0] != "head" && f[0] != "tail") || !strings.HasPrefix(f[1], "-") {
		return Window{}, false
	}
	n, err := strconv.Atoi(f[1][1:])
	if err != nil || n <= 0 {
		return Window{}, false
	}
	return Window{Tail: f[0] == "tail", N: n}, true
}
