package runner

import "github.com/gotk-dev/gotk/core/check"

// installerChecks runs `gotk verify` or `gotk doctor` (core/check).
func installerChecks(name string, a *app) int {
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
	return max(check.Doctor(a.stdout, env), a.checkVersions(env.LookPath, binaryVersion))
}
