package runner

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/version"
)

func TestCheckVersions(t *testing.T) {
	old := version.Version
	defer func() { version.Version = old }()
	onPath := func(names ...string) func(string) (string, error) {
		return func(n string) (string, error) {
			for _, x := range names {
				if x == n {
					return "/bin/" + n, nil
				}
			}
			return "", errors.New("not found")
		}
	}
	for _, c := range []struct {
		name, mine string
		versions   map[string]string
		code       int
		want       []string
	}{
		{"one release", "v0.2.0", map[string]string{"gotk": "v0.2.0", "gotk-hook-claude": "v0.2.0", "gotk-install": "v0.2.0"}, 0,
			[]string{"versions: 3 gotk binaries on PATH, all v0.2.0\n"}},
		{"an older hook, a release: go install that release", "v0.2.0", map[string]string{"gotk": "v0.2.0", "gotk-hook-claude": "v0.1.0"}, 1,
			[]string{"versions: /bin/gotk-hook-claude is v0.1.0, gotk is v0.2.0: go install github.com/gotk-dev/gotk/agents/claude/cmd/gotk-hook-claude@v0.2.0\n"}},
		{"a hook without --version", "v0.2.0", map[string]string{"gotk": "v0.2.0", "gotk-hook-vibe": ""}, 1,
			[]string{"/bin/gotk-hook-vibe is no version (older than --version)"}},
		{"a build between releases: make install", "v0.2.0-3-gabc1234-dirty", map[string]string{"gotk-install": "v0.2.0"}, 1,
			[]string{"versions: /bin/gotk-install is v0.2.0, gotk is v0.2.0-3-gabc1234-dirty: make install"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			version.Version = c.mine
			var names []string
			for n := range c.versions {
				names = append(names, n)
			}
			var out bytes.Buffer
			a := &app{stdout: &out}
			code := a.checkVersions(onPath(names...), func(p string) string { return c.versions[strings.TrimPrefix(p, "/bin/")] })
			if code != c.code {
				t.Errorf("exit %d, want %d", code, c.code)
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}
