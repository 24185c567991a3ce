package install

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/installer/assets"
)

// agents.go: the table of agents — where each keeps its configuration, what
// gotk puts there, and the one or two lines that differ between them.
// Sources for every path and entry shape: docs/agents.md.

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
	flag    string // toml-flag key
	content []byte // file
	what    string // what it is, for messages
}

// rules is the rules text's body: the asset carries the registry's own
// markers, and the block writer adds them again around the body.
func rules() string {
	body := strings.TrimPrefix(string(assets.Must("rules.md")), mdMarkers.open+"\n")
	return strings.TrimSuffix(body, mdMarkers.close+"\n")
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
				doc := obj{{"version", 1}, {"hooks", obj{{"preToolUse", []any{obj{{"type", "command"}, {"bash", hook}, {"timeoutSec", 10}}}}}}}
				content := []byte(render(doc, "", "  ", "\n", false) + "\n")
				if s == Project {
					return []part{
						{kind: "file", file: filepath.Join(e.Cwd, ".github", "hooks", "gotk.json"), content: content, what: "preToolUse hook file"},
						{kind: "block", file: filepath.Join(e.Cwd, ".github", "copilot-instructions.md"), mk: mdMarkers, body: rules(), what: "gotk rules block"},
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
				body := strings.Join([]string{"[[hooks]]", `name = "gotk"`, `type = "pre_tool"`, `match = "bash"`,
					"command = " + tomlString(hook), "timeout = 10.0", "strict = false"}, "\n")
				return []part{
					{kind: "block", file: filepath.Join(vibeDir(e), "hooks.toml"), mk: tomlMarkers, body: body, isTOML: true, what: "pre_tool hook"},
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
					{kind: "block", file: filepath.Join(codexDir(e), "AGENTS.md"), mk: mdMarkers, body: rules(), what: "gotk rules block"},
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
				return []part{{kind: "file", file: filepath.Join(dir, "gotk.ts"), content: assets.Must("opencode/gotk.ts"), what: "plugin"}}
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
				return []part{{kind: "file", file: filepath.Join(dir, "gotk.ts"), content: assets.Must("pi/gotk.ts"), what: "extension"}}
			},
		},
		{
			Name: "hermes", Scopes: []Scope{Global},
			Dirs:     func(e *Env) []string { return []string{filepath.Join(e.Home, ".hermes")} },
			Programs: []string{"hermes"},
			Parts: func(e *Env, s Scope, _ string) []part {
				dir := filepath.Join(e.Home, ".hermes", "plugins", "gotk")
				return []part{
					{kind: "file", file: filepath.Join(dir, "plugin.yaml"), content: assets.Must("hermes/gotk/plugin.yaml"), what: "plugin manifest"},
					{kind: "file", file: filepath.Join(dir, "__init__.py"), content: assets.Must("hermes/gotk/__init__.py"), what: "plugin"},
				}
			},
			Notes: func(e *Env, s Scope) []string {
				return []string{"Hermes plugins are off until enabled: run `hermes plugins enable gotk`."}
			},
		},
		{
			// Cline CLI 3.x runs the executable file named after the event:
			// a one-line script that runs gotk-hook-cline. --project keeps
			// the rules text option (.clinerules) for the Cline extension.
			Name: "cline", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-cline",
			Dirs:     func(e *Env) []string { return []string{clineDir(e), filepath.Join(e.Cwd, ".clinerules")} },
			Programs: []string{"cline"},
			Parts: func(e *Env, s Scope, hook string) []part {
				if s == Global {
					content := "#!/bin/sh\n# gotk-install: Cline runs this file before each tool call; gotk-hook-cline answers.\nexec " + hook + "\n"
					return []part{{kind: "file", file: filepath.Join(clineDir(e), "hooks", "PreToolUse"), content: []byte(content), what: "PreToolUse hook file"}}
				}
				f := filepath.Join(e.Cwd, ".clinerules")
				if fi, err := os.Stat(f); err == nil && fi.IsDir() {
					// .clinerules may be a folder of rule files.
					return []part{{kind: "file", file: filepath.Join(f, "gotk.md"), content: []byte(rules()), what: "rules file"}}
				}
				return []part{{kind: "block", file: f, mk: mdMarkers, body: rules(), what: "gotk rules block"}}
			},
			Notes: func(e *Env, s Scope) []string {
				if s != Global {
					return nil
				}
				return []string{"Cline runs its sessions (and their hooks) in a background hub (cline --cline-hub-daemon) that keeps the environment it was started with: if gotk is not on that PATH, stop the hub once (cline hub stop) after installing."}
			},
		},
		{
			// Factory Droid: hooks.json keyed by event; commandRegex so that
			// Droid calls the hook only for commands naming a program gotk
			// may rewrite (gotk-hook-droid --command-regex).
			Name: "droid", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-droid",
			Dirs:     func(e *Env) []string { return []string{droidDir(e)} },
			Programs: []string{"droid"},
			Parts: func(e *Env, s Scope, hook string) []part {
				dir := droidDir(e)
				if s == Project {
					dir = filepath.Join(e.Cwd, ".factory")
				}
				spec := &jsonHookSpec{
					event: []string{"PreToolUse"}, matcher: "Execute", tool: "Execute", cmdKey: "command", bin: "gotk-hook-droid",
					handler: obj{{"type", "command"}, {"command", hook}, {"timeout", 10}, {"preserveRiskLevel", true}},
				}
				if re := commandRegex(hook); re != "" {
					spec.group = obj{{"commandRegex", re}}
				}
				f := filepath.Join(dir, "hooks.json")
				if droidHooksInSettings(dir) {
					// Without a hooks.json Droid reads settings.json's hooks:
					// a new hooks.json would hide them.
					f = filepath.Join(dir, "settings.json")
					spec.event = []string{"hooks", "PreToolUse"}
				}
				return []part{{kind: "json-hook", file: f, what: "PreToolUse hook", hook: spec}}
			},
		},
		{
			// Kilo Code CLI, an OpenCode fork: the OpenCode plugin, which asks
			// gotk as host kilo when it runs in Kilo.
			Name: "kilo", Scopes: []Scope{Global, Project},
			Dirs:     func(e *Env) []string { return []string{filepath.Join(e.configHome(), "kilo")} },
			Programs: []string{"kilo"},
			Parts: func(e *Env, s Scope, _ string) []part {
				dir := filepath.Join(e.configHome(), "kilo", "plugin")
				if s == Project {
					dir = filepath.Join(e.Cwd, ".kilo", "plugin")
				}
				return []part{{kind: "file", file: filepath.Join(dir, "gotk.ts"), content: assets.Must("opencode/gotk.ts"), what: "plugin"}}
			},
		},
		{
			// Crush: hooks.PreToolUse entries carry their own matcher.
			Name: "crush", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-crush",
			Dirs:     func(e *Env) []string { return []string{filepath.Dir(crushConfig(e))} },
			Programs: []string{"crush"},
			Parts: func(e *Env, s Scope, hook string) []part {
				f := crushConfig(e)
				if s == Project {
					f = filepath.Join(e.Cwd, "crush.json")
					if _, err := os.Stat(f); err != nil {
						if _, err := os.Stat(filepath.Join(e.Cwd, ".crush.json")); err == nil {
							f = filepath.Join(e.Cwd, ".crush.json")
						}
					}
				}
				return []part{{kind: "json-hook", file: f, what: "PreToolUse hook", hook: &jsonHookSpec{
					event: []string{"hooks", "PreToolUse"}, tool: "bash", cmdKey: "command", bin: "gotk-hook-crush",
					handler: obj{{"name", "gotk"}, {"matcher", "^bash$"}, {"command", hook}, {"timeout", 10}},
				}}}
			},
		},
		{
			Name: "windsurf", Scopes: []Scope{Project},
			Dirs:     func(e *Env) []string { return []string{filepath.Join(e.Cwd, ".windsurfrules")} },
			Programs: []string{"windsurf"},
			Parts: func(e *Env, s Scope, _ string) []part {
				return []part{{kind: "block", file: filepath.Join(e.Cwd, ".windsurfrules"), mk: mdMarkers, body: rules(), what: "gotk rules block"}}
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

// Found reports whether the agent is used on this machine: one of its
// folders exists or one of its programs is on PATH.
func (a *Agent) Found(e *Env) bool {
	for _, d := range a.Dirs(e) {
		if _, err := os.Stat(d); err == nil {
			return true
		}
	}
	for _, p := range a.Programs {
		if _, err := e.LookPath(p); err == nil {
			return true
		}
	}
	return false
}

func claudeDir(e *Env) string  { return e.dirFrom("CLAUDE_CONFIG_DIR", ".claude") }
func copilotDir(e *Env) string { return e.dirFrom("COPILOT_HOME", ".copilot") }
func codexDir(e *Env) string   { return e.dirFrom("CODEX_HOME", ".codex") }
func vibeDir(e *Env) string    { return e.dirFrom("VIBE_HOME", ".vibe") }
func piDir(e *Env) string      { return e.dirFrom("PI_CODING_AGENT_DIR", ".pi", "agent") }
func clineDir(e *Env) string   { return e.dirFrom("CLINE_DIR", ".cline") }

// droidDir: FACTORY_HOME_OVERRIDE replaces the home directory.
func droidDir(e *Env) string {
	if h := e.Getenv("FACTORY_HOME_OVERRIDE"); h != "" {
		return filepath.Join(filepath.Clean(h), ".factory")
	}
	return filepath.Join(e.Home, ".factory")
}

// droidHooksInSettings: dir has no hooks.json and its settings.json has a
// "hooks" member.
func droidHooksInSettings(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "hooks.json")); err == nil {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil {
		return false
	}
	root, err := loadRoot(b)
	return err == nil && root != nil && root.get("hooks") != nil
}

// crushConfig is Crush's global crush.json ($CRUSH_GLOBAL_CONFIG names its
// folder).
func crushConfig(e *Env) string {
	if d := e.Getenv("CRUSH_GLOBAL_CONFIG"); d != "" {
		return filepath.Join(d, "crush.json")
	}
	return filepath.Join(e.configHome(), "crush", "crush.json")
}

// commandRegex asks a hook binary (a path as hook entries write it) for
// its --command-regex; "" when it has none or does not answer.
func commandRegex(hook string) string {
	if hook == "" {
		return ""
	}
	bin := hook
	if strings.HasPrefix(bin, "'") {
		bin = strings.ReplaceAll(strings.Trim(bin, "'"), `'\''`, "'")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--command-regex").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

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
