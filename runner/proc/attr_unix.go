//go:build unix && !linux

package proc

import "os/exec"

// setProcAttr leaves the program in gotk's process group. macOS and the
// BSDs have no Pdeathsig: a program whose gotk alone is SIGKILLed keeps
// running until it next writes to its closed output pipe (SIGPIPE) or
// exits by itself.
func setProcAttr(cmd *exec.Cmd) {}
