package permission

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
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
	// Policies and AdminPolicies are policy files or directories the flags
	// load in place of the settings' (Gemini CLI's --policy and
	// --admin-policy).
	Policies, AdminPolicies []string
}

// Loads reports whether the settings source (user, project, local)
// loads in this session.
func (s Session) Loads(source string) bool {
	return s.Sources == nil || slices.Contains(s.Sources, source)
}

// DirFrom is $name when set, else the home-relative path def: where
// hosts keep their configuration (CODEX_HOME, VIBE_HOME, …).
func (e Env) DirFrom(name string, def ...string) string {
	if d := e.Getenv(name); d != "" {
		return d
	}
	return filepath.Join(append([]string{e.Home}, def...)...)
}

// Read reads a rule file: ReadFile, or a regular file of at most
// regfile.MaxRules bytes.
func (e Env) Read(path string) ([]byte, error) {
	if e.ReadFile != nil {
		return e.ReadFile(path)
	}
	return regfile.Read(path, regfile.MaxRules)
}

// Loader reads one host's rule files into r; each host's package has its
// own (core/hosts/<name>).
type Loader func(r *Rules, env Env)

// Load returns the rules of host h as load reads them. A host without
// rule files (load nil) gets an empty set: every command Default.
func Load(h Host, load Loader, env Env) *Rules {
	r := &Rules{Host: h}
	if load != nil {
		load(r, env)
	}
	return r
}

// AddRanked is Add with every new rule at priority p.
func (r *Rules) AddRanked(dst *[]Rule, entries []any, source, tool string, p float64) {
	n := len(*dst)
	r.Add(dst, entries, source, tool)
	for i := n; i < len(*dst); i++ {
		(*dst)[i].Priority = p
	}
}

// ReadJSON reads a JSON-with-comments file into v. A missing file is
// silently false; a broken one is false with a warning.
func (r *Rules) ReadJSON(env Env, path string, v any) bool {
	data, err := env.Read(path)
	if err != nil {
		if regfile.Skipped(err) {
			// Not a file the host could read either, but what the host
			// makes of it is unknown.
			r.MarkUnreadable("gotk: %s: %v", path, err)
			return false
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			r.Warnf("gotk: %s: %v; its permission rules are ignored", path, err)
		}
		return false
	}
	if err := ParseJSONC(data, v); err != nil {
		r.Warnf("gotk: %s: %v; its permission rules are ignored", path, OneLine(err.Error()))
		return false
	}
	r.Sources = append(r.Sources, path)
	return true
}

// Add appends the rules of entries that name tool: `Tool(pattern)` adds
// pattern; a bare `Tool` adds "*". Entries for other tools are skipped.
func (r *Rules) Add(dst *[]Rule, entries []any, source, tool string) {
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

// Entries are rule entries from flags (strings) in the form Add takes.
func Entries(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// OneLine joins s's lines and runs of spaces into one line.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Missing reports whether err says a rule file is not there: it does not
// exist, or a component of its path is not a directory.
func Missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "not a directory")
}
