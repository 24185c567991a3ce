package kilo

import (
	"os"
	"path/filepath"

	"github.com/gotk-dev/gotk/core/hosts/opencode"
	"github.com/gotk-dev/gotk/core/permission"
)

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

// Load reads the rules of Kilo Code CLI (an OpenCode fork; gotk's OpenCode
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
// directories and their .kilo/ and .kilocode/ folders up to the root, and
// in a linked git worktree the main checkout's (primaryDirs); and
// the permission in the front matter of the agent and mode markdown files
// ({agent,agents}/**/*.md, {mode,modes}/*.md) of ~/.config/kilo,
// ~/.kilocode, ~/.kilo, $KILO_CONFIG_DIR and every .kilo/, .kilocode/ and
// .opencode/ folder up from the project. Kilo matches a rule on the
// command's source text as written, leading assignments and trailing
// redirects included (permission.Segment.Source), with some characters
// masked as "_" (opencode.MaskedRuleMatches), as well as on its words. The
// agent is $GOTK_KILO_AGENT (the plugin reads it from Kilo's chat.params);
// without it, the defaults of every agent. The defaults (7.7.9): the code
// agent's bash allowlist, dead once the user's configuration has a bash
// catch-all; the plan and ask agents' read-only list and the explore
// agent's, which Kilo appends after the user's rules, so always live.
//
// Also kept out: `cat` (Kilo asks before `cat` reads outside the project —
// it looks for cat as the program, and would not see it behind gotk).
func Load(r *permission.Rules, env permission.Env) {
	r.SourceText = true
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
	inDir(opencode.ManagedDir(env, "kilo"))
	// ~/.kilo holds config documents too (a config folder by its name),
	// wherever the project is
	inDir(filepath.Join(env.Home, ".kilo"))
	if d := env.Getenv("KILO_CONFIG_DIR"); d != "" {
		inDir(d)
		mdDirs = append(mdDirs, d)
	}
	if f := env.Getenv("KILO_CONFIG"); f != "" {
		files = append(files, f)
	}
	// In a linked git worktree, the main checkout's .kilocode and .kilo
	// folders too.
	if env.Cwd != "" {
		dirs, unsure := primaryDirs(env.Cwd)
		if unsure {
			r.MarkUnreadable("gotk: %s is a linked git worktree whose main checkout gotk cannot place; Kilo loads that checkout's .kilo folders", env.Cwd)
		}
		for _, d := range dirs {
			inDir(d)
			mdDirs = append(mdDirs, d)
		}
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

	if src, ok := opencode.RemoteConfig(env, "kilo", "KILO"); ok {
		r.MarkUnreadable("gotk: %s holds a .well-known login: Kilo loads that organisation's config, whose rules gotk cannot read", src)
	}
	c := opencode.NewReader(r, env)
	for i, f := range files {
		c.File(f, i < applies)
	}
	c.Rest(mdDirs, "KILO")
	user, agents := c.User, c.Agents

	// The live rules: the user's, every agent's, and the defaults of the
	// agent (or of every agent).
	agent := env.Getenv("GOTK_KILO_AGENT")
	var live []opencode.Rule
	add := func(rules []opencode.Rule) { live = append(live, opencode.Live(rules)...) }
	defaults := func(patterns []string, source string) {
		for _, p := range patterns {
			live = append(live, opencode.Rule{Pattern: p, Action: "default", Source: source})
		}
	}
	hasCatchAll := func(rules []opencode.Rule) bool {
		for _, k := range rules {
			if k.CatchAll {
				return true
			}
		}
		return false
	}
	add(user)
	// Every agent's rules keep gotk out, whichever agent is active: Kilo
	// names its build agent code (agent.build is the code agent), and an
	// agent file's front matter `name:` or an agent's `name` renames it,
	// so gotk cannot key each rule by the name chat.params reports.
	for _, rules := range agents {
		add(rules)
	}
	switch {
	case agent == "orchestrator":
		// bash "deny" after the user's rules: nothing runs either way.
	case kiloCodeAgent(agent):
		if !hasCatchAll(user) && !hasCatchAll(agents[agent]) {
			defaults(kiloCodeDefaults(), "Kilo's code agent defaults")
		}
	case agent == "plan" || agent == "ask":
		ro := kiloReadOnlyDefaults()
		defaults(ro[:len(ro)-1], "Kilo's "+agent+" agent defaults")
	default: // explore, a user's own agent, or unknown: every agent's
		defaults(kiloCodeDefaults(), "Kilo's code agent defaults")
		defaults(kiloReadOnlyDefaults(), "Kilo's read-only agents' defaults")
	}
	for _, k := range live {
		r.Ask = append(r.Ask, k.KeepOutMasked())
	}
	// A catch-all that asks: Kilo asks about `gotk X` as about X, but its
	// "Always" answer to `gotk X` saves `gotk *` (its arity table knows no
	// gotk): every later gotk command, whatever it runs, would be allowed
	// without asking, past deny rules. So where the agent's catch-all asks
	// — the user's, an agent's, or the code agent's own default ("*":
	// "ask", before the user's rules) where no catch-all replaces it —
	// every command is an ask here, and gotk stays out (host.Answers.NoAsk).
	everything := func(source string) {
		r.Ask = append(r.Ask, permission.Rule{Pattern: "*", Raw: `"*": "ask"`, Source: source, Test: func(string) bool { return true }})
	}
	for _, k := range c.Everything() {
		if opencode.CatchAll(k.Pattern) && k.Action == "ask" {
			everything(k.Source)
		}
	}
	switch agent {
	case "plan", "ask", "explore", "orchestrator":
		// their defaults end in "*": "deny", after the user's rules
	default:
		if !hasCatchAll(user) && !hasCatchAll(agents[agent]) && !hasCatchAll(agents["build"]) && !hasCatchAll(agents["code"]) {
			everything("Kilo's code agent defaults")
		}
	}
	r.Ask = append(r.Ask, opencode.ExternalDirectoryCat("Kilo"), sandboxEscalation)
}
