package vibe

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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
//	allowlist = ["git status"]    # run without asking (see Load)
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
func Home(env permission.Env) string { return env.DirFrom("VIBE_HOME", ".vibe") }

var (
	vibeDefaultDeny = []string{"gdb", "pdb", "passwd", "nano", "vim", "vi", "emacs",
		"bash -i", "sh -i", "zsh -i", "fish -i", "dash -i", "screen", "tmux"}
	vibeDefaultStandalone = []string{"python", "python3", "ipython", "bash", "sh", "nohup", "vi", "vim", "emacs", "nano", "su"}
	vibeDefaultSensitive  = []string{"sudo"}
	vibeDefaultAllow      = []string{"cd", "echo", "git diff", "git log", "git status", "tree", "whoami", "basename", "cat",
		"comm", "cut", "date", "diff", "dirname", "du", "file", "find", "fmt", "fold", "grep", "head", "join", "less", "ls",
		"md5sum", "more", "nl", "od", "paste", "pwd", "readlink", "sha1sum", "sha256sum", "shasum", "sort", "stat", "sum",
		"tac", "tail", "tr", "uname", "uniq", "wc", "which"}
)

// vibeBash is the [tools.bash] table; nil fields were not set.
type vibeBash struct {
	Permission         *string  `toml:"permission"`
	Allowlist          []string `toml:"allowlist"`
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
	// Vibe adds " <redirect>" to a redirected command's words: a denylist
	// entry may name it.
	denied := func(p string) func(string) bool {
		return func(cmd string) bool { return match(p, cmd) || match(p, cmd+" <redirect>") }
	}
	addList(&r.Deny, vibeDefaultDeny, "vibe defaults (denylist)", denied)
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
		addList(&r.Deny, f.b.Denylist, f.path, denied)
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
	always := userAlways && projOK
	if always {
		r.Allow = append(r.Allow, permission.Rule{Pattern: "*", Raw: `permission = "always"`, Source: uf})
	}
	// Vibe judges the rewrite: where its allowlist (unless "always"),
	// denylist or sensitive_patterns would judge `gotk CMD` otherwise than
	// CMD (an original on the allowlist runs without asking, its rewrite
	// not on it would ask), gotk steps aside (as for a deny). The lists of
	// both files and Vibe's default one all count: stepping aside more is
	// the safe error.
	cat := func(lists ...[]string) []string {
		var out []string
		for _, l := range lists {
			out = append(out, l...)
		}
		return out
	}
	// The user file's allowlist replaces the default one; gotk does not
	// model how Vibe merges it with the project's: each list that may be
	// in force must judge the rewrite as the original.
	allows := [][]string{vibeDefaultAllow}
	if user.Allowlist != nil {
		allows[0] = user.Allowlist
	}
	if proj.Allowlist != nil {
		allows = append(allows, proj.Allowlist)
	}
	deny := cat(vibeDefaultDeny, user.Denylist, proj.Denylist)
	sensitive := cat(vibeDefaultSensitive, user.SensitivePatterns, proj.SensitivePatterns)
	listed := func(list []string, cmd string) bool {
		for _, p := range list {
			if strings.TrimSpace(p) != "" && match(p, cmd) {
				return true
			}
		}
		return false
	}
	r.Deny = append(r.Deny, permission.Rule{Pattern: "allowlist", Raw: "allowlist, denylist or sensitive_patterns judge the rewrite otherwise",
		Source: "vibe defaults and config", Test: func(cmd string) bool {
			w := "gotk " + cmd
			for _, allow := range allows {
				// Vibe adds " <redirect>" to a redirected command's words
				if !always && (listed(allow, cmd) != listed(allow, w) || listed(allow, cmd+" <redirect>") != listed(allow, w+" <redirect>")) {
					return true
				}
			}
			return listed(deny, w) || listed(deny, w+" <redirect>") || slices.Contains(sensitive, "gotk")
		}})
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
