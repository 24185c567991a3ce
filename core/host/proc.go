// Package host holds what gotk knows about the agent process it serves that
// no payload says: the flags the user started the agent with. A hook runs as
// a child (or grandchild, through a shell) of the agent, so the agent's argv
// is found by walking up the process tree. Claude Code's --disallowedTools,
// --settings and --add-dir, and Copilot CLI's --allow-all-tools, change what
// the host runs without asking; a hook that ignored them would widen
// permissions.
package host

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Procs reads the process table. Tests pass their own.
type Procs interface {
	// Argv returns a process's command line.
	Argv(pid int) ([]string, error)
	// Parent returns a process's parent pid.
	Parent(pid int) (int, error)
}

// MaxAncestors bounds the walk up the process tree.
const MaxAncestors = 12

// ErrUnreadable: the process table could not be read, so the agent's flags
// are unknown. Callers then assume the strictest session (no allow).
var ErrUnreadable = errors.New("cannot read the agent's command line")

// FindAncestor walks up from pid (inclusive) and returns the argv of the
// first process is accepts. found is false when none of the ancestors is
// such a process; err is ErrUnreadable when the table could not be read
// before one was found.
func FindAncestor(p Procs, pid int, is func(argv []string) bool) (argv []string, found bool, err error) {
	for i := 0; i < MaxAncestors && pid > 1; i++ {
		a, err := p.Argv(pid)
		if err != nil {
			if i == 0 {
				return nil, false, ErrUnreadable
			}
			// A parent that exited or that we may not read: the agent is
			// not above it (a hook's agent is alive while the hook runs).
			return nil, false, ErrUnreadable
		}
		if is(a) {
			return a, true, nil
		}
		if pid, err = p.Parent(pid); err != nil {
			return nil, false, ErrUnreadable
		}
	}
	return nil, false, nil
}

// ProcFS reads a Linux /proc file system rooted at Root ("/proc").
type ProcFS struct{ Root string }

// Argv reads /proc/PID/cmdline.
func (f ProcFS) Argv(pid int) ([]string, error) {
	raw, err := os.ReadFile(filepath.Join(f.Root, strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return nil, err
	}
	if len(raw) == 0 {
		return nil, ErrUnreadable // a zombie or a kernel thread
	}
	return strings.Split(strings.TrimSuffix(string(raw), "\x00"), "\x00"), nil
}

// Parent reads the parent pid from /proc/PID/stat (the field after the
// parenthesised command name, which may itself hold spaces and parens).
func (f ProcFS) Parent(pid int) (int, error) {
	raw, err := os.ReadFile(filepath.Join(f.Root, strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, err
	}
	s := string(raw)
	k := strings.LastIndexByte(s, ')')
	if k < 0 {
		return 0, ErrUnreadable
	}
	fs := strings.Fields(s[k+1:])
	if len(fs) < 2 {
		return 0, ErrUnreadable
	}
	return strconv.Atoi(fs[1])
}
