package permission

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/gotk-dev/gotk/core/regfile"
)

// Env is what loading rules needs from the outside world; tests pass their
// own.
type Env struct {
	Getenv func(string) string
	Home   string
	Cwd    string // the agent's working directory
	// ReadFile defaults to regfile.Read: a regular file of at most
	// regfile.MaxRules bytes, never a FIFO or device.
	ReadFile func(string) ([]byte, error)
	// ManagedDir overrides the system-wide managed settings location (tests).
	ManagedDir string
	// Session is what the host process's own flags add (see core/host).
	Session Session
}

// Session holds the permission flags a host was started with.
type Session struct {
	// Allow and Deny are rule entries as a settings file writes them
	// ("Bash(git log:*)"), from --allowedTools and --disallowedTools.
	Allow, Deny []string
	// Settings are --settings values: a file path or inline JSON.
	Settings []string
	// Sources limits which settings files load (--setting-sources: user,
	// project, local); nil loads all.
	Sources []string
	// Dirs are extra working directories (--add-dir).
	Dirs []string
}

func (s Session) loads(source string) bool {
	return s.Sources == nil || contains(s.Sources, source)
}

func (e Env) read(path string) ([]byte, error) {
	if e.ReadFile != nil {
		return e.ReadFile(path)
	}
	return regfile.Read(path, regfile.MaxRules)
}

// Load reads the rule files of host. Hosts without rule files get an empty
// set (every command Default).
func Load(host Host, env Env) *Rules {
	r := &Rules{Host: host}
	switch host {
	case Claude:
		r.match = claudeMatch
		loadClaude(r, env)
	case Cursor:
		r.match = cursorMatch
		loadCursor(r, env)
	case Gemini:
		r.match = geminiMatch
		r.ranked = true
		loadGemini(r, env)
	case Vibe:
		r.match = vibeMatch
		loadVibe(r, env)
	case Codex:
		loadCodex(r, env)
	case Cline:
		loadCline(r, env)
	case Droid:
		loadDroid(r, env)
	case Kilo:
		loadKilo(r, env)
	case Crush:
		loadCrush(r, env)
	case OpenCode:
		loadOpenCode(r, env)
	}
	return r
}

// ClaudeDir is $CLAUDE_CONFIG_DIR or ~/.claude.
func ClaudeDir(env Env) string {
	if d := env.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	return filepath.Join(env.Home, ".claude")
}

// ClaudeProjectSettings is a project's shared settings file (the one
// `gotk-install --project` writes); ClaudeLocalSettings its local one.
func ClaudeProjectSettings(proj string) string {
	return filepath.Join(proj, ".claude", "settings.json")
}

// ClaudeLocalSettings is a project's settings.local.json.
func ClaudeLocalSettings(proj string) string {
	return filepath.Join(proj, ".claude", "settings.local.json")
}

func claudeManagedDir(env Env) string {
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

func loadClaude(r *Rules, env Env) {
	type file struct{ path, inline string }
	var files []file
	if env.Session.loads("user") {
		files = append(files, file{path: filepath.Join(ClaudeDir(env), "settings.json")})
	}
	proj := ClaudeProject(env)
	if proj != "" {
		if env.Session.loads("project") {
			files = append(files, file{path: ClaudeProjectSettings(proj)})
		}
		if env.Session.loads("local") {
			files = append(files, file{path: ClaudeLocalSettings(proj)})
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
	md := claudeManagedDir(env)
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
			if err := parseJSONC([]byte(f.inline), &doc); err != nil {
				r.unreadable("gotk: --settings: %v", oneLine(err.Error()))
				return nil
			}
			r.Sources = append(r.Sources, "--settings")
		} else if !r.readJSON(env, f.path, &doc) {
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
			r.addClaudeRules(doc, f.path, true)
		}
	}
	for _, f := range files {
		if doc := read(f); doc != nil {
			r.addClaudeRules(doc, f.path, !managedOnly)
		}
	}
	r.add(&r.Deny, anys(env.Session.Deny), "--disallowedTools", "Bash")
	if !managedOnly {
		r.add(&r.Allow, anys(env.Session.Allow), "--allowedTools", "Bash")
	}
	r.Dirs = append(r.Dirs, env.Session.Dirs...)
	if proj != "" {
		r.Dirs = append([]string{proj}, r.Dirs...)
	}
}

// addClaudeRules adds one Claude settings document's permission rules
// (when rules is set) and its additional directories. The document was
// decoded as JavaScript's JSON.parse reads it: keys compared exactly, the
// last of duplicate keys kept.
func (r *Rules) addClaudeRules(doc map[string]any, source string, rules bool) {
	perms, _ := doc["permissions"].(map[string]any)
	list := func(k string) []any { l, _ := perms[k].([]any); return l }
	if rules {
		r.add(&r.Deny, list("deny"), source, "Bash")
		r.add(&r.Ask, list("ask"), source, "Bash")
		r.add(&r.Allow, list("allow"), source, "Bash")
	}
	for _, d := range list("additionalDirectories") {
		if s, ok := d.(string); ok && s != "" {
			r.Dirs = append(r.Dirs, s)
		}
	}
}

func anys(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// ClaudeProject is the project directory Claude Code reads settings from:
// $CLAUDE_PROJECT_DIR, which Claude sets for its hooks, else the working
// directory. (Not the nearest .claude/ above: Claude does not look there,
// and a stray empty .claude/ in a subdirectory would hide the project's
// deny rules.)
func ClaudeProject(env Env) string {
	if d := env.Getenv("CLAUDE_PROJECT_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Clean(d)
	}
	if env.Cwd == "" {
		return ""
	}
	return filepath.Clean(env.Cwd)
}

// CursorDir is ~/.cursor.
func CursorDir(env Env) string { return filepath.Join(env.Home, ".cursor") }

func loadCursor(r *Rules, env Env) {
	var f string
	switch {
	case env.Getenv("CURSOR_CONFIG_DIR") != "":
		f = filepath.Join(env.Getenv("CURSOR_CONFIG_DIR"), "cli-config.json")
	default:
		f = filepath.Join(CursorDir(env), "cli-config.json")
		if x := env.Getenv("XDG_CONFIG_HOME"); x != "" {
			if _, err := os.Stat(f); err != nil {
				f = filepath.Join(x, "cursor", "cli-config.json")
			}
		}
	}
	var doc struct {
		Permissions struct{ Allow, Deny []any } `json:"permissions"`
	}
	if r.readJSON(env, f, &doc) {
		r.add(&r.Deny, doc.Permissions.Deny, f, "Shell")
		r.add(&r.Allow, doc.Permissions.Allow, f, "Shell")
	}
	// A project's .cursor/cli.json can only make gotk more careful here:
	// its deny rules count, its allow rules do not.
	if env.Cwd != "" {
		pf := filepath.Join(env.Cwd, ".cursor", "cli.json")
		var pdoc struct {
			Permissions struct{ Deny []any } `json:"permissions"`
		}
		if r.readJSON(env, pf, &pdoc) {
			r.add(&r.Deny, pdoc.Permissions.Deny, pf, "Shell")
		}
	}
}

// GeminiHome is $GEMINI_CLI_HOME or the home directory.
func GeminiHome(env Env) string {
	if d := env.Getenv("GEMINI_CLI_HOME"); d != "" {
		return d
	}
	return env.Home
}

// GeminiDir is ~/.gemini, where GEMINI_CLI_HOME replaces the home folder
// (gemini-cli packages/core/src/utils/paths.ts homedir()).
func GeminiDir(env Env) string { return filepath.Join(GeminiHome(env), ".gemini") }

// GeminiProjectSettings is a workspace's settings file.
func GeminiProjectSettings(cwd string) string { return filepath.Join(cwd, ".gemini", "settings.json") }

func loadGemini(r *Rules, env Env) {
	type doc struct {
		Tools struct {
			Allowed              []any `json:"allowed"`
			Exclude              []any `json:"exclude"`
			ConfirmationRequired []any `json:"confirmationRequired"`
		} `json:"tools"`
		Security struct {
			FolderTrust struct {
				Enabled *bool `json:"enabled"`
			} `json:"folderTrust"`
		} `json:"security"`
		PolicyPaths      []string `json:"policyPaths"`
		AdminPolicyPaths []string `json:"adminPolicyPaths"`
	}
	gf := filepath.Join(GeminiDir(env), "settings.json")
	var g doc
	haveGlobal := r.readJSON(env, gf, &g)
	trusted := env.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true" || !(g.Security.FolderTrust.Enabled != nil && *g.Security.FolderTrust.Enabled)
	type settings struct {
		path string
		d    doc
		ok   bool
	}
	files := []settings{{gf, g, haveGlobal}}
	if trusted && env.Cwd != "" {
		pf := GeminiProjectSettings(env.Cwd)
		if pf != gf {
			var p doc
			ok := r.readJSON(env, pf, &p)
			files = append(files, settings{pf, p, ok})
		}
	}
	// System settings: only where policy files come from.
	sf := env.Getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
	if sf == "" {
		sf = filepath.Join(GeminiSystemDir(), "settings.json")
		if env.ManagedDir != "" {
			sf = filepath.Join(env.ManagedDir, "settings.json")
		}
	}
	var sys doc
	r.readJSON(env, sf, &sys)
	var policyPaths []string
	for _, f := range files {
		if !f.ok {
			continue
		}
		policyPaths = append(policyPaths, f.d.PolicyPaths...)
		for _, prefix := range []string{"run_shell_command", "ShellTool"} {
			r.addRanked(&r.Deny, f.d.Tools.Exclude, f.path, prefix, geminiExcludePriority)
			r.addRanked(&r.Ask, f.d.Tools.ConfirmationRequired, f.path, prefix, geminiConfirmPriority)
			r.addRanked(&r.Allow, f.d.Tools.Allowed, f.path, prefix, geminiAllowedPriority)
		}
	}
	policyPaths = append(policyPaths, sys.PolicyPaths...)
	loadGeminiPolicies(r, env, geminiPolicyPaths(env, trusted, policyPaths, sys.AdminPolicyPaths))
	r.Deny = append(r.Deny, geminiHeuristicRules(trusted)...)
}

// addRanked is add with every new rule at priority p.
func (r *Rules) addRanked(dst *[]Rule, entries []any, source, tool string, p float64) {
	n := len(*dst)
	r.add(dst, entries, source, tool)
	for i := n; i < len(*dst); i++ {
		(*dst)[i].Priority = p
	}
}

// readJSON reads a JSON-with-comments file into v. A missing file is
// silently false; a broken one is false with a warning.
func (r *Rules) readJSON(env Env, path string, v any) bool {
	data, err := env.read(path)
	if err != nil {
		if regfile.Skipped(err) {
			// Not a file the host could read either, but what the host
			// makes of it is unknown.
			r.unreadable("gotk: %s: %v", path, err)
			return false
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			r.warnf("gotk: %s: %v; its permission rules are ignored", path, err)
		}
		return false
	}
	if err := parseJSONC(data, v); err != nil {
		r.warnf("gotk: %s: %v; its permission rules are ignored", path, oneLine(err.Error()))
		return false
	}
	r.Sources = append(r.Sources, path)
	return true
}

// add appends the rules of entries that name tool: `Tool(pattern)` adds
// pattern; a bare `Tool` adds "*". Entries for other tools are skipped.
func (r *Rules) add(dst *[]Rule, entries []any, source, tool string) {
	for _, e := range entries {
		s, ok := e.(string)
		if !ok {
			continue
		}
		s = strings.TrimSpace(s)
		switch {
		case s == tool:
			*dst = append(*dst, Rule{Pattern: "*", Raw: s, Source: source})
		case strings.HasPrefix(s, tool+"(") && strings.HasSuffix(s, ")"):
			*dst = append(*dst, Rule{Pattern: s[len(tool)+1 : len(s)-1], Raw: s, Source: source})
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
