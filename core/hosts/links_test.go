package hosts

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookLinksOnlyItsHost: each hook binary imports its own host's
// package and no other's (`go list -deps`), so a hook starts without any
// other agent's readers.
func TestHookLinksOnlyItsHost(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over every hook")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for _, a := range Agents() {
		if a.HookBin == "" {
			continue
		}
		cmd := exec.Command(goBin, "list", "-deps", "./cmd/"+a.HookBin)
		cmd.Dir = filepath.Join("..", "..", "agents", a.Name)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: go list: %v\n%s", a.HookBin, err, out)
		}
		own := false
		for _, p := range strings.Fields(string(out)) {
			name, ok := strings.CutPrefix(p, "github.com/gotk-dev/gotk/core/hosts")
			switch {
			case !ok:
			case name == "/"+a.Name:
				own = true
			default:
				t.Errorf("%s links %s", a.HookBin, p)
			}
		}
		if !own {
			t.Errorf("%s does not link core/hosts/%s", a.HookBin, a.Name)
		}
	}
}
