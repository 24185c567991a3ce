package permission

import (
	"path/filepath"
	"testing"
)

// TestClaudeManagedRulesOnly: allowManagedPermissionRulesOnly in managed
// settings leaves only the managed rules and --disallowedTools in force
// (Claude Code: the user, project, local and --settings rules, and
// --allowedTools, are ignored); only the JSON value true sets it.
func TestClaudeManagedRulesOnly(t *testing.T) {
	for _, flag := range []string{`true`, `false`, `"true"`, `1`} {
		home := t.TempDir()
		proj := filepath.Join(home, "proj")
		write(t, filepath.Join(home, "managed", "managed-settings.json"),
			`{"allowManagedPermissionRulesOnly": `+flag+`, "permissions": {"allow": ["Bash(make:*)"], "ask": ["Bash(go vet:*)"]}}`)
		write(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(git push:*)"], "deny": ["Bash(ls:*)"]}}`)
		write(t, filepath.Join(proj, ".claude", "settings.json"), `{"permissions": {"ask": ["Bash(git status:*)"]}}`)
		write(t, filepath.Join(proj, ".claude", "settings.local.json"), `{"permissions": {"allow": ["Bash(cat:*)"]}}`)
		e := env(home, proj, nil)
		e.Session = Session{Allow: []string{"Bash(npm test)"}, Deny: []string{"Bash(rm:*)"}, Settings: []string{`{"permissions":{"allow":["Bash(curl:*)"]}}`}}
		r := Load(Claude, e)
		want := map[string]Verdict{"make": Allow, "go vet ./...": Ask, "rm -rf x": Deny,
			"git push": Allow, "ls": Deny, "git status": Ask, "cat x": Allow, "npm test": Allow, "curl x": Allow}
		if flag == `true` {
			for _, cmd := range []string{"git push", "ls", "git status", "cat x", "npm test", "curl x"} {
				want[cmd] = Default
			}
		}
		for cmd, v := range want {
			if got := r.Check(seg(cmd)).Verdict; got != v {
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
		want     map[string]Verdict
	}{
		{`{"permissions": {"allow": ["Bash(rm:*)"]}, "permissions": {"deny": []}}`, map[string]Verdict{"rm x": Default}},
		{`{"permissions": {"deny": []}, "permissions": {"deny": ["Bash(git status)"]}}`, map[string]Verdict{"git status": Deny}},
		{`{"permissions": {"allow": ["Bash(rm:*)"], "allow": []}}`, map[string]Verdict{"rm x": Default}},
		{`{"permissions": {"allow": [], "allow": ["Bash(make)"]}}`, map[string]Verdict{"make": Allow}},
		{`{"Permissions": {"allow": ["Bash(rm:*)"]}}`, map[string]Verdict{"rm x": Default}},
		{`{"permissions": {"Allow": ["Bash(rm:*)"], "ALLOW": ["Bash(rm:*)"]}}`, map[string]Verdict{"rm x": Default}},
		{`{"permissions": {"allow": ["Bash(make)"]}, "PERMISSIONS": {"deny": ["Bash(make)"]}}`, map[string]Verdict{"make": Allow}},
	} {
		home := t.TempDir()
		write(t, filepath.Join(home, ".claude", "settings.json"), c.settings)
		for _, inline := range []bool{false, true} {
			e := env(home, home, nil)
			if inline {
				home2 := t.TempDir()
				e = env(home2, home2, nil)
				e.Session.Settings = []string{c.settings}
			}
			r := Load(Claude, e)
			for cmd, v := range c.want {
				if got := r.Check(seg(cmd)).Verdict; got != v {
					t.Errorf("%s (inline %v): %q: %v, want %v", c.settings, inline, cmd, got, v)
				}
			}
		}
	}
	// a managed flag written twice: the last value holds
	home := t.TempDir()
	write(t, filepath.Join(home, "managed", "managed-settings.json"), `{"allowManagedPermissionRulesOnly": true, "allowManagedPermissionRulesOnly": false}`)
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(make)"]}}`)
	if got := Load(Claude, env(home, home, nil)).Check(seg("make")).Verdict; got != Allow {
		t.Errorf("flag true then false: make %v, want allow", got)
	}
	// a drop-in merged over the main file: the last that sets it decides
	write(t, filepath.Join(home, "managed", "managed-settings.json"), `{"allowManagedPermissionRulesOnly": true}`)
	write(t, filepath.Join(home, "managed", "managed-settings.d", "10-a.json"), `{"permissions": {}}`)
	if got := Load(Claude, env(home, home, nil)).Check(seg("make")).Verdict; got != Default {
		t.Errorf("main file true, drop-in silent: make %v, want default", got)
	}
	write(t, filepath.Join(home, "managed", "managed-settings.d", "20-b.json"), `{"allowManagedPermissionRulesOnly": false}`)
	if got := Load(Claude, env(home, home, nil)).Check(seg("make")).Verdict; got != Allow {
		t.Errorf("drop-in false over main true: make %v, want allow", got)
	}
}
