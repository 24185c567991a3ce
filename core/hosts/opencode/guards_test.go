package opencode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// TestGuardPlugins: another plugin with a tool.execute.before hook, in a
// plugin folder OpenCode loads or named by path in a config's "plugin"
// list, makes gotk step aside: the hook would see `gotk X`. gotk's own
// plugin, plugins without that hook and npm packages do not.
func TestGuardPlugins(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	global := filepath.Join(home, ".config", "opencode")
	guard := `export default async () => ({ "tool.execute.before": async (i, o) => { if (/^git push/.test(o.args.command)) throw new Error("no") } })`
	load := func() (bool, []string) {
		r := Host.LoadRules(permissiontest.Env(home, proj, nil))
		return r.Unreadable, r.Warnings
	}
	permissiontest.Write(t, filepath.Join(global, "plugins", "gotk.ts"), `// tool.execute.before`)
	permissiontest.Write(t, filepath.Join(global, "plugin", "notify.ts"), `export default async () => ({ event: async () => {} })`)
	permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"plugin": ["opencode-wakatime", ["some-pkg", {"a": 1}]]}`)
	if un, w := load(); un {
		t.Fatalf("no guard: unreadable: %q", w)
	}
	for _, at := range []string{
		filepath.Join(proj, ".opencode", "plugins", "guard.js"),
		filepath.Join(global, "plugin", "guard.ts"),
	} {
		permissiontest.Write(t, at, guard)
		if un, w := load(); !un || !strings.Contains(strings.Join(w, "\n"), at) {
			t.Errorf("%s: unreadable %v, warnings %q", at, un, w)
		}
		os.Remove(at)
	}
	permissiontest.Write(t, filepath.Join(proj, "tools", "guard.js"), guard)
	for _, entry := range []string{`"./tools/guard.js"`, `["file://` + filepath.ToSlash(filepath.Join(proj, "tools", "guard.js")) + `", {}]`} {
		permissiontest.Write(t, filepath.Join(proj, "opencode.json"), `{"plugin": [`+entry+`]}`)
		if un, _ := load(); !un {
			t.Errorf("plugin entry %s: a guard named by path is not seen", entry)
		}
	}
}
