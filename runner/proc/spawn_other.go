//go:build !linux

package proc

import "os/exec"

// spawn starts cmd with os/exec.
func spawn(cmd *exec.Cmd) (process, error) {
	if err := start(cmd); err != nil {
		return nil, err
	}
	return cmdProcess{cmd}, nil
}
