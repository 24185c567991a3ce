//go:build unix

package proc

import (
	"os"
	"os/exec"
	"syscall"
)

// signalProgram sends s to the program's own process group (everything it
// started), or to the program alone when it shares gotk's group.
func signalProgram(cmd *exec.Cmd, s os.Signal) {
	if sig, ok := s.(syscall.Signal); ok && cmd.SysProcAttr != nil && cmd.SysProcAttr.Setpgid {
		if syscall.Kill(-cmd.Process.Pid, sig) == nil {
			return
		}
	}
	cmd.Process.Signal(s)
}
