//go:build !linux && !darwin

package host

import "errors"

// System is this machine's process table; gotk cannot read it here, so
// every session counts as unreadable (no allow).
func System() Procs { return noProcs{} }

type noProcs struct{}

func (noProcs) Argv(int) ([]string, error) { return nil, errors.New("unsupported") }
func (noProcs) Parent(int) (int, error)    { return 0, errors.New("unsupported") }
