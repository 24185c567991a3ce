package proc

import (
	"os/exec"
	"syscall"
)

// setProcAttr makes the program die with gotk (Pdeathsig: when gotk alone
// is SIGKILLed, the program goes too, as it would have had the SIGKILL
// been sent to it). It stays in gotk's process group.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
