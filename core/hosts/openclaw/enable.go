package openclaw

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// pluginID is the id of gotk's plugin (its manifest's "id").
const pluginID = "gotk"

// Inactive says why OpenClaw would not load gotk's installed plugin into
// its agent runs. OpenClaw 2026.9.6 (dist/config-normalization-shared-*.mjs,
// dist/enable-*.mjs) turns a plugin off when plugins.enabled is false, when
// plugins.deny names it, or when plugins.allow is not empty and does not;
// and an `openclaw agent --local` run (measured) loads a discovered global
// plugin only with plugins.entries.<id>.enabled true, which is what
// `openclaw plugins enable gotk` writes. A config gotk cannot read tells
// nothing: no problem is claimed.
//
// A project install (<project>/.openclaw/extensions/gotk) is a workspace
// plugin: OpenClaw scans <workspace>/.openclaw/extensions only for its
// agent's workspace (dist/roots-*.mjs, dist/agent-scope-config-*.mjs),
// never the directory it was started from, and enables a workspace
// plugin only through the same openclaw.json entry or plugins.allow
// (dist/config-normalization-shared-*.mjs: "workspace-disabled-by-default").
func Inactive(e *agentconf.Env, s agentconf.Scope) []agentconf.Problem {
	env := e.Perm()
	path := Config(env)
	enable := agentconf.Problem{Fix: "openclaw plugins enable gotk"}
	b, err := env.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		enable.Msg = path + " does not exist, so OpenClaw does not enable the plugin in agent runs"
		if s == agentconf.Project {
			return append(notWorkspace(e, nil, path), enable)
		}
		return []agentconf.Problem{enable}
	}
	if err != nil {
		return nil
	}
	cfg, err := parseConfig(b)
	if err != nil || hasKey(cfg, "$include") {
		return nil
	}
	if s == agentconf.Project {
		if p := notWorkspace(e, cfg, path); p != nil {
			return p
		}
	}
	plugins := object(cfg["plugins"])
	switch {
	case plugins["enabled"] == false:
		return []agentconf.Problem{{Msg: path + ": plugins.enabled is false, so OpenClaw loads no plugin", Fix: "set plugins.enabled to true in " + path}}
	case listHas(plugins["deny"], pluginID):
		return []agentconf.Problem{{Msg: path + ": plugins.deny names gotk, so OpenClaw never loads its plugin", Fix: "take gotk out of plugins.deny in " + path}}
	case listLen(plugins["allow"]) > 0 && !listHas(plugins["allow"], pluginID):
		return []agentconf.Problem{{Msg: path + ": plugins.allow does not name gotk, so OpenClaw never loads its plugin", Fix: "add gotk to plugins.allow in " + path + ", then openclaw plugins enable gotk"}}
	case object(object(plugins["entries"])[pluginID])["enabled"] != true:
		enable.Msg = path + ": plugins.entries.gotk.enabled is not true, so OpenClaw does not load the plugin into agent runs"
		return []agentconf.Problem{enable}
	}
	return nil
}

// listHas says whether the config list v names id, as OpenClaw compares
// plugin ids: trimmed, in lower case.
func listHas(v any, id string) bool {
	list, _ := v.([]any)
	for _, x := range list {
		if s, ok := x.(string); ok && strings.ToLower(strings.TrimSpace(s)) == id {
			return true
		}
	}
	return false
}

// listLen counts the non-empty names in the config list v.
func listLen(v any) int {
	n := 0
	list, _ := v.([]any)
	for _, x := range list {
		if s, ok := x.(string); ok && strings.TrimSpace(s) != "" {
			n++
		}
	}
	return n
}

// notWorkspace says, for a project install, that OpenClaw would not scan
// the project: it is none of the agent workspaces cfg (nil: no config)
// can resolve to. OpenClaw 2026.9.6 (resolveAgentWorkspaceDir) takes an
// agent's own workspace, else agents.defaults.workspace (joined with the
// agent's id for all but one agent), else $OPENCLAW_WORKSPACE_DIR, else
// workspace (or workspace-<id>) in the state directory. The check is
// lenient: any workspace named anywhere under agents, or its child, counts;
// and where "~" or a relative path depends on more than gotk reads
// ($OPENCLAW_HOME, a profile), it claims nothing.
func notWorkspace(e *agentconf.Env, cfg map[string]any, path string) []agentconf.Problem {
	if e.Getenv("OPENCLAW_HOME") != "" || e.Getenv("OPENCLAW_PROFILE") != "" || e.Cwd == "" {
		return nil
	}
	state := Dir(e)
	// The workspaces OpenClaw may use, and the folders whose children it
	// may use (agents.defaults.workspace/<id>, <state>/workspace-<id>).
	is := []string{filepath.Join(state, "workspace")}
	in := []string{state}
	if d := e.Getenv("OPENCLAW_WORKSPACE_DIR"); d != "" {
		is = append(is, d)
	}
	var named []string
	collect(cfg["agents"], "workspace", &named)
	for _, w := range named {
		w = strings.TrimSpace(w)
		if w == "~" || strings.HasPrefix(w, "~/") {
			w = filepath.Join(e.Home, w[1:])
		}
		if !filepath.IsAbs(w) {
			return nil
		}
		is, in = append(is, w), append(in, w)
	}
	cwd := sameDir(e.Cwd)
	for _, w := range is {
		if cwd == sameDir(w) {
			return nil
		}
	}
	for _, w := range in {
		if filepath.Dir(cwd) == sameDir(w) && (w != state || strings.HasPrefix(filepath.Base(cwd), "workspace-")) {
			return nil
		}
	}
	return []agentconf.Problem{{
		Msg: e.Cwd + " is not OpenClaw's agent workspace, so OpenClaw never looks in its .openclaw/extensions",
		Fix: "set agents.defaults.workspace to " + e.Cwd + " in " + path + ", or gotk-install --agent openclaw --global",
	}}
}

// outsideWorkspace reports whether OpenClaw's config (or its absence)
// shows that the project in e.Cwd is none of its agent workspaces.
func outsideWorkspace(e *agentconf.Env) bool {
	env := e.Perm()
	path := Config(env)
	var cfg map[string]any
	b, err := env.Read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return false
	default:
		if cfg, err = parseConfig(b); err != nil || hasKey(cfg, "$include") {
			return false
		}
	}
	return notWorkspace(e, cfg, path) != nil
}

// collect appends every string member named key anywhere in v to out.
func collect(v any, key string, out *[]string) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if s, ok := x.(string); ok && k == key {
				*out = append(*out, s)
			} else {
				collect(x, key, out)
			}
		}
	case []any:
		for _, x := range t {
			collect(x, key, out)
		}
	}
}

// sameDir is p cleaned, through its symbolic links where they resolve.
func sameDir(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
