package proc

import "os"

// Die does nothing on Windows: there is no death by signal to pass on, and
// gotk exits with the program's code.
func Die(sig os.Signal) {}

// ClosedOutput is nil on Windows: a closed pipe there is an error, not a
// signal.
func ClosedOutput(stdout *os.File, rawStdout int64) os.Signal { return nil }

// WentOnPastReader is nil on Windows, as ClosedOutput.
func WentOnPastReader(stdout *os.File) os.Signal { return nil }
