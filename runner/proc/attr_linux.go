package proc

import (
	"os/exec"
	"syscall"
)

// setProcAttr makes the program die with gotk (Pdeathsig: even when gotk
// is SIGKILLed, an agent's timeout, the program is not left running as an
// orphan) and, with group, start its own process group so that gotk can
// signal it and everything it started at once.
func setProcAttr(cmd *exec.Cmd, group bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: group}
}
