package proc

import (
	"os"
	"os/exec"
)

// signalProgram passes s on to the program.
func signalProgram(cmd *exec.Cmd, s os.Signal) { cmd.Process.Signal(s) }
