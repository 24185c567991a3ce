package install

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// The data directory also holds gotk.db (raw command output): the manifest
// saves it private, and fixes a directory an older installer made 0755.
func TestManifestIsPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	home := t.TempDir()
	e := &Env{Env: agentconf.Env{Home: home, Getenv: func(string) string { return "" }}}
	dir := filepath.Join(home, ".local", "share", "gotk")
	os.MkdirAll(dir, 0o755)
	os.Chmod(dir, 0o755)
	m := &agentconf.Manifest{Version: 1, Entries: []agentconf.Record{{Agent: "claude", Kind: "file", File: "/x"}}}
	if err := saveManifest(m, e); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, agentconf.ManifestPath(&e.Env): 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %o, want %o", p, got, want)
		}
	}
}
