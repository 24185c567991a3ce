package runner

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gotk-dev/gotk/core/hosts"
	"github.com/gotk-dev/gotk/core/version"
)

// binaryPackages maps each gotk binary to the package `go install` builds it
// from (docs/release.md).
func binaryPackages() map[string]string {
	m := map[string]string{
		"gotk":         "github.com/gotk-dev/gotk/runner/cmd/gotk",
		"gotk-install": "github.com/gotk-dev/gotk/installer/cmd/gotk-install",
	}
	for _, a := range hosts.Agents() {
		if a.HookBin != "" {
			m[a.HookBin] = "github.com/gotk-dev/gotk/agents/" + a.Name + "/cmd/" + a.HookBin
		}
	}
	return m
}

// releaseVersion is a tagged release's version (v0.2.0, v0.3.0-rc.1), which
// `go install …@version` can fetch; not a describe (v0.2.0-3-gabc1234, -dirty).
var releaseVersion = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^v\d+\.\d+\.\d+(-rc\.\d+|-beta\.\d+|-alpha\.\d+)?$`)
})

// binaryVersion runs `bin --version` (a few seconds at most, no stdin) and
// returns the version it prints as "NAME VERSION", "" when it prints none.
func binaryVersion(bin string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, bin, "--version").Output()
	f := strings.Fields(string(out))
	if len(f) != 2 || !strings.HasPrefix(f[0], "gotk") {
		return ""
	}
	return f[1]
}

// checkVersions is `gotk doctor`'s check that every gotk binary on PATH is
// of this gotk's release: a hook from an older release answers with older
// rules than `gotk rewrite` shows. It prints one line when all agree, else
// one line per binary that differs with the command that fixes it, and
// returns 1 then.
func (a *app) checkVersions(lookPath func(string) (string, error), versionOf func(string) string) int {
	mine := version.String()
	pkgs := binaryPackages()
	names := make([]string, 0, len(pkgs))
	for n := range pkgs {
		names = append(names, n)
	}
	slices.Sort(names)
	found := 0
	var off []string
	for _, n := range names {
		path, err := lookPath(n)
		if err != nil {
			continue // not installed: doctor's other checks say whether it should be
		}
		found++
		v := versionOf(path)
		if v == mine {
			continue
		}
		fix := "make install (from the same checkout as gotk)"
		if releaseVersion().MatchString(mine) {
			fix = "go install " + pkgs[n] + "@" + mine
		}
		if v == "" {
			v = "no version (older than --version)"
		}
		off = append(off, fmt.Sprintf("versions: %s is %s, gotk is %s: %s", path, v, mine, fix))
	}
	if len(off) == 0 {
		if found > 0 { // none on PATH: doctor's PATH check says so
			fmt.Fprintf(a.stdout, "versions: %d gotk binaries on PATH, all %s\n", found, mine)
		}
		return 0
	}
	for _, l := range off {
		fmt.Fprintln(a.stdout, l)
	}
	return exitFail
}
