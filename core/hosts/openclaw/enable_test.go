package openclaw

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// TestProjectWorkspace: a project install is inactive where the project
// is none of the agent workspaces OpenClaw can resolve from its config,
// and gotk claims nothing where it cannot tell.
func TestProjectWorkspace(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	link := filepath.Join(root, "link")
	for _, d := range []string{home, proj, filepath.Join(home, ".openclaw", "workspace-coder")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(proj, link); err != nil {
		t.Fatal(err)
	}
	enabled := `"plugins": {"entries": {"gotk": {"enabled": true}}}`
	for _, c := range []struct {
		name, cwd, config string
		env               map[string]string
		outside           bool
	}{
		{name: "defaults.workspace", config: `{"agents": {"defaults": {"workspace": "` + proj + `"}}, ` + enabled + `}`},
		{name: "through a symlink", config: `{"agents": {"defaults": {"workspace": "` + link + `"}}, ` + enabled + `}`},
		{name: "defaults.workspace/<id>", config: `{"agents": {"defaults": {"workspace": "` + root + `"}}, ` + enabled + `}`},
		{name: "an agent's own, in a list", config: `{"agents": {"list": [{"id": "x", "workspace": "~/../proj"}]}, ` + enabled + `}`},
		{name: "an agent's own, in entries", config: `{agents: {entries: {coder: {workspace: "` + proj + `"}}}, ` + enabled + `}`},
		{name: "default state workspace-<id>", cwd: filepath.Join(home, ".openclaw", "workspace-coder"), config: `{` + enabled + `}`},
		{name: "OPENCLAW_WORKSPACE_DIR", config: `{` + enabled + `}`, env: map[string]string{"OPENCLAW_WORKSPACE_DIR": proj}},
		{name: "only the task directory", config: `{"agents": {"defaults": {"cwd": "` + proj + `"}}, ` + enabled + `}`, outside: true},
		{name: "another workspace", config: `{"agents": {"defaults": {"workspace": "` + home + `"}}, ` + enabled + `}`, outside: true},
		{name: "no workspace set", config: `{` + enabled + `}`, outside: true},
		{name: "a relative workspace: cannot tell", config: `{"agents": {"defaults": {"workspace": "work"}}, ` + enabled + `}`},
		{name: "OPENCLAW_HOME: cannot tell", config: `{` + enabled + `}`, env: map[string]string{"OPENCLAW_HOME": home}},
		{name: "JSON5 gotk does not read: cannot tell", config: `{agents: {defaults: {workspace: '` + home + `'}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := filepath.Join(root, "openclaw.json")
			if err := os.WriteFile(cfg, []byte(c.config), 0o644); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"OPENCLAW_CONFIG_PATH": cfg}
			for k, v := range c.env {
				env[k] = v
			}
			cwd := c.cwd
			if cwd == "" {
				cwd = proj
			}
			e := &agentconf.Env{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }}
			var msgs []string
			for _, p := range Inactive(e, agentconf.Project) {
				msgs = append(msgs, p.Msg)
			}
			got := strings.Contains(strings.Join(msgs, "\n"), "is not OpenClaw's agent workspace")
			if got != c.outside || outsideWorkspace(e) != c.outside {
				t.Errorf("outside the workspace: Inactive says %q, outsideWorkspace %v; want %v", msgs, outsideWorkspace(e), c.outside)
			}
			if !c.outside && len(msgs) > 0 {
				t.Errorf("Inactive = %q, want nothing", msgs)
			}
			// A global install never depends on the workspace.
			for _, p := range Inactive(e, agentconf.Global) {
				t.Errorf("global: %s", p.Msg)
			}
		})
	}
}
