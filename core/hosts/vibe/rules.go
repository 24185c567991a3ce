package vibe

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/gotk-dev/gotk/core/permission"
)

// Mistral Vibe's bash tool (mistralai/mistral-vibe@ac8f1a0,
// vibe/core/tools/builtins/bash.py and vibe/core/tools/base.py) is set up
// in the [tools.bash] table of ~/.vibe/config.toml ($VIBE_HOME relocates
// ~/.vibe) and of the nearest .vibe/config.toml at or above the working
// directory (vibe/core/config/layers/project.py; used when trusted):
//
//	[tools.bash]
//	permission = "ask"            # always | ask | never
//	allowlist = ["git status"]    # run without asking (not read: see loadVibe)
//	denylist = ["git push"]       # refused
//	denylist_standalone = ["python"] # refused when run without arguments
//	sensitive_patterns = ["sudo"] # first word: always ask
//
// Vibe splits a command into its simple commands (tree-sitter) and tests
// each: denylist entries as word prefixes (`c == p or c.startswith(p+" ")`),
// denylist_standalone against a one-word command or its basename,
// sensitive_patterns against the first word, and `find` with -exec,
// -execdir, -ok or -okdir always asks. The default lists apply when a file
// does not set them; here they always count, which only adds deny rules.

// Home is $VIBE_HOME or ~/.vibe.
func Home(env permission.Env) string {
	if d := env.Getenv("VIBE_HOME"); d != "" {
		return d
	}
	return filepath.Join(env.Home, ".vibe")
}

var (
	vibeDefaultDeny = []string{"gdb", "pdb", "passwd", "nano", "vim", "vi", "emacs",
		"bash -i", "sh -i", "zsh -i", "fish -i", "dash -i", "screen", "tmux"}
	vibeDefaultStandalone = []string{"python", "python3", "ipython", "bash", "sh", "nohup", "vi", "vim", "emacs", "nano", "su"}
	vibeDefaultSensitive  = []string{"sudo"}
)

// vibeBash is the [tools.bash] table; nil fields were not set.
type vibeBash struct {
	Permission         *string  `toml:"permission"`
	Denylist           []string `toml:"denylist"`
	DenylistStandalone []string `toml:"denylist_standalone"`
	SensitivePatterns  []string `toml:"sensitive_patterns"`
}

// vibeProject is the nearest .vibe/config.toml at or above cwd, below the
// directory holding Home (where Vibe stops looking).
func vibeProject(env permission.Env) string {
	if env.Cwd == "" {
		return ""
	}
	stop := filepath.Dir(filepath.Clean(Home(env)))
	for d := filepath.Clean(env.Cwd); d != stop; d = filepath.Dir(d) {
		f := filepath.Join(d, ".vibe", "config.toml")
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			return f
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return ""
}

// readVibe reads one config file's [tools.bash]; ok is false when the file
// is missing or broken (broken: Unreadable).
func readVibe(r *permission.Rules, env permission.Env, path string) (vibeBash, bool) {
	var doc struct {
		Tools map[string]toml.Primitive `toml:"tools"`
	}
	var b vibeBash
	data, err := env.Read(path)
	if err != nil {
		if !os.IsNotExist(err) {
			r.MarkUnreadable("gotk: %s: %v", path, err)
		}
		return b, false
	}
	md, err := toml.Decode(string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))), &doc)
	if err == nil {
		if p, ok := doc.Tools["bash"]; ok {
			err = md.PrimitiveDecode(p, &b)
		}
	}
	if err != nil {
		r.MarkUnreadable("gotk: %s: %s", path, permission.OneLine(err.Error()))
		return vibeBash{}, false
	}
	r.Sources = append(r.Sources, path)
	return b, true
}

// Load reads Vibe's config.toml bash tool permissions (user and project).
func Load(r *permission.Rules, env permission.Env) {
	r.Match = match
	uf := filepath.Join(Home(env), "config.toml")
	user, haveUser := readVibe(r, env, uf)
	var proj vibeBash
	pf := vibeProject(env)
	haveProj := false
	if pf != "" && pf != uf {
		proj, haveProj = readVibe(r, env, pf)
	}
	// permission.Deny and ask: the defaults and both files, trusted or not.
	addList := func(dst *[]permission.Rule, list []string, source string, test func(p string) func(string) bool) {
		for _, p := range list {
			if strings.TrimSpace(p) == "" {
				continue
			}
			rule := permission.Rule{Pattern: p, Raw: p, Source: source}
			if test != nil {
				rule.Test = test(p)
			}
			*dst = append(*dst, rule)
		}
	}
	standalone := func(p string) func(string) bool {
		return func(cmd string) bool {
			f := strings.Fields(cmd)
			return len(f) == 1 && (f[0] == p || filepath.Base(f[0]) == p)
		}
	}
	firstWord := func(p string) func(string) bool {
		return func(cmd string) bool {
			f := strings.Fields(cmd)
			return len(f) > 0 && f[0] == p
		}
	}
	addList(&r.Deny, vibeDefaultDeny, "vibe defaults (denylist)", nil)
	addList(&r.Deny, vibeDefaultStandalone, "vibe defaults (denylist_standalone)", standalone)
	addList(&r.Ask, vibeDefaultSensitive, "vibe defaults (sensitive_patterns)", firstWord)
	r.Ask = append(r.Ask, permission.Rule{Pattern: "find -exec", Raw: "find with -exec, -execdir, -ok or -okdir", Source: "vibe bash tool", Test: vibeFindExec})
	for _, f := range []struct {
		b    vibeBash
		ok   bool
		path string
	}{{user, haveUser, uf}, {proj, haveProj, pf}} {
		if !f.ok {
			continue
		}
		addList(&r.Deny, f.b.Denylist, f.path, nil)
		addList(&r.Deny, f.b.DenylistStandalone, f.path, standalone)
		addList(&r.Ask, f.b.SensitivePatterns, f.path, firstWord)
		if f.b.Permission != nil {
			switch strings.ToLower(*f.b.Permission) {
			case "never":
				r.Deny = append(r.Deny, permission.Rule{Pattern: "*", Raw: `permission = "never"`, Source: f.path})
			case "always", "ask":
			default:
				r.Warnf("gotk: %s: tools.bash.permission = %q is not always, ask or never", f.path, *f.b.Permission)
			}
		}
	}
	// Allow: Vibe asks for permission after its hooks, on the rewritten
	// command, so an allowlist entry for the original (`git status`) does
	// not cover the rewrite (`gotk git status`) and is not read. Only
	// permission = "always" covers both; it counts from the user file when
	// the project file (trusted or not) sets no other permission.
	userAlways := haveUser && user.Permission != nil && strings.EqualFold(*user.Permission, "always")
	projOK := !haveProj || proj.Permission == nil || strings.EqualFold(*proj.Permission, "always")
	if userAlways && projOK {
		r.Allow = append(r.Allow, permission.Rule{Pattern: "*", Raw: `permission = "always"`, Source: uf})
	}
}

// match is Vibe's _matches_pattern: the command is the pattern or
// starts with the pattern and a space. "*" is gotk's own rule for a tool
// permission (always, never) and matches every command.
func match(pattern, cmd string) bool {
	p := permission.Normalize(pattern)
	if p == "*" {
		return true
	}
	return p != "" && permission.WordPrefix(permission.Normalize(cmd), p)
}

// vibeFindExec is Vibe's _has_find_execution_predicate.
func vibeFindExec(cmd string) bool {
	if !match("find", cmd) {
		return false
	}
	for _, p := range []string{"-exec", "-execdir", "-ok", "-okdir"} {
		if strings.Contains(cmd, p) {
			return true
		}
	}
	return false
}
