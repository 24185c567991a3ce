package opencode

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/gotk-dev/gotk/core/permission"
)

// ManagedDir is where OpenCode (name "opencode") or Kilo ("kilo") reads its
// managed config: /Library/Application Support/NAME on macOS,
// %ProgramData%\NAME on Windows, /etc/NAME elsewhere
// (ConfigManaged.managedConfigDir).
func ManagedDir(env permission.Env, name string) string {
	if env.ManagedDir != "" {
		return filepath.Join(env.ManagedDir, name)
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join("/Library/Application Support", name)
	case "windows":
		if d := env.Getenv("ProgramData"); d != "" {
			return filepath.Join(d, name)
		}
		return filepath.Join(`C:\ProgramData`, name)
	}
	return filepath.Join("/etc", name)
}

// Load reads the rules of OpenCode (the OpenCode plugin's host, `gotk
// rewrite --host opencode`).
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
// Remote configs need the network: where auth.json holds a .well-known
// login, gotk steps aside (RemoteConfig); an account's organisation config
// is not modelled — where it sets rules, gotk may rewrite a command they
// name. `cat` is also an ask rule: OpenCode asks before cat reads
// outside the project, looking for cat as the program.
func Load(r *permission.Rules, env permission.Env) {
	r.SourceText = true
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
	if env.Cwd != "" && !truthy(env.Getenv("OPENCODE_DISABLE_PROJECT_CONFIG")) {
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
	inDir(ManagedDir(env, "opencode"))

	if src, ok := RemoteConfig(env, "opencode", "OPENCODE"); ok {
		r.MarkUnreadable("gotk: %s holds a .well-known login: OpenCode loads that organisation's config, whose rules gotk cannot read", src)
	}
	c := NewReader(r, env)
	for _, f := range files {
		c.File(f, true)
	}
	c.Rest(dirs, "OPENCODE")
	for _, k := range c.Everything() {
		if CatchAll(k.Pattern) && k.Action != "allow" {
			// A command and its rewrite would both be asked about, but
			// OpenCode's "always" answer to `gotk …` would approve every
			// gotk command: gotk steps aside.
			r.MarkUnreadable("gotk: %s sets OpenCode's bash permission to %q", k.Source, k.Action)
			break
		}
	}
	for _, k := range Live(c.Everything()) {
		r.Ask = append(r.Ask, k.KeepOut())
	}
	r.Ask = append(r.Ask, ExternalDirectoryCat("OpenCode"))
}

// Reader gathers the bash rules of an OpenCode-like host's
// documents: the general ones and each agent's (Kilo reads the same
// shapes).
type Reader struct {
	r      *permission.Rules
	env    permission.Env
	seen   map[string]bool
	User   []Rule
	Agents map[string][]Rule
	// pluginPaths are the plugin files config documents name by path.
	pluginPaths []string
}

func NewReader(r *permission.Rules, env permission.Env) *Reader {
	return &Reader{r: r, env: env, seen: map[string]bool{}, Agents: map[string][]Rule{}}
}

// file reads one config document; a missing file is skipped, any other
// failure makes the rules unreadable. counts: its catch-alls replace the
// defaults before them (Kilo).
func (c *Reader) File(path string, counts bool) {
	if c.seen[path] {
		return
	}
	c.seen[path] = true
	data, err := c.env.Read(path)
	if err != nil {
		if !permission.Missing(err) && !os.IsPermission(err) {
			c.r.MarkUnreadable("gotk: %s: %v", path, err)
		}
		return
	}
	c.json(path, data, counts)
}

// Rest adds the agent and mode files of dirs, then $<prefix>_CONFIG_CONTENT
// (a config document) and $<prefix>_PERMISSION (a permission value), and
// steps aside for another plugin's tool.execute.before hook (guards).
func (c *Reader) Rest(dirs []string, prefix string) {
	for _, d := range dirs {
		c.markdown(d)
	}
	if s := c.env.Getenv(prefix + "_CONFIG_CONTENT"); s != "" {
		c.json("$"+prefix+"_CONFIG_CONTENT", []byte(s), true)
	}
	if s := c.env.Getenv(prefix + "_PERMISSION"); s != "" {
		c.permission("$"+prefix+"_PERMISSION", []byte(s))
	}
	// last: $<prefix>_CONFIG_CONTENT may name plugin files too
	c.guards(dirs)
}

// json adds a config document's rules, after the substitutions OpenCode
// makes in its text.
func (c *Reader) json(source string, data []byte, counts bool) {
	dir := c.env.Cwd
	if filepath.IsAbs(source) {
		dir = filepath.Dir(source)
	}
	data, err := substitute(c.env, data, dir)
	if err != nil {
		c.r.MarkUnreadable("gotk: %s: %v", source, err)
		return
	}
	var doc map[string]any
	if err := permission.ParseJSONC(data, &doc); err != nil {
		c.r.MarkUnreadable("gotk: %s: %s", source, permission.OneLine(err.Error()))
		return
	}
	c.r.Sources = append(c.r.Sources, source)
	c.User = append(c.User, docRules(doc, source, counts)...)
	if list, ok := doc["plugin"].([]any); ok {
		for _, e := range list {
			if p := pluginPath(e, dir); p != "" {
				c.pluginPaths = append(c.pluginPaths, p)
			}
		}
	}
	for _, key := range []string{"agent", "mode"} {
		m, _ := doc[key].(map[string]any)
		for name, a := range m {
			if a, ok := a.(map[string]any); ok {
				c.Agents[name] = append(c.Agents[name], docRules(a, source+" "+key+"."+name, counts)...)
			}
		}
	}
}

// permission adds a bare permission value ($OPENCODE_PERMISSION).
func (c *Reader) permission(source string, data []byte) {
	var v any
	if err := permission.ParseJSONC(data, &v); err != nil {
		c.r.MarkUnreadable("gotk: %s: %s", source, permission.OneLine(err.Error()))
		return
	}
	c.r.Sources = append(c.r.Sources, source)
	c.User = append(c.User, rulesOf(v, source, true)...)
}

// markdown adds the rules of a config directory's agent and mode files.
func (c *Reader) markdown(dir string) {
	if c.seen[dir+"/*.md"] {
		return
	}
	c.seen[dir+"/*.md"] = true
	files, ok := agentMarkdown(dir)
	if !ok {
		c.r.MarkUnreadable("gotk: %s: more than %d agent files", dir, maxAgentFiles)
		return
	}
	for _, f := range files {
		data, err := c.env.Read(f.path)
		if err != nil {
			if !os.IsNotExist(err) {
				c.r.MarkUnreadable("gotk: %s: %v", f.path, err)
			}
			continue
		}
		fm, err := frontmatter(data)
		if err != nil {
			c.r.MarkUnreadable("gotk: %s: %s", f.path, permission.OneLine(err.Error()))
			continue
		}
		c.r.Sources = append(c.r.Sources, f.path)
		c.Agents[f.name] = append(c.Agents[f.name], docRules(fm, f.path, true)...)
	}
}

// Everything is every rule, general and of every agent.
func (c *Reader) Everything() []Rule {
	out := append([]Rule(nil), c.User...)
	for _, rules := range c.Agents {
		out = append(out, rules...)
	}
	return out
}

// liveRules drops the catch-alls: they match a command and its rewrite
// alike.
func Live(rules []Rule) []Rule {
	var out []Rule
	for _, k := range rules {
		if !k.CatchAll && !CatchAll(k.Pattern) {
			out = append(out, k)
		}
	}
	return out
}

// docRules are the bash rules of one document (a config, an agent's entry
// or front matter): its permission, and tools naming bash (a catch-all).
func docRules(doc map[string]any, source string, counts bool) []Rule {
	out := rulesOf(doc["permission"], source, counts)
	if tools, ok := doc["tools"].(map[string]any); ok {
		for k := range tools {
			if Match("bash", k) {
				out = append(out, Rule{Pattern: "*", Source: source + " tools", CatchAll: counts})
			}
		}
	}
	return out
}

// KeepOut is the ask rule of a pattern: it matches a command when the
// pattern matches it or its rewrite.
func (k Rule) KeepOut() permission.Rule { return k.keepOut(RuleMatches) }

// KeepOutMasked is KeepOut for Kilo, which matches the command's text
// with some characters masked (MaskedRuleMatches).
func (k Rule) KeepOutMasked() permission.Rule { return k.keepOut(MaskedRuleMatches) }

func (k Rule) keepOut(matches func(pattern, cmd string) bool) permission.Rule {
	return permission.Rule{Pattern: k.Pattern, Raw: `bash "` + k.Pattern + `": ` + k.Action, Source: k.Source,
		Test: func(cmd string) bool { return matches(k.Pattern, cmd) }}
}

// externalDirectoryCat is the ask rule for OpenCode's external_directory
// check, which Kilo (its fork) shares: it looks for cat as the program of
// the command it is given, so any word naming cat keeps gotk out.
func ExternalDirectoryCat(agent string) permission.Rule {
	return permission.Rule{Pattern: "cat", Raw: "cat", Source: agent + "'s external_directory check (it looks for cat as the program)",
		Test: func(cmd string) bool {
			for _, w := range strings.Fields(cmd) {
				if filepath.Base(strings.Trim(w, `"'`)) == "cat" {
					return true
				}
			}
			return false
		}}
}

var (
	envRef  = regexp.MustCompile(`\{env:([^}]+)\}`)
	fileRef = regexp.MustCompile(`\{file:[^}]+\}`)
)

// substitute makes OpenCode's text substitutions in a config document
// before it is parsed (config.ts load: {env:NAME} becomes the variable's
// value, {file:PATH} the file's trimmed text escaped for a JSON string,
// PATH relative to the document's folder, ~/ the home folder; a {file:}
// on a line that starts with // is left). A rule key can come from
// either: `"{env:BLOCK}": "deny"`. A file it cannot read fails the
// document, as it fails OpenCode's config.
func substitute(env permission.Env, data []byte, dir string) ([]byte, error) {
	if !bytes.Contains(data, []byte("{env:")) && !bytes.Contains(data, []byte("{file:")) {
		return data, nil
	}
	text := envRef.ReplaceAllStringFunc(string(data), func(m string) string {
		return env.Getenv(envRef.FindStringSubmatch(m)[1])
	})
	lines := strings.Split(text, "\n")
	for _, m := range fileRef.FindAllString(text, -1) {
		i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, m) })
		if i >= 0 && strings.HasPrefix(strings.TrimSpace(lines[i]), "//") {
			continue
		}
		p := strings.TrimSuffix(strings.TrimPrefix(m, "{file:"), "}")
		if strings.HasPrefix(p, "~/") {
			p = filepath.Join(env.Home, p[2:])
		} else if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		b, err := env.Read(p)
		if err != nil {
			return nil, err
		}
		q, _ := json.Marshal(strings.TrimSpace(string(b)))
		text = strings.Replace(text, m, string(q[1:len(q)-1]), 1)
	}
	return []byte(text), nil
}

// truthy is how OpenCode reads a flag variable: "true" or "1", any case.
func truthy(v string) bool { return strings.EqualFold(v, "true") || v == "1" }

// RemoteConfig reports the auth store of an OpenCode-like host (name
// "opencode" or "kilo", its variables prefixed OPENCODE or KILO) when it
// holds a "wellknown" login: the host then fetches an organisation's
// config from its .well-known URL at start, whose rules gotk, which never
// calls out, cannot read (Config.loadInstanceState). The store is
// $<PREFIX>_AUTH_CONTENT, or auth.json in the host's data folder
// ($XDG_DATA_HOME/NAME, ~/.local/share/NAME); only each entry's type is
// read.
func RemoteConfig(env permission.Env, name, prefix string) (source string, ok bool) {
	data := []byte(env.Getenv(prefix + "_AUTH_CONTENT"))
	source = "$" + prefix + "_AUTH_CONTENT"
	if len(data) == 0 {
		dir := env.Getenv("XDG_DATA_HOME")
		if dir == "" {
			dir = filepath.Join(env.Home, ".local", "share")
		}
		source = filepath.Join(dir, name, "auth.json")
		var err error
		if data, err = env.Read(source); err != nil {
			return "", false
		}
	}
	var entries map[string]struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &entries) != nil {
		return "", false
	}
	for _, e := range entries {
		if e.Type == "wellknown" {
			return source, true
		}
	}
	return "", false
}
