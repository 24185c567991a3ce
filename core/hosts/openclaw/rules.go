package openclaw

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/tailscale/hujson"
)

// StateDir is $OPENCLAW_STATE_DIR, else ~/.openclaw.
func StateDir(env permission.Env) string { return env.DirFrom("OPENCLAW_STATE_DIR", ".openclaw") }

// Config is the config file OpenClaw reads: $OPENCLAW_CONFIG_PATH,
// else openclaw.json in the state directory.
func Config(env permission.Env) string {
	if p := env.Getenv("OPENCLAW_CONFIG_PATH"); p != "" {
		return p
	}
	return filepath.Join(StateDir(env), "openclaw.json")
}

// openClawApprovalsDoc starts every approvals document OpenClaw stores.
var openClawApprovalsDoc = []byte("{\n  \"version\": 1")

// Load reads OpenClaw's exec policy into r: nothing where it checks no
// exec command, else r is Unreadable (gotk steps aside).
//
// OpenClaw checks an exec command against its exec approvals inside the
// exec tool, AFTER the plugin's before_tool_call rewrite (openclaw 2026.9.6,
// dist/agent-tools.before-tool-call-*.mjs: the wrapper runs the hooks, then
// tool.execute with the merged params). Its allowlist matches the resolved
// executable of every pipeline segment, its safe bins their argv, its
// strictInlineEval the interpreter forms, and its auto mode asks a reviewer
// model about the text: behind `gotk …` every one of them sees another
// program. gotk therefore rewrites for OpenClaw only where no such check
// runs at all — security "full" with ask "off" (tools.exec.mode "full", or
// nothing set: the gateway host's default), strictInlineEval off, no
// sandbox, no node host — in the config file and in every agent's override,
// and only where the host's exec-approvals store (which can only tighten
// the config) holds no document. Everywhere else gotk steps aside
// (Rules.Unreadable, with a warning that says why) and OpenClaw decides on
// the original command alone.
//
// Sources: $OPENCLAW_CONFIG_PATH, else openclaw.json in $OPENCLAW_STATE_DIR
// or ~/.openclaw (JSON5: gotk reads the JSON-with-comments subset and steps
// aside on anything else, and on $include); the approvals document, kept in
// the state directory's state/openclaw.sqlite (table exec_approvals_config,
// written as JSON.stringify(doc, null, 2)): gotk reads no SQLite, so any
// such document in the database or its write-ahead log counts as present.
// Not visible to gotk: a session's permission mode and a turn's /exec
// security=… override, which OpenClaw lets only tighten the policy.
func Load(r *permission.Rules, env permission.Env) {
	stepAside := func(why string) {
		r.Unreadable = true
		r.Warnf("OpenClaw: %s; gotk steps aside and OpenClaw decides on the original command", why)
	}
	if env.Getenv("OPENCLAW_PROFILE") != "" && env.Getenv("OPENCLAW_STATE_DIR") == "" {
		stepAside("$OPENCLAW_PROFILE names a state directory gotk does not look for")
		return
	}
	state := StateDir(env)
	for _, f := range []string{"openclaw.sqlite", "openclaw.sqlite-wal"} {
		p := filepath.Join(state, "state", f)
		b, err := env.Read(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			stepAside("cannot read " + p + " (" + err.Error() + ")")
			return
		case bytes.Contains(b, openClawApprovalsDoc):
			stepAside(p + " holds an exec-approvals document, which may tighten the exec policy")
			return
		}
	}
	path := Config(env)
	b, err := env.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		stepAside("cannot read " + path + " (" + err.Error() + ")")
		return
	}
	r.Sources = append(r.Sources, path)
	cfg, err := parseConfig(b)
	if err != nil {
		stepAside(path + " is JSON5 gotk does not read (" + err.Error() + ")")
		return
	}
	if why := openClawPolicy(cfg); why != "" {
		stepAside(why)
	}
}

// openClawPolicy returns why OpenClaw's config may check exec commands
// (allowlist, approvals, review, sandbox), or "" when it runs them all
// without a check.
func openClawPolicy(cfg map[string]any) string {
	if hasKey(cfg, "$include") {
		return "the config includes other files ($include)"
	}
	type scope struct {
		where string
		obj   map[string]any
	}
	scopes := []scope{{"", cfg}}
	agents := object(cfg["agents"])
	if d := object(agents["defaults"]); d != nil {
		scopes = append(scopes, scope{"agents.defaults.", d})
	}
	entries := object(agents["entries"])
	ids := make([]string, 0, len(entries))
	for id := range entries {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		scopes = append(scopes, scope{"agents.entries." + id + ".", object(entries[id])})
	}
	if list, ok := agents["list"].([]any); ok {
		for _, a := range list {
			scopes = append(scopes, scope{"agents.list[].", object(a)})
		}
	}
	for _, s := range scopes {
		if s.obj == nil {
			return s.where + " is not an object"
		}
		if sb := object(s.obj["sandbox"]); sb != nil {
			if m, ok := sb["mode"]; ok && m != "off" {
				return s.where + "sandbox.mode is set: sandboxed exec has its own policy"
			}
		}
		tools, ok := s.obj["tools"]
		if !ok {
			continue
		}
		exec, ok := object(tools)["exec"]
		if !ok {
			continue
		}
		e := object(exec)
		if e == nil {
			return s.where + "tools.exec is not an object"
		}
		for _, c := range []struct {
			key  string
			okay []any
		}{
			{"mode", []any{"full"}},
			{"security", []any{"full"}},
			{"ask", []any{"off"}},
			{"strictInlineEval", []any{false}},
			{"host", []any{"auto", "gateway"}},
		} {
			v, set := e[c.key]
			if !set {
				continue
			}
			ok := false
			for _, o := range c.okay {
				ok = ok || v == o
			}
			if !ok {
				b, _ := json.Marshal(v)
				return s.where + "tools.exec." + c.key + " is " + string(b) + ": OpenClaw then checks each command (allowlist, approvals or review) on the text it runs"
			}
		}
	}
	return ""
}

// parseConfig reads openclaw.json: JSON5, of which gotk reads the
// JSON-with-comments subset.
func parseConfig(b []byte) (map[string]any, error) {
	std, err := hujson.Standardize(b)
	var cfg map[string]any
	if err == nil {
		err = json.Unmarshal(std, &cfg)
	}
	return cfg, err
}

// object is v as a JSON object, or nil.
func object(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// hasKey: key is a member name anywhere in v.
func hasKey(v any, key string) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if k == key || hasKey(x, key) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if hasKey(x, key) {
				return true
			}
		}
	}
	return false
}
