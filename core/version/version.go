// Package version is the one version every gotk binary prints: gotk,
// gotk-install and each gotk-hook-<agent> answer --version with String, so
// that `gotk doctor` can tell a set of binaries from one release from a
// mixed one.
//
// A release tags every module of the repo at the same version
// (docs/release.md), so a binary built by `go install …@vX.Y.Z` reads vX.Y.Z
// from its build info; `make build` stamps the version it computed from git
// with -ldflags "-X github.com/gotk-dev/gotk/core/version.Version=…".
package version

import "runtime/debug"

// Version is set at link time; empty means "read the build info".
var Version = ""

// String returns the version: the one set at link time, else the main
// module's version from the build info (a `go install …@version` build),
// else "dev".
func String() string {
	if Version != "" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	return "dev"
}

// Line is what a binary prints for --version: "NAME VERSION".
func Line(name string) string { return name + " " + String() }
