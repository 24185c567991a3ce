//go:build unix && !linux

package proc

import (
	"os/exec"
	"syscall"
)

// setProcAttr gives the program its own process group with group. macOS
// and the BSDs have no Pdeathsig: a program whose gotk is SIGKILLed keeps
// running until it next writes to its closed output pipe (SIGPIPE) or
// exits by itself.
func setProcAttr(cmd *exec.Cmd, group bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: group}
}
