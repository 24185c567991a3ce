package permission

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadVibe(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "work", "p")
	write(t, filepath.Join(home, ".vibe", "config.toml"), `
active_model = "devstral"
[tools.bash]
permission = "always"
allowlist = ["git status"]
denylist = ["git push", "rm -rf"]
sensitive_patterns = ["sudo", "kubectl"]
`)
	write(t, filepath.Join(proj, ".vibe", "config.toml"), `
[tools.bash]
denylist_standalone = ["node"]
`)
	r := Load(Vibe, env(home, filepath.Join(proj, "sub"), nil))
	if len(r.Warnings) != 0 || r.Unreadable {
		t.Fatalf("warnings: %v", r.Warnings)
	}
	checkAll(t, r, map[string]Verdict{
		"git push origin":       Deny,  // denylist: word prefix
		"git pushx":             Allow, // permission = "always"
		"rm -rf /tmp/x":         Deny,  //
		"node":                  Deny,  // project denylist_standalone
		"node x.js":             Allow, //
		"/usr/bin/python3":      Deny,  // default standalone list, by basename
		"vim x":                 Deny,  // default denylist
		"kubectl apply -f x":    Ask,   // sensitive: first word
		"find . -exec rm {} ;":  Ask,   // Vibe's find guard
		"find . -name x":        Allow, //
		"sudo ls":               Ask,   // default sensitive
		"echo kubectl":          Allow, // sensitive is the first word only
		"git status --short -b": Allow,
	})
}

func TestVibeHomeAndPermission(t *testing.T) {
	home := t.TempDir()
	alt := filepath.Join(home, "alt")
	proj := filepath.Join(home, "p")
	write(t, filepath.Join(alt, "config.toml"), "[tools.bash]\npermission = \"always\"\n")
	write(t, filepath.Join(home, ".vibe", "config.toml"), "[tools.bash]\ndenylist = [\"ls\"]\n")
	write(t, filepath.Join(proj, ".vibe", "config.toml"), "[tools.bash]\npermission = \"ask\"\n")
	r := Load(Vibe, env(home, "", map[string]string{"VIBE_HOME": alt}))
	checkAll(t, r, map[string]Verdict{"ls": Allow, "make": Allow})
	// a project file with another permission: "always" no longer counts
	r = Load(Vibe, env(home, proj, map[string]string{"VIBE_HOME": alt}))
	checkAll(t, r, map[string]Verdict{"make": Default})
	// without VIBE_HOME: ~/.vibe; no permission set: Default
	r = Load(Vibe, env(home, "", nil))
	checkAll(t, r, map[string]Verdict{"ls -la": Deny, "make": Default})
	// permission = "never" in a project file denies everything
	write(t, filepath.Join(proj, ".vibe", "config.toml"), "[tools.bash]\npermission = \"never\"\n")
	r = Load(Vibe, env(home, proj, nil))
	checkAll(t, r, map[string]Verdict{"make": Deny})
}

func TestVibeBroken(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".vibe", "config.toml"), "[tools.bash]\npermission = \"always\"\ndenylist = [\"git push\"\n")
	r := Load(Vibe, env(home, "", nil))
	if !r.Unreadable || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "config.toml") {
		t.Fatalf("want Unreadable and one warning: %v %q", r.Unreadable, r.Warnings)
	}
	if r.Check(seg("make")).Verdict == Allow {
		t.Error("a broken file must never allow")
	}
	// a wrong type is broken too
	write(t, filepath.Join(home, ".vibe", "config.toml"), "[tools.bash]\ndenylist = \"git push\"\n")
	if r := Load(Vibe, env(home, "", nil)); !r.Unreadable {
		t.Error("denylist as a string: want Unreadable")
	}
}
