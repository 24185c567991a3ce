package vibe

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

func TestLoadVibe(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "work", "p")
	permissiontest.Write(t, filepath.Join(home, ".vibe", "config.toml"), `
active_model = "devstral"
[tools.bash]
permission = "always"
allowlist = ["git status"]
denylist = ["git push", "rm -rf"]
sensitive_patterns = ["sudo", "kubectl"]
`)
	permissiontest.Write(t, filepath.Join(proj, ".vibe", "config.toml"), `
[tools.bash]
denylist_standalone = ["node"]
`)
	r := Host.LoadRules(permissiontest.Env(home, filepath.Join(proj, "sub"), nil))
	if len(r.Warnings) != 0 || r.Unreadable {
		t.Fatalf("warnings: %v", r.Warnings)
	}
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{
		"git push origin":       permission.Deny,  // denylist: word prefix
		"git pushx":             permission.Allow, // permission = "always"
		"rm -rf /tmp/x":         permission.Deny,  //
		"node":                  permission.Deny,  // project denylist_standalone
		"node x.js":             permission.Allow, //
		"/usr/bin/python3":      permission.Deny,  // default standalone list, by basename
		"vim x":                 permission.Deny,  // default denylist
		"kubectl apply -f x":    permission.Ask,   // sensitive: first word
		"find . -exec rm {} ;":  permission.Ask,   // Vibe's find guard
		"find . -name x":        permission.Allow, //
		"sudo ls":               permission.Ask,   // default sensitive
		"echo kubectl":          permission.Allow, // sensitive is the first word only
		"git status --short -b": permission.Allow,
	})
}

func TestVibeHomeAndPermission(t *testing.T) {
	home := t.TempDir()
	alt := filepath.Join(home, "alt")
	proj := filepath.Join(home, "p")
	permissiontest.Write(t, filepath.Join(alt, "config.toml"), "[tools.bash]\npermission = \"always\"\n")
	permissiontest.Write(t, filepath.Join(home, ".vibe", "config.toml"), "[tools.bash]\ndenylist = [\"ls\"]\n")
	permissiontest.Write(t, filepath.Join(proj, ".vibe", "config.toml"), "[tools.bash]\npermission = \"ask\"\n")
	r := Host.LoadRules(permissiontest.Env(home, "", map[string]string{"VIBE_HOME": alt}))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"ls": permission.Allow, "make": permission.Allow})
	// a project file with another permission: "always" no longer counts
	r = Host.LoadRules(permissiontest.Env(home, proj, map[string]string{"VIBE_HOME": alt}))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"make": permission.Default})
	// without VIBE_HOME: ~/.vibe; no permission set: permission.Default
	r = Host.LoadRules(permissiontest.Env(home, "", nil))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"ls -la": permission.Deny, "make": permission.Default})
	// permission = "never" in a project file denies everything
	permissiontest.Write(t, filepath.Join(proj, ".vibe", "config.toml"), "[tools.bash]\npermission = \"never\"\n")
	r = Host.LoadRules(permissiontest.Env(home, proj, nil))
	permissiontest.CheckAll(t, r, map[string]permission.Verdict{"make": permission.Deny})
}

func TestVibeBroken(t *testing.T) {
	home := t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".vibe", "config.toml"), "[tools.bash]\npermission = \"always\"\ndenylist = [\"git push\"\n")
	r := Host.LoadRules(permissiontest.Env(home, "", nil))
	if !r.Unreadable || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "config.toml") {
		t.Fatalf("want Unreadable and one warning: %v %q", r.Unreadable, r.Warnings)
	}
	if r.Check(permissiontest.Seg("make")).Verdict == permission.Allow {
		t.Error("a broken file must never allow")
	}
	// a wrong type is broken too
	permissiontest.Write(t, filepath.Join(home, ".vibe", "config.toml"), "[tools.bash]\ndenylist = \"git push\"\n")
	if r := Host.LoadRules(permissiontest.Env(home, "", nil)); !r.Unreadable {
		t.Error("denylist as a string: want Unreadable")
	}
}
