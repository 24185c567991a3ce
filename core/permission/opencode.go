package permission

import (
	"os"
	"path/filepath"
	"strings"
)

// OpenCode is the OpenCode plugin's host (`gotk rewrite --host opencode`).
//
// OpenCode (1.18.33) matches its bash permission rules on the REWRITTEN
// command: the plugin cannot answer for it. Its rules are
// {permission, pattern, action} triples, the last one whose permission key
// and pattern both match (Wildcard.match: * any text, ? one character, a
// trailing " *" optional) deciding; the built-in agents have no bash
// pattern but a catch-all. So a rewrite keeps OpenCode's answer exactly
// when no user pattern that is not a catch-all matches the command or the
// command with gotk inserted before one of its words: both then fall to
// the same catch-all, whatever the rules' order and whichever agent is
// active (the plugin is not told which). Every such pattern of every agent
// is therefore an ask rule here (no rewrite under the host's answers). A
// catch-all other than "allow" makes gotk step aside altogether: OpenCode
// would ask about `gotk …`, and its "always" answer would then approve
// every gotk command.
//
// Where the rules come from (config/config.ts loadInstanceState and
// ConfigPaths, config-agent plugin):
//   - config.json, opencode.json, opencode.jsonc in ~/.config/opencode
//     ($XDG_CONFIG_HOME/opencode);
//   - $OPENCODE_CONFIG;
//   - opencode.json(c) in the working directory and each directory above
//     (OpenCode stops at the worktree: reading more only keeps gotk out);
//   - opencode.json(c) in every .opencode/ folder up from the working
//     directory, in ~/.opencode and in $OPENCODE_CONFIG_DIR;
//   - the agent and mode markdown files ({agent,agents}/**/*.md,
//     {mode,modes}/*.md) of every config directory: ~/.config/opencode,
//     each .opencode/, ~/.opencode, $OPENCODE_CONFIG_DIR — their YAML front
//     matter's permission;
//   - $OPENCODE_CONFIG_CONTENT (a config document), the managed
//     directory's opencode.json(c), and $OPENCODE_PERMISSION (a
//     permission value, merged last);
//   - in each document: permission, agent.NAME.permission and
//     mode.NAME.permission; every key matching "bash" as a wildcard ("*",
//     "b*", "ba?h") counts.
//
// Not modelled: remote configs (.well-known, an account's organisation),
// which need the network; where they set rules, gotk may rewrite a command
// they name. `cat` is also an ask rule: OpenCode asks before cat reads
// outside the project, looking for cat as the program.
const OpenCode Host = "opencode"

// OpenCodeManagedDir is where OpenCode reads its managed config on Linux.
const openCodeManagedDir = "/etc/opencode"

func loadOpenCode(r *Rules, env Env) {
	r.sourceText = true
	global := env.Getenv("XDG_CONFIG_HOME")
	if global == "" {
		global = filepath.Join(env.Home, ".config")
	}
	global = filepath.Join(global, "opencode")
	var files, dirs []string
	files = append(files, filepath.Join(global, "config.json"), filepath.Join(global, "opencode.json"), filepath.Join(global, "opencode.jsonc"))
	dirs = append(dirs, global)
	if f := env.Getenv("OPENCODE_CONFIG"); f != "" {
		files = append(files, f)
	}
	inDir := func(d string) {
		files = append(files, filepath.Join(d, "opencode.json"), filepath.Join(d, "opencode.jsonc"))
	}
	if env.Cwd != "" && env.Getenv("OPENCODE_DISABLE_PROJECT_CONFIG") == "" {
		for d := filepath.Clean(env.Cwd); ; d = filepath.Dir(d) {
			inDir(d)
			inDir(filepath.Join(d, ".opencode"))
			dirs = append(dirs, filepath.Join(d, ".opencode"))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if env.Home != "" {
		inDir(filepath.Join(env.Home, ".opencode"))
		dirs = append(dirs, filepath.Join(env.Home, ".opencode"))
	}
	if d := env.Getenv("OPENCODE_CONFIG_DIR"); d != "" {
		inDir(d)
		dirs = append(dirs, d)
	}
	managed := openCodeManagedDir
	if env.ManagedDir != "" {
		managed = filepath.Join(env.ManagedDir, "opencode")
	}
	inDir(managed)

	c := newOpenCodeRules(r, env)
	for _, f := range files {
		c.file(f, true)
	}
	c.rest(dirs, "OPENCODE")
	for _, k := range c.everything() {
		if kiloCatchAll(k.pattern) && k.action != "allow" {
			// A command and its rewrite would both be asked about, but
			// OpenCode's "always" answer to `gotk …` would approve every
			// gotk command: gotk steps aside.
			r.unreadable("gotk: %s sets OpenCode's bash permission to %q", k.source, k.action)
			break
		}
	}
	for _, k := range liveRules(c.everything()) {
		r.Ask = append(r.Ask, k.keepOut())
	}
	r.Ask = append(r.Ask, externalDirectoryCat("OpenCode"))
}

// openCodeRules gathers the bash rules of an OpenCode-like host's
// documents: the general ones and each agent's (Kilo reads the same
// shapes).
type openCodeRules struct {
	r      *Rules
	env    Env
	seen   map[string]bool
	user   []kiloRule
	agents map[string][]kiloRule
}

func newOpenCodeRules(r *Rules, env Env) *openCodeRules {
	return &openCodeRules{r: r, env: env, seen: map[string]bool{}, agents: map[string][]kiloRule{}}
}

// file reads one config document; a missing file is skipped, any other
// failure makes the rules unreadable. counts: its catch-alls replace the
// defaults before them (Kilo).
func (c *openCodeRules) file(path string, counts bool) {
	if c.seen[path] {
		return
	}
	c.seen[path] = true
	data, err := c.env.read(path)
	if err != nil {
		if !os.IsNotExist(err) && !os.IsPermission(err) && !isNotDir(err) {
			c.r.unreadable("gotk: %s: %v", path, err)
		}
		return
	}
	c.json(path, data, counts)
}

// rest adds the agent and mode files of dirs, then $<prefix>_CONFIG_CONTENT
// (a config document) and $<prefix>_PERMISSION (a permission value).
func (c *openCodeRules) rest(dirs []string, prefix string) {
	for _, d := range dirs {
		c.markdown(d)
	}
	if s := c.env.Getenv(prefix + "_CONFIG_CONTENT"); s != "" {
		c.json("$"+prefix+"_CONFIG_CONTENT", []byte(s), true)
	}
	if s := c.env.Getenv(prefix + "_PERMISSION"); s != "" {
		c.permission("$"+prefix+"_PERMISSION", []byte(s))
	}
}

// json adds a config document's rules.
func (c *openCodeRules) json(source string, data []byte, counts bool) {
	var doc map[string]any
	if err := parseJSONC(data, &doc); err != nil {
		c.r.unreadable("gotk: %s: %s", source, oneLine(err.Error()))
		return
	}
	c.r.Sources = append(c.r.Sources, source)
	c.user = append(c.user, docRules(doc, source, counts)...)
	for _, key := range []string{"agent", "mode"} {
		m, _ := doc[key].(map[string]any)
		for name, a := range m {
			if a, ok := a.(map[string]any); ok {
				c.agents[name] = append(c.agents[name], docRules(a, source+" "+key+"."+name, counts)...)
			}
		}
	}
}

// permission adds a bare permission value ($OPENCODE_PERMISSION).
func (c *openCodeRules) permission(source string, data []byte) {
	var v any
	if err := parseJSONC(data, &v); err != nil {
		c.r.unreadable("gotk: %s: %s", source, oneLine(err.Error()))
		return
	}
	c.r.Sources = append(c.r.Sources, source)
	c.user = append(c.user, kiloRules(v, source, true)...)
}

// markdown adds the rules of a config directory's agent and mode files.
func (c *openCodeRules) markdown(dir string) {
	if c.seen[dir+"/*.md"] {
		return
	}
	c.seen[dir+"/*.md"] = true
	files, ok := agentMarkdown(dir)
	if !ok {
		c.r.unreadable("gotk: %s: more than %d agent files", dir, maxAgentFiles)
		return
	}
	for _, f := range files {
		data, err := c.env.read(f.path)
		if err != nil {
			if !os.IsNotExist(err) {
				c.r.unreadable("gotk: %s: %v", f.path, err)
			}
			continue
		}
		fm, err := frontmatter(data)
		if err != nil {
			c.r.unreadable("gotk: %s: %s", f.path, oneLine(err.Error()))
			continue
		}
		c.r.Sources = append(c.r.Sources, f.path)
		c.agents[f.name] = append(c.agents[f.name], docRules(fm, f.path, true)...)
	}
}

// everything is every rule, general and of every agent.
func (c *openCodeRules) everything() []kiloRule {
	out := append([]kiloRule(nil), c.user...)
	for _, rules := range c.agents {
		out = append(out, rules...)
	}
	return out
}

// liveRules drops the catch-alls: they match a command and its rewrite
// alike.
func liveRules(rules []kiloRule) []kiloRule {
	var out []kiloRule
	for _, k := range rules {
		if !k.catchAll && !kiloCatchAll(k.pattern) {
			out = append(out, k)
		}
	}
	return out
}

// docRules are the bash rules of one document (a config, an agent's entry
// or front matter): its permission, and tools naming bash (a catch-all).
func docRules(doc map[string]any, source string, counts bool) []kiloRule {
	out := kiloRules(doc["permission"], source, counts)
	if tools, ok := doc["tools"].(map[string]any); ok {
		for k := range tools {
			if kiloMatch("bash", k) {
				out = append(out, kiloRule{pattern: "*", source: source + " tools", catchAll: counts})
			}
		}
	}
	return out
}

// keepOut is the ask rule of a pattern: it matches a command when the
// pattern matches it or its rewrite.
func (k kiloRule) keepOut() Rule {
	return Rule{Pattern: k.pattern, Raw: `bash "` + k.pattern + `": ` + k.action, Source: k.source,
		test: func(cmd string) bool { return kiloRuleMatches(k.pattern, cmd) }}
}

// externalDirectoryCat is the ask rule for OpenCode's external_directory
// check, which Kilo (its fork) shares: it looks for cat as the program of
// the command it is given, so any word naming cat keeps gotk out.
func externalDirectoryCat(agent string) Rule {
	return Rule{Pattern: "cat", Raw: "cat", Source: agent + "'s external_directory check (it looks for cat as the program)",
		test: func(cmd string) bool {
			for _, w := range strings.Fields(cmd) {
				if filepath.Base(strings.Trim(w, `"'`)) == "cat" {
					return true
				}
			}
			return false
		}}
}
