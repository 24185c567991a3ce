package claude

import (
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/gotk-dev/gotk/core/permission"
)

// Dir is $CLAUDE_CONFIG_DIR or ~/.claude.
func Dir(env permission.Env) string { return env.DirFrom("CLAUDE_CONFIG_DIR", ".claude") }

// ProjectSettings is a project's shared settings file (the one
// `gotk-install --project` writes); LocalSettings its local one.
func ProjectSettings(proj string) string {
	return filepath.Join(proj, ".claude", "settings.json")
}

// LocalSettings is a project's settings.local.json.
func LocalSettings(proj string) string {
	return filepath.Join(proj, ".claude", "settings.local.json")
}

func managedDir(env permission.Env) string {
	if env.ManagedDir != "" {
		return env.ManagedDir
	}
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/ClaudeCode"
	case "windows":
		return `C:\Program Files\ClaudeCode`
	}
	return "/etc/claude-code"
}

// Load reads Claude Code's settings files: managed, user, project, local
// and --settings, as the session's --setting-sources allow.
func Load(r *permission.Rules, env permission.Env) {
	// deny and ask rules see `FOO=1 git …` too; allow rules may see the
	// command without the safe assignments Claude strips
	r.SourceText, r.StripAssign = true, func(name string) bool { return safeEnv[name] }
	type file struct{ path, inline string }
	var files []file
	if env.Session.Loads("user") {
		files = append(files, file{path: filepath.Join(Dir(env), "settings.json")})
	}
	proj := Project(env)
	if proj != "" {
		if env.Session.Loads("project") {
			files = append(files, file{path: ProjectSettings(proj)})
		}
		if env.Session.Loads("local") {
			files = append(files, file{path: LocalSettings(proj)})
		}
	}
	for _, s := range env.Session.Settings {
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") {
			files = append(files, file{path: "--settings", inline: t})
			continue
		}
		if !filepath.IsAbs(s) && proj != "" {
			s = filepath.Join(proj, s)
		}
		files = append(files, file{path: s})
	}
	md := managedDir(env)
	managed := []file{{path: filepath.Join(md, "managed-settings.json")}}
	if drop, err := filepath.Glob(filepath.Join(md, "managed-settings.d", "*.json")); err == nil {
		sort.Strings(drop)
		for _, d := range drop {
			managed = append(managed, file{path: d})
		}
	}
	// Managed settings first: their allowManagedPermissionRulesOnly makes
	// Claude ignore the rules of every other settings file (user, project,
	// local, --settings) and --allowedTools; --disallowedTools still holds.
	managedOnly := false
	seen := map[string]bool{}
	read := func(f file) map[string]any {
		if f.inline == "" {
			if seen[f.path] {
				return nil
			}
			seen[f.path] = true
		}
		var doc map[string]any
		if f.inline != "" {
			if err := permission.ParseJSONC([]byte(f.inline), &doc); err != nil {
				r.MarkUnreadable("gotk: --settings: %v", permission.OneLine(err.Error()))
				return nil
			}
			r.Sources = append(r.Sources, "--settings")
		} else if !r.ReadJSON(env, f.path, &doc) {
			return nil
		}
		return doc
	}
	for _, f := range managed {
		if doc := read(f); doc != nil {
			// drop-ins merge over the main file in name order: the last
			// that sets the key decides
			if v, ok := doc["allowManagedPermissionRulesOnly"]; ok {
				managedOnly = v == true
			}
			addRules(r, doc, f.path, true)
		}
	}
	for _, f := range files {
		if doc := read(f); doc != nil {
			addRules(r, doc, f.path, !managedOnly)
		}
	}
	r.Add(&r.Deny, permission.Entries(env.Session.Deny), "--disallowedTools", "Bash")
	if !managedOnly {
		r.Add(&r.Allow, permission.Entries(env.Session.Allow), "--allowedTools", "Bash")
	}
	r.Dirs = append(r.Dirs, env.Session.Dirs...)
	if proj != "" {
		r.Dirs = append([]string{proj}, r.Dirs...)
	}
}

// addRules adds one Claude settings document's permission rules
// (when rules is set) and its additional directories. The document was
// decoded as JavaScript's JSON.parse reads it: keys compared exactly, the
// last of duplicate keys kept.
func addRules(r *permission.Rules, doc map[string]any, source string, rules bool) {
	perms, _ := doc["permissions"].(map[string]any)
	list := func(k string) []any { l, _ := perms[k].([]any); return l }
	if rules {
		r.Add(&r.Deny, list("deny"), source, "Bash")
		r.Add(&r.Ask, list("ask"), source, "Bash")
		r.Add(&r.Allow, list("allow"), source, "Bash")
	}
	for _, d := range list("additionalDirectories") {
		if s, ok := d.(string); ok && s != "" {
			r.Dirs = append(r.Dirs, s)
		}
	}
}

// Project is the project directory Claude Code reads settings from:
// $CLAUDE_PROJECT_DIR, which Claude sets for its hooks, else the working
// directory. (Not the nearest .claude/ above: Claude does not look there,
// and a stray empty .claude/ in a subdirectory would hide the project's
// deny rules.)
func Project(env permission.Env) string {
	if d := env.Getenv("CLAUDE_PROJECT_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	if env.Cwd == "" {
		return ""
	}
	return filepath.Clean(env.Cwd)
}
