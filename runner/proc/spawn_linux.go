package proc

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// spawn starts cmd. On Linux a program whose stdio are files (every run
// of gotk's own: the terminal, or the pipes Capture reads) is forked with
// syscall.ForkExec and reaped with wait4: os.StartProcess first checks,
// once per process, that pidfds work — pidfd_open, waitid, a signal and
// a whole extra child forked and reaped — which cost a run of gotk ~0.2 ms
// (paired runs against the os/exec build). Anything else goes through
// os/exec.
func spawn(cmd *exec.Cmd) (process, error) {
	var fds []uintptr
	for _, s := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		f, ok := s.(*os.File)
		if !ok || f == nil {
			if err := start(cmd); err != nil {
				return nil, err
			}
			return cmdProcess{cmd}, nil
		}
		fds = append(fds, f.Fd())
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	attr := &syscall.ProcAttr{Dir: cmd.Dir, Env: env, Files: fds, Sys: cmd.SysProcAttr}
	var pid int
	fork := func() (err error) {
		pid, err = syscall.ForkExec(cmd.Path, cmd.Args, attr)
		return err
	}
	if err := retryBusy(fork, fork); err != nil {
		return nil, &os.PathError{Op: "fork/exec", Path: cmd.Path, Err: err}
	}
	return &rawProcess{pid: pid}, nil
}

// rawProcess is a child forked by spawn.
type rawProcess struct {
	pid  int
	mu   sync.Mutex
	gone bool // it exited: its pid may be another process's soon
}

// signal sends s to the program, unless it has
// exited: wait marks that before it reaps the child, so a signal never
// reaches a process that took over its pid.
func (p *rawProcess) signal(s os.Signal) {
	sig, ok := s.(syscall.Signal)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone {
		return
	}
	syscall.Kill(p.pid, sig)
}

func (p *rawProcess) wait() (int, os.Signal, error) {
	// Wait for the exit without reaping (WNOWAIT), mark the process gone,
	// then reap it and read its status.
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	p.mu.Lock()
	p.gone = true
	p.mu.Unlock()
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(p.pid, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return 0, nil, os.NewSyscallError("wait4", err)
		}
		break
	}
	if ws.Signaled() {
		return 128 + int(ws.Signal()), ws.Signal(), nil
	}
	return ws.ExitStatus(), nil, nil
}
