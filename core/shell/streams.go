package shell

import (
	"strconv"

	"mvdan.cc/sh/v3/syntax"
)

// Where a command's output can lead, as Command.Out and Command.Err say
// it: the line's own standard output or error, the pipe into the next
// stage, nowhere (/dev/null, a closed descriptor), or another descriptor
// the line opened (fd3…), which gotk does not follow.
const (
	SinkStdout = "stdout"
	SinkStderr = "stderr"
	SinkPipe   = "pipe"
	SinkNull   = "null"
	SinkClosed = "closed"
)

// Discarded: output sent to s is read by no one.
func Discarded(s string) bool { return s == SinkNull || s == SinkClosed }

// fdTable is where descriptors 0-9 lead at one point of the line ("" is
// where they led when the line started). Bash applies the redirects of
// the statements around a command first, then the pipe into the next
// stage, then the command's own, each left to right.
type fdTable struct {
	fd [10]string
	// failed: a redirect failed (a copy of a closed descriptor): the
	// statement, and all inside it, does not run
	failed bool
}

func (t *fdTable) get(fd int) string {
	if t.failed {
		return unknownFD
	}
	if t.fd[fd] != "" {
		return t.fd[fd]
	}
	switch fd {
	case 1:
		return SinkStdout
	case 2:
		return SinkStderr
	}
	return "fd" + strconv.Itoa(fd)
}

// unknownFD is what a descriptor gotk does not follow leads to.
const unknownFD = "unknown"

// apply reads rs in order. Redirects into a file make the line unsafe
// (scanUnsafe); here they lead nowhere gotk follows.
func (t *fdTable) apply(rs []*syntax.Redirect) {
	for _, r := range rs {
		n := -1
		if r.N != nil {
			if !IsDigits(r.N.Value) || len(r.N.Value) > 1 {
				// {fd}> or a descriptor past 9: whatever it dups, fds
				// 1 and 2 are untouched unless named
				continue
			}
			n, _ = strconv.Atoi(r.N.Value)
		}
		if n < 0 {
			// the operator's own descriptor: 0 for those that read
			n = 1
			switch r.Op {
			case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
				n = 0
			}
		}
		v, lit := literal(r.Word)
		to := unknownFD
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrInOut:
			if lit && v == "/dev/null" {
				to = SinkNull
			}
		case syntax.RdrAll, syntax.AppAll:
			if lit && v == "/dev/null" {
				to = SinkNull
			}
			t.fd[1], t.fd[2] = to, to
			continue
		case syntax.DplOut, syntax.DplIn:
			switch {
			case lit && v == "-":
				to = SinkClosed
			case lit && IsDigits(v) && len(v) == 1:
				m, _ := strconv.Atoi(v)
				if to = t.get(m); to == SinkClosed {
					t.failed = true
				}
			}
		default:
			// < and heredocs read; they lead no output anywhere
			if n < 1 {
				continue
			}
		}
		t.fd[n] = to
	}
}
