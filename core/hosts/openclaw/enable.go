package openclaw

import (
	"errors"
	"io/fs"
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
func Inactive(e *agentconf.Env, _ agentconf.Scope) []agentconf.Problem {
	env := e.Perm()
	path := Config(env)
	enable := agentconf.Problem{Fix: "openclaw plugins enable gotk"}
	b, err := env.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		enable.Msg = path + " does not exist, so OpenClaw does not enable the plugin in agent runs"
		return []agentconf.Problem{enable}
	}
	if err != nil {
		return nil
	}
	cfg, err := parseConfig(b)
	if err != nil || hasKey(cfg, "$include") {
		return nil
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
