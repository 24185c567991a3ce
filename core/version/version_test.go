package version

import (
	"runtime/debug"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ main, want string }{
		{"v1.2.3", "v1.2.3"},
		{"v0.4.0-rc.1", "v0.4.0-rc.1"},
		{"(devel)", "dev"},
		{"", "dev"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/gotk-dev/gotk/runner", Version: c.main}}
		if got := fromBuildInfo(bi); got != c.want {
			t.Errorf("build info version %q: got %q, want %q", c.main, got, c.want)
		}
	}
	old := Version
	defer func() { Version = old }()
	Version = "v9.8.7"
	if got := Line("gotk"); got != "gotk v9.8.7" {
		t.Errorf("Line with a link-time version: got %q", got)
	}
}
