package claude

import (
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// TestClaudeManagedRulesOnly: allowManagedPermissionRulesOnly in managed
// settings leaves only the managed rules and --disallowedTools in force
// (Claude Code: the user, project, local and --settings rules, and
// --allowedTools, are ignored); only the JSON value true sets it.
func TestClaudeManagedRulesOnly(t *testing.T) {
	for _, flag := range []string{`true`, `false`, `"true"`, `1`} {
		home := t.TempDir()
		proj := filepath.Join(home, "proj")
		permissiontest.Write(t, filepath.Join(home, "managed", "managed-settings.json"),
			`{"allowManagedPermissionRulesOnly": `+flag+`, "permissions": {"allow": ["Bash(make:*)"], "ask": ["Bash(go vet:*)"]}}`)
		permissiontest.Write(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(git push:*)"], "deny": ["Bash(ls:*)"]}}`)
		permissiontest.Write(t, filepath.Join(proj, ".claude", "settings.json"), `{"permissions": {"ask": ["Bash(git status:*)"]}}`)
		permissiontest.Write(t, filepath.Join(proj, ".claude", "settings.local.json"), `{"permissions": {"allow": ["Bash(cat:*)"]}}`)
		e := permissiontest.Env(home, proj, nil)
		e.Session = permission.Session{Allow: []string{"Bash(npm test)"}, Deny: []string{"Bash(rm:*)"}, Settings: []string{`{"permissions":{"allow":["Bash(curl:*)"]}}`}}
		r := Host.LoadRules(e)
		want := map[string]permission.Verdict{"make": permission.Allow, "go vet ./...": permission.Ask, "rm -rf x": permission.Deny,
			"git push": permission.Allow, "ls": permission.Deny, "git status": permission.Ask, "cat x": permission.Allow, "npm test": permission.Allow, "curl x": permission.Allow}
		if flag == `true` {
			for _, cmd := range []string{"git push", "ls", "git status", "cat x", "npm test", "curl x"} {
				want[cmd] = permission.Default
			}
		}
		for cmd, v := range want {
			if got := r.Check(permissiontest.Seg(cmd)).Verdict; got != v {
				t.Errorf("allowManagedPermissionRulesOnly %s: %q: %v, want %v", flag, cmd, got, v)
			}
		}
	}
}

// TestClaudeSettingsAsJSONParse: Claude reads its settings with
// JavaScript's JSON.parse — the last of duplicate keys wins, at every
// level, and keys are compared exactly — and so does gotk.
func TestClaudeSettingsAsJSONParse(t *testing.T) {
	for _, c := range []struct {
		settings string
		want     map[string]permission.Verdict
	}{
		{`{"permissions": {"allow": ["Bash(rm:*)"]}, "permissions": {"deny": []}}`, map[string]permission.Verdict{"rm x": permission.Default}},
		{`{"permissions": {"deny": []}, "permissions": {"deny": ["Bash(git status)"]}}`, map[string]permission.Verdict{"git status": permission.Deny}},
		{`{"permissions": {"allow": ["Bash(rm:*)"], "allow": []}}`, map[string]permission.Verdict{"rm x": permission.Default}},
		{`{"permissions": {"allow": [], "allow": ["Bash(make)"]}}`, map[string]permission.Verdict{"make": permission.Allow}},
		{`{"Permissions": {"allow": ["Bash(rm:*)"]}}`, map[string]permission.Verdict{"rm x": permission.Default}},
		{`{"permissions": {"permission.Allow": ["Bash(rm:*)"], "ALLOW": ["Bash(rm:*)"]}}`, map[string]permission.Verdict{"rm x": permission.Default}},
		{`{"permissions": {"allow": ["Bash(make)"]}, "PERMISSIONS": {"deny": ["Bash(make)"]}}`, map[string]permission.Verdict{"make": permission.Allow}},
	} {
		home := t.TempDir()
		permissiontest.Write(t, filepath.Join(home, ".claude", "settings.json"), c.settings)
		for _, inline := range []bool{false, true} {
			e := permissiontest.Env(home, home, nil)
			if inline {
				home2 := t.TempDir()
				e = permissiontest.Env(home2, home2, nil)
				e.Session.Settings = []string{c.settings}
			}
			r := Host.LoadRules(e)
			for cmd, v := range c.want {
				if got := r.Check(permissiontest.Seg(cmd)).Verdict; got != v {
					t.Errorf("%s (inline %v): %q: %v, want %v", c.settings, inline, cmd, got, v)
				}
			}
		}
	}
	// a managed flag written twice: the last value holds
	home := t.TempDir()
	permissiontest.Write(t, filepath.Join(home, "managed", "managed-settings.json"), `{"allowManagedPermissionRulesOnly": true, "allowManagedPermissionRulesOnly": false}`)
	permissiontest.Write(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(make)"]}}`)
	if got := Host.LoadRules(permissiontest.Env(home, home, nil)).Check(permissiontest.Seg("make")).Verdict; got != permission.Allow {
		t.Errorf("flag true then false: make %v, want allow", got)
	}
	// a drop-in merged over the main file: the last that sets it decides
	permissiontest.Write(t, filepath.Join(home, "managed", "managed-settings.json"), `{"allowManagedPermissionRulesOnly": true}`)
	permissiontest.Write(t, filepath.Join(home, "managed", "managed-settings.d", "10-a.json"), `{"permissions": {}}`)
	if got := Host.LoadRules(permissiontest.Env(home, home, nil)).Check(permissiontest.Seg("make")).Verdict; got != permission.Default {
		t.Errorf("main file true, drop-in silent: make %v, want default", got)
	}
	permissiontest.Write(t, filepath.Join(home, "managed", "managed-settings.d", "20-b.json"), `{"allowManagedPermissionRulesOnly": false}`)
	if got := Host.LoadRules(permissiontest.Env(home, home, nil)).Check(permissiontest.Seg("make")).Verdict; got != permission.Allow {
		t.Errorf("drop-in false over main true: make %v, want allow", got)
	}
}
