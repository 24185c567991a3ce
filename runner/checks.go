//go:build !windows

// The installer writes files with renameio.WriteFile, which has no Windows
// implementation, so `gotk verify` and `gotk doctor` are left out there
// rather than keeping gotk itself from building.

package main

import "github.com/gotk-dev/gotk/installer/check"

func init() {
	installerChecks = func(name string, a *app) int {
		env := check.OSEnv()
		env.Getenv = a.getenv
		if h := a.getenv("HOME"); h != "" {
			env.Home = h
		}
		if wd, err := a.getwd(); err == nil {
			env.Cwd = wd
		}
		if name == "verify" {
			return check.Verify(a.stdout, env)
		}
		return check.Doctor(a.stdout, env)
	}
}
