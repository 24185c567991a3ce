package cursor

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/gotk-dev/gotk/core/permission"
)

// Dir is ~/.cursor.
func Dir(env permission.Env) string { return filepath.Join(env.Home, ".cursor") }

// Load reads Cursor CLI's cli-config.json permissions, and the deny rules
// of a project's .cursor/cli.json.
func Load(r *permission.Rules, env permission.Env) {
	r.Match = match
	var f string
	switch {
	case env.Getenv("CURSOR_CONFIG_DIR") != "":
		f = filepath.Join(env.Getenv("CURSOR_CONFIG_DIR"), "cli-config.json")
	default:
		f = filepath.Join(Dir(env), "cli-config.json")
		if x := env.Getenv("XDG_CONFIG_HOME"); x != "" {
			if _, err := os.Stat(f); err != nil {
				f = filepath.Join(x, "cursor", "cli-config.json")
			}
		}
	}
	var doc struct {
		Permissions struct{ Allow, Deny []any } `json:"permissions"`
	}
	if r.ReadJSON(env, f, &doc) {
		r.Add(&r.Deny, doc.Permissions.Deny, f, "Shell")
		r.Add(&r.Allow, doc.Permissions.Allow, f, "Shell")
	}
	// A project's .cursor/cli.json can only make gotk more careful here:
	// its deny rules count, its allow rules do not.
	if env.Cwd != "" {
		pf := filepath.Join(env.Cwd, ".cursor", "cli.json")
		var pdoc struct {
			Permissions struct{ Deny []any } `json:"permissions"`
		}
		if r.ReadJSON(env, pf, &pdoc) {
			r.Add(&r.Deny, pdoc.Permissions.Deny, pf, "Shell")
		}
	}
}

// match implements Cursor CLI's Shell(...) rules: `Shell(git)` names
// the command base (the first word) and may be a glob; `Shell(curl:*)`
// names the base and a glob over the rest of the arguments.
func match(pattern, cmd string) bool {
	p := permission.Normalize(pattern)
	c := permission.Normalize(cmd)
	if p == "" {
		return false
	}
	if p == "*" {
		return true
	}
	base, rest, _ := strings.Cut(c, " ")
	if pb, pargs, ok := strings.Cut(p, ":"); ok {
		return permission.Glob(pb, base) && (pargs == "*" || permission.Glob(pargs, rest))
	}
	return permission.Glob(p, base)
}
