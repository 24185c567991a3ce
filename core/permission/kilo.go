package permission

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Kilo is Kilo Code CLI's host name (an OpenCode fork; gotk's OpenCode
// plugin runs in it).
//
// Kilo judges each command of a bash call by its permission rules, on the
// REWRITTEN command (measured in 7.7.9): the last rule whose pattern
// matches the command's text decides. A plugin cannot answer for Kilo, so a
// rewrite keeps the outcome only where the original and `gotk …` fall to
// the same rule. Every rule whose pattern is not a catch-all ("*") is
// therefore matched here on the command and on the command with `gotk`
// inserted before any word, and any match keeps gotk out (allow rules
// included: host.Answers.KeepAllowed, NoAsk). Where none matches, both fall
// to the same catch-all, whatever order the rules come in. So this reader
// needs no rule order, only every rule.
//
// Which rules: the agent's built-in defaults and the user's configuration
// (permission, agent.NAME.permission, mode.NAME.permission, tools.bash,
// $KILO_PERMISSION) from every config file Kilo reads: ~/.config/kilo,
// ~/.kilocode, /etc/kilo, $KILO_CONFIG, $KILO_CONFIG_DIR,
// $KILO_CONFIG_CONTENT, and kilo.json(c)/opencode.json(c) in the project's
// directories and their .kilo/ and .kilocode/ folders up to the root; and
// the permission in the front matter of the agent and mode markdown files
// ({agent,agents}/**/*.md, {mode,modes}/*.md) of ~/.config/kilo,
// ~/.kilocode, ~/.kilo, $KILO_CONFIG_DIR and every .kilo/, .kilocode/ and
// .opencode/ folder up from the project. Kilo matches a rule on the
// command's source text, leading assignments and trailing redirects
// included (Segment.Source), as well as on its words. The
// agent is $GOTK_KILO_AGENT (the plugin reads it from Kilo's chat.params);
// without it, the defaults of every agent. The defaults (7.7.9): the code
// agent's bash allowlist, dead once the user's configuration has a bash
// catch-all; the plan and ask agents' read-only list and the explore
// agent's, which Kilo appends after the user's rules, so always live.
//
// Also kept out: `cat` (Kilo asks before `cat` reads outside the project —
// it looks for cat as the program, and would not see it behind gotk).
const Kilo Host = "kilo"

// kiloSafe are the commands Kilo's default agents allow (ncf).
var kiloSafe = []string{"cat *", "head *", "tail *", "less *", "ls *", "tree *", "pwd *", "echo *", "wc *", "which *",
	"type *", "file *", "diff *", "du *", "df *", "date *", "uname *", "whoami *", "printenv *", "man *", "grep *",
	"rg *", "ag *", "sort *", "uniq *", "cut *", "tr *", "jq *"}

// kiloCodeDefaults are the code (build) agent's own bash rules beyond the
// catch-all.
func kiloCodeDefaults() []string {
	return append(append([]string{}, kiloSafe...), "touch *", "mkdir *", "cp *", "mv *", "tsc *",
		"tsgo *", "tar *", "unzip *", "gzip *", "gunzip *")
}

// kiloReadOnlyDefaults are the plan and ask agents' bash rules (td1); the
// explore agent adds "gh *" and "find *".
func kiloReadOnlyDefaults() []string {
	return append(append([]string{}, kiloSafe...), "git *", "git log *", "git show *", "git diff *",
		"git status *", "git blame *", "git rev-parse *", "git rev-list *", "git ls-files *", "git ls-tree *",
		"git ls-remote *", "git shortlog *", "git describe *", "git cat-file *", "git name-rev *", "git stash list *",
		"git tag -l *", "git branch --list *", "git branch -a *", "git branch -r *", "git remote -v *", "gh *",
		"gh pr view *", "gh pr list *", "gh pr status *", "gh pr diff *", "gh pr checks *", "gh issue view *",
		"gh issue list *", "gh issue status *", "gh repo view *", "gh run list *", "gh run view *", "gh release list *",
		"gh release view *", "gh search *", "*\n*", "*<(*", "*|*", "*;*", "*&*", "*$(*", "*`*", "*>*", "sort -o *",
		"sort * -o *", "sort *--output*", "sort *--compress-program*", "sort *--files0-from*", "rg *--pre *",
		"rg *--pre=*", "rg *--hostname-bin*", "ag *--pager*", "man *-P*", "man *--pager*", "man *-H*", "find *")
}

// kiloCodeAgent: the agents whose bash defaults are the code agent's
// and come before the user's rules.
func kiloCodeAgent(agent string) bool {
	switch agent {
	case "code", "build", "debug", "general":
		return true
	}
	return false
}

// kiloRule is one bash rule of the user's configuration.
type kiloRule struct {
	pattern, action, source string
	catchAll                bool
}

func loadKilo(r *Rules, env Env) {
	r.sourceText = true
	var files []string
	global := env.Getenv("XDG_CONFIG_HOME")
	if global == "" {
		global = filepath.Join(env.Home, ".config")
	}
	names := []string{"kilo.jsonc", "kilo.json", "opencode.jsonc", "opencode.json", "config.json"}
	inDir := func(dir string) {
		for _, n := range names {
			files = append(files, filepath.Join(dir, n))
		}
	}
	mdDirs := []string{filepath.Join(global, "kilo"), filepath.Join(env.Home, ".kilocode"), filepath.Join(env.Home, ".kilo")}
	inDir(filepath.Join(global, "kilo"))
	inDir(filepath.Join(env.Home, ".kilocode"))
	inDir("/etc/kilo")
	if d := env.Getenv("KILO_CONFIG_DIR"); d != "" {
		inDir(d)
		mdDirs = append(mdDirs, d)
	}
	if f := env.Getenv("KILO_CONFIG"); f != "" {
		files = append(files, f)
	}
	// The project's folders up to the root: Kilo reads them up to the
	// worktree's root; a catch-all counts only from there.
	applies := len(files)
	if env.Cwd != "" {
		inRepo := true
		for d := filepath.Clean(env.Cwd); ; d = filepath.Dir(d) {
			for _, sub := range []string{"", ".kilo", ".kilocode"} {
				for _, n := range names {
					files = append(files, filepath.Join(d, sub, n))
				}
			}
			mdDirs = append(mdDirs, filepath.Join(d, ".kilo"), filepath.Join(d, ".kilocode"), filepath.Join(d, ".opencode"))
			if inRepo {
				applies = len(files)
			}
			if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
				inRepo = false
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}

	c := newOpenCodeRules(r, env)
	for i, f := range files {
		c.file(f, i < applies)
	}
	c.rest(mdDirs, "KILO")
	user, agents := c.user, c.agents

	// The live rules of the agent (or of every agent).
	agent := env.Getenv("GOTK_KILO_AGENT")
	var live []kiloRule
	add := func(rules []kiloRule) { live = append(live, liveRules(rules)...) }
	defaults := func(patterns []string, source string) {
		for _, p := range patterns {
			live = append(live, kiloRule{pattern: p, action: "default", source: source})
		}
	}
	hasCatchAll := func(rules []kiloRule) bool {
		for _, k := range rules {
			if k.catchAll {
				return true
			}
		}
		return false
	}
	add(user)
	switch {
	case agent == "orchestrator":
		// bash "deny" after the user's rules: nothing runs either way.
	case kiloCodeAgent(agent):
		add(agents[agent])
		if !hasCatchAll(user) && !hasCatchAll(agents[agent]) {
			defaults(kiloCodeDefaults(), "Kilo's code agent defaults")
		}
	case agent == "plan" || agent == "ask":
		add(agents[agent])
		ro := kiloReadOnlyDefaults()
		defaults(ro[:len(ro)-1], "Kilo's "+agent+" agent defaults")
	default: // explore, a user's own agent, or unknown: every agent's
		for _, rules := range agents {
			add(rules)
		}
		defaults(kiloCodeDefaults(), "Kilo's code agent defaults")
		defaults(kiloReadOnlyDefaults(), "Kilo's read-only agents' defaults")
	}
	for _, k := range live {
		r.Ask = append(r.Ask, k.keepOut())
	}
	r.Ask = append(r.Ask, externalDirectoryCat("Kilo"))
}

// kiloRules are the bash rules of a permission value: "allow" (every
// permission), {"bash": ACTION}, {"bash": {PATTERN: ACTION, …}}, and the
// same under any key that matches "bash" ("*", "b*"). counts: a catch-all
// here overrides the defaults before it.
func kiloRules(v any, source string, counts bool) []kiloRule {
	switch p := v.(type) {
	case string:
		return []kiloRule{{pattern: "*", action: p, source: source, catchAll: counts}}
	case map[string]any:
		var out []kiloRule
		for key, val := range p {
			if !kiloMatch("bash", key) {
				continue
			}
			switch x := val.(type) {
			case string:
				out = append(out, kiloRule{pattern: "*", action: x, source: source, catchAll: counts})
			case map[string]any:
				for pat, act := range x {
					a, _ := act.(string)
					out = append(out, kiloRule{pattern: pat, action: a, source: source, catchAll: counts && kiloCatchAll(pat)})
				}
			}
		}
		return out
	}
	return nil
}

func kiloCatchAll(pattern string) bool {
	return pattern != "" && strings.Trim(pattern, "*") == ""
}

// kiloRuleMatches: the pattern matches cmd, or cmd with gotk inserted
// before one of its words (the rewrite), in Kilo's wildcard. Runs of
// blanks in the pattern count as one, as in the command's words.
func kiloRuleMatches(pattern, cmd string) bool {
	pattern = kiloBlanks().ReplaceAllString(pattern, " ")
	if kiloMatch(cmd, pattern) {
		return true
	}
	w := strings.Fields(cmd)
	for i := range w {
		v := strings.Join(append(append(append([]string{}, w[:i]...), "gotk"), w[i:]...), " ")
		if kiloMatch(v, pattern) {
			return true
		}
	}
	return false
}

var (
	kiloSpecial = lazyRE(`[.+^${}()|\[\]\\]`)
	kiloBlanks  = lazyRE(`[ \t]+`)
)

// kiloMatch is Kilo's wildcard: * any text, ? one character, a trailing
// " *" also matches nothing, backslashes are slashes, the whole text.
func kiloMatch(text, pattern string) bool {
	re, ok := kiloCompiled.Load(pattern)
	if !ok {
		p := kiloSpecial().ReplaceAllStringFunc(strings.ReplaceAll(pattern, `\`, "/"), func(s string) string { return `\` + s })
		p = strings.ReplaceAll(strings.ReplaceAll(p, "*", ".*"), "?", ".")
		if strings.HasSuffix(p, " .*") {
			p = strings.TrimSuffix(p, " .*") + "( .*)?"
		}
		c, err := regexp.Compile("(?s)^" + p + "$")
		if err != nil {
			c = nil
		}
		re, _ = kiloCompiled.LoadOrStore(pattern, c)
	}
	c, _ := re.(*regexp.Regexp)
	return c != nil && c.MatchString(strings.ReplaceAll(text, `\`, "/"))
}

// kiloCompiled caches kiloMatch's expressions by pattern.
var kiloCompiled sync.Map
