package proc

import "os/exec"

// setProcAttr does nothing on Windows: no process groups, no parent-death
// signal.
func setProcAttr(cmd *exec.Cmd) {}
