package host

import (
	"bytes"
	"encoding/binary"

	"golang.org/x/sys/unix"
)

// System is this machine's process table: sysctl kern.procargs2 for argv
// and kern.proc.pid for the parent.
func System() Procs { return darwinProcs{} }

type darwinProcs struct{}

// Argv decodes kern.procargs2: argc (int32), the executable path, NUL
// padding, then argc NUL-terminated arguments.
func (darwinProcs) Argv(pid int) ([]string, error) {
	buf, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil || len(buf) < 4 {
		return nil, ErrUnreadable
	}
	argc := int(binary.LittleEndian.Uint32(buf[:4]))
	rest := buf[4:]
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return nil, ErrUnreadable
	}
	rest = rest[i:]
	for len(rest) > 0 && rest[0] == 0 {
		rest = rest[1:]
	}
	argv := make([]string, 0, argc)
	for len(argv) < argc && len(rest) > 0 {
		j := bytes.IndexByte(rest, 0)
		if j < 0 {
			j = len(rest)
		}
		argv = append(argv, string(rest[:j]))
		rest = rest[min(j+1, len(rest)):]
	}
	if len(argv) == 0 {
		return nil, ErrUnreadable
	}
	return argv, nil
}

func (darwinProcs) Parent(pid int) (int, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return 0, ErrUnreadable
	}
	return int(kp.Eproc.Ppid), nil
}
