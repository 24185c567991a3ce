package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gotk-dev/gotk/plugins"
)

// agents.go: the table of agents — where each keeps its configuration, what
// gotk puts there, and the one or two lines that differ between them.
// Sources for every path and entry shape: /work/shared/docs/agent-protocols.md.

// Scope is where an install goes: the user's configuration or the project
// in the current directory.
type Scope string

// The two scopes.
const (
	Global  Scope = "global"
	Project Scope = "project"
)

// Agent is one coding agent gotk-install knows.
type Agent struct {
	Name   string
	Scopes []Scope // supported; the first is the default
	// Markers are directories or programs whose presence means the agent
	// is used on this machine.
	Dirs     func(e *Env) []string
	Programs []string
	// Parts lists what gotk puts in the agent's files. hook is the absolute
	// path of the agent's hook binary ("" when the agent has none).
	Parts func(e *Env, s Scope, hook string) []part
	// HookBin is the agent's hook binary, "" for plugin and rules agents.
	HookBin string
	// Notes are printed after an install.
	Notes func(e *Env, s Scope) []string
}

// part is one thing gotk puts in one file.
type part struct {
	kind    string // json-hook, block, toml-flag, file
	file    string // absolute path as the agent names it
	hook    *jsonHookSpec
	mk      markers
	body    string
	isTOML  bool   // the block is TOML: check the result parses
	inline  string // the block's entry as a TOML inline table (Vibe's hook)
	flag    string // toml-flag key
	content []byte // file
	what    string // what it is, for messages
	rules   bool   // a rules text beside a hook: --no-rules leaves it out
	legacy  bool   // where an older layout put it: only uninstall looks
}

// rules is the rules text's body: the file carries the registry's own
// markers, and the block writer adds them again around the body.
func rules() string {
	body := strings.TrimPrefix(string(plugins.File(plugins.Rules)), mdMarkers.open+"\n")
	return strings.TrimSuffix(body, mdMarkers.close+"\n")
}

// codexRules is the note Codex gets in AGENTS.md. Its hook already rewrites
// commands; the model only needs to know what the compact output is and how
// to get the rest. It names gotk by absolute path: Codex runs commands in a
// login shell, whose PATH may not have gotk.
func codexRules(e *Env) string {
	gotk := "gotk"
	if p, err := e.findBin("gotk"); err == nil {
		gotk = shellQuote(p)
	}
	return "A hook runs some shell commands through gotk (" + gotk + "), which prints a compact form of their\n" +
		"output with the same exit code and failures in full. When it says output was cut, run the\n" +
		"`" + gotk + " recall <id>` it names, or `" + gotk + " --raw <command>`.\n"
}

// Agents returns the table, in the order --list shows it.
func Agents() []*Agent {
	return []*Agent{
		{
			Name: "claude", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-claude",
			Dirs:     func(e *Env) []string { return []string{claudeDir(e)} },
			Programs: []string{"claude"},
			Parts: func(e *Env, s Scope, hook string) []part {
				f := filepath.Join(claudeDir(e), "settings.json")
				if s == Project {
					f = filepath.Join(e.Cwd, ".claude", "settings.json")
				}
				return []part{{kind: "json-hook", file: f, what: "PreToolUse hook", hook: &jsonHookSpec{
					event: []string{"hooks", "PreToolUse"}, matcher: "Bash", tool: "Bash", cmdKey: "command", bin: "gotk-hook-claude",
					handler: obj{{"type", "command"}, {"command", hook}, {"timeout", 10}},
				}}}
			},
		},
		{
			Name: "cursor", Scopes: []Scope{Global}, HookBin: "gotk-hook-cursor",
			Dirs:     func(e *Env) []string { return []string{filepath.Join(e.Home, ".cursor")} },
			Programs: []string{"cursor-agent", "cursor"},
			Parts: func(e *Env, s Scope, hook string) []part {
				return []part{{kind: "json-hook", file: filepath.Join(e.Home, ".cursor", "hooks.json"), what: "preToolUse hook", hook: &jsonHookSpec{
					event: []string{"hooks", "preToolUse"}, tool: "Shell", cmdKey: "command", bin: "gotk-hook-cursor",
					handler:  obj{{"command", hook}, {"matcher", "Shell"}},
					rootKeys: obj{{"version", 1}},
				}}}
			},
			Notes: func(e *Env, s Scope) []string {
				return []string{"Cursor also runs Claude Code hooks from ~/.claude/settings.json; with both installed it runs gotk twice (harmless: a gotk command is not rewritten again)."}
			},
		},
		{
			Name: "copilot", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-copilot",
			Dirs:     func(e *Env) []string { return []string{copilotDir(e)} },
			Programs: []string{"copilot"},
			Parts: func(e *Env, s Scope, hook string) []part {
				// Copilot CLI denies a tool call whose preToolUse hook fails:
				// the matcher (a regex on toolName, anchored) keeps gotk to
				// the shell tools, so a missing binary cannot block the others.
				doc := obj{{"version", 1}, {"hooks", obj{{"preToolUse", []any{obj{{"type", "command"}, {"bash", hook}, {"timeoutSec", 10}, {"matcher", copilotShellTools}}}}}}}
				content := []byte(render(doc, "", "  ", "\n", false) + "\n")
				if s == Project {
					return []part{
						{kind: "file", file: filepath.Join(e.Cwd, ".github", "hooks", "gotk.json"), content: content, what: "preToolUse hook file"},
						{kind: "block", file: filepath.Join(e.Cwd, ".github", "copilot-instructions.md"), mk: mdMarkers, body: rules(), what: "gotk rules block", rules: true},
					}
				}
				return []part{{kind: "file", file: filepath.Join(copilotDir(e), "hooks", "gotk.json"), content: content, what: "preToolUse hook file"}}
			},
			Notes: func(e *Env, s Scope) []string {
				return []string{"one camelCase preToolUse registration only: VS Code reads the same folder, so install gotk for Copilot in one scope, not both."}
			},
		},
		{
			Name: "gemini", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-gemini",
			Dirs:     func(e *Env) []string { return []string{geminiDir(e)} },
			Programs: []string{"gemini"},
			Parts: func(e *Env, s Scope, hook string) []part {
				f := filepath.Join(geminiDir(e), "settings.json")
				if s == Project {
					f = filepath.Join(e.Cwd, ".gemini", "settings.json")
				}
				return []part{{kind: "json-hook", file: f, what: "BeforeTool hook", hook: &jsonHookSpec{
					event: []string{"hooks", "BeforeTool"}, matcher: "run_shell_command", tool: "run_shell_command", cmdKey: "command", bin: "gotk-hook-gemini",
					handler: obj{{"name", "gotk"}, {"type", "command"}, {"command", hook}, {"timeout", 10000}},
				}}}
			},
		},
		{
			Name: "vibe", Scopes: []Scope{Global}, HookBin: "gotk-hook-vibe",
			Dirs:     func(e *Env) []string { return []string{vibeDir(e)} },
			Programs: []string{"vibe"},
			Parts: func(e *Env, s Scope, hook string) []part {
				fields := []string{`name = "gotk"`, `type = "pre_tool"`, `match = "bash"`,
					"command = " + tomlString(hook), "timeout = 10.0", "strict = false"}
				body := "[[hooks]]\n" + strings.Join(fields, "\n")
				// The same hook as an inline table, for a hooks.toml whose
				// hooks are an inline array.
				inline := "{ " + strings.Join(fields, ", ") + " }"
				return []part{
					{kind: "block", file: filepath.Join(vibeDir(e), "hooks.toml"), mk: tomlMarkers, body: body, inline: inline, isTOML: true, what: "pre_tool hook"},
					{kind: "toml-flag", file: filepath.Join(vibeDir(e), "config.toml"), flag: "enable_experimental_hooks", what: "enable_experimental_hooks = true"},
				}
			},
			Notes: func(e *Env, s Scope) []string {
				return []string{`Vibe <= 2.20 calls the event "before_tool"; gotk writes "pre_tool" (Vibe >= 2.21).`}
			},
		},
		{
			Name: "codex", Scopes: []Scope{Global}, HookBin: "gotk-hook-codex",
			Dirs:     func(e *Env) []string { return []string{codexDir(e)} },
			Programs: []string{"codex"},
			Parts: func(e *Env, s Scope, hook string) []part {
				return []part{
					{kind: "json-hook", file: filepath.Join(codexDir(e), "hooks.json"), what: "PreToolUse hook", hook: &jsonHookSpec{
						event: []string{"hooks", "PreToolUse"}, matcher: "Bash", tool: "Bash", cmdKey: "command", bin: "gotk-hook-codex",
						handler: obj{{"type", "command"}, {"command", hook}, {"timeout", 10}},
					}},
					{kind: "block", file: filepath.Join(codexDir(e), "AGENTS.md"), mk: mdMarkers, body: codexRules(e), what: "gotk note", rules: true},
				}
			},
			Notes: func(e *Env, s Scope) []string {
				return []string{"Codex runs new hooks only once trusted: start codex and run /hooks to review and trust gotk's."}
			},
		},
		{
			Name: "opencode", Scopes: []Scope{Global, Project},
			Dirs:     func(e *Env) []string { return []string{filepath.Join(e.configHome(), "opencode")} },
			Programs: []string{"opencode"},
			Parts: func(e *Env, s Scope, _ string) []part {
				dir := filepath.Join(e.configHome(), "opencode", "plugins")
				if s == Project {
					dir = filepath.Join(e.Cwd, ".opencode", "plugins")
				}
				return []part{{kind: "file", file: filepath.Join(dir, "gotk.ts"), content: plugins.File(plugins.OpenCode), what: "plugin"}}
			},
		},
		{
			Name: "pi", Scopes: []Scope{Global, Project},
			Dirs:     func(e *Env) []string { return []string{piDir(e)} },
			Programs: []string{"pi"},
			Parts: func(e *Env, s Scope, _ string) []part {
				dir := filepath.Join(piDir(e), "extensions")
				if s == Project {
					dir = filepath.Join(e.Cwd, ".pi", "extensions")
				}
				return []part{{kind: "file", file: filepath.Join(dir, "gotk.ts"), content: plugins.File(plugins.Pi), what: "extension"}}
			},
		},
		{
			Name: "hermes", Scopes: []Scope{Global},
			Dirs:     func(e *Env) []string { return []string{filepath.Join(e.Home, ".hermes")} },
			Programs: []string{"hermes"},
			Parts: func(e *Env, s Scope, _ string) []part {
				dir := filepath.Join(e.Home, ".hermes", "plugins", "gotk")
				return []part{
					{kind: "file", file: filepath.Join(dir, "plugin.yaml"), content: plugins.File(plugins.HermesManifest), what: "plugin manifest"},
					{kind: "file", file: filepath.Join(dir, "__init__.py"), content: plugins.File(plugins.HermesPlugin), what: "plugin"},
				}
			},
			Notes: func(e *Env, s Scope) []string {
				return []string{"Hermes plugins are off until enabled: run `hermes plugins enable gotk`."}
			},
		},
		{
			Name: "cline", Scopes: []Scope{Project},
			Dirs:     func(e *Env) []string { return []string{filepath.Join(e.Cwd, ".clinerules")} },
			Programs: []string{"cline"},
			Parts: func(e *Env, s Scope, _ string) []part {
				f := filepath.Join(e.Cwd, ".clinerules")
				if fi, err := os.Stat(f); err == nil && fi.IsDir() {
					// .clinerules may be a folder of rule files.
					return []part{{kind: "file", file: filepath.Join(f, "gotk.md"), content: []byte(rules()), what: "rules file"}}
				}
				return []part{{kind: "block", file: f, mk: mdMarkers, body: rules(), what: "gotk rules block"}}
			},
		},
		{
			Name: "windsurf", Scopes: []Scope{Project},
			Dirs: func(e *Env) []string {
				return []string{filepath.Join(e.Cwd, ".windsurf"), filepath.Join(e.Cwd, ".windsurfrules")}
			},
			Programs: []string{"windsurf"},
			Parts: func(e *Env, s Scope, _ string) []part {
				legacy := part{kind: "block", file: filepath.Join(e.Cwd, ".windsurfrules"), mk: mdMarkers, body: rules(), what: "gotk rules block"}
				dir := filepath.Join(e.Cwd, ".windsurf", "rules")
				if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
					return []part{legacy}
				}
				// Windsurf's current rules: one Markdown file per rule in
				// .windsurf/rules/, its activation in front matter.
				legacy.legacy = true
				content := "---\ntrigger: always_on\n---\n\n" + rules()
				return []part{{kind: "file", file: filepath.Join(dir, "gotk.md"), content: []byte(content), what: "rules file"}, legacy}
			},
		},
	}
}

// AgentNames lists the names --agent accepts.
func AgentNames() []string {
	var ns []string
	for _, a := range Agents() {
		ns = append(ns, a.Name)
	}
	return ns
}

// AgentByName returns the named agent, or nil.
func AgentByName(name string) *Agent {
	for _, a := range Agents() {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Supports reports whether the agent can be installed in scope s.
func (a *Agent) Supports(s Scope) bool {
	for _, x := range a.Scopes {
		if x == s {
			return true
		}
	}
	return false
}

// Found reports whether the agent itself is used on this machine: one of
// its programs is on PATH, or one of its folders holds something
// gotk-install did not put there. What gotk-install made (recorded in m)
// does not count: an install into a fresh HOME does not make the agent
// "found".
func (a *Agent) Found(e *Env, m *Manifest) bool {
	for _, p := range a.Programs {
		if _, err := e.LookPath(p); err == nil {
			return true
		}
	}
	ours := m.created()
	for _, d := range a.Dirs(e) {
		if foreignIn(d, ours) {
			return true
		}
	}
	return false
}

// foreignIn reports whether p exists and is, or holds, something not in
// ours.
func foreignIn(p string, ours map[string]bool) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if !ours[p] {
		return true
	}
	if !fi.IsDir() {
		return false
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return true
	}
	for _, en := range entries {
		if foreignIn(filepath.Join(p, en.Name()), ours) {
			return true
		}
	}
	return false
}

// recorded reports whether the manifest holds anything of agent a.
func (m *Manifest) recorded(a string) bool {
	for _, r := range m.Entries {
		if r.Agent == a {
			return true
		}
	}
	return false
}

// copilotShellTools matches Copilot CLI's shell tools, the ones
// gotk-hook-copilot answers for.
const copilotShellTools = "bash|powershell"

func claudeDir(e *Env) string  { return e.dirFrom("CLAUDE_CONFIG_DIR", ".claude") }
func copilotDir(e *Env) string { return e.dirFrom("COPILOT_HOME", ".copilot") }
func codexDir(e *Env) string   { return e.dirFrom("CODEX_HOME", ".codex") }
func vibeDir(e *Env) string    { return e.dirFrom("VIBE_HOME", ".vibe") }
func piDir(e *Env) string      { return e.dirFrom("PI_CODING_AGENT_DIR", ".pi", "agent") }

// geminiDir: GEMINI_CLI_HOME replaces the home directory, not ~/.gemini
// (gemini-cli packages/core/src/utils/paths.ts homedir()).
func geminiDir(e *Env) string {
	if h := e.Getenv("GEMINI_CLI_HOME"); h != "" {
		return filepath.Join(filepath.Clean(h), ".gemini")
	}
	return filepath.Join(e.Home, ".gemini")
}

// describe names a part's entry for the manifest and messages.
func (p *part) describe() string {
	switch p.kind {
	case "json-hook":
		return fmt.Sprintf("%s entry (%s)", p.hook.eventPath(), p.hook.bin)
	default:
		return p.what
	}
}
