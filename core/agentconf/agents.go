package agentconf

import (
	"fmt"
	"github.com/gotk-dev/gotk/core/permission"
	"os"
	"path/filepath"
	"strings"
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

// The files of module plugins that parts name (Part.Asset); gotk-install
// fills them in.
const (
	AssetOpenCode       = "opencode/gotk.ts"
	AssetPi             = "pi/gotk.ts"
	AssetHermesManifest = "hermes/gotk/plugin.yaml"
	AssetHermesPlugin   = "hermes/gotk/__init__.py"
	AssetRules          = "rules/gotk.md" // its body, without the registry's markers
)

// Agent is one coding agent gotk knows.
type Agent struct {
	Name   string
	Title  string  // its product name, for messages
	Scopes []Scope // supported; the first is the default
	// Dirs are folders (or files) whose presence, with something in them
	// gotk-install did not make, means the agent is used on this machine;
	// so does one of Programs on PATH.
	Dirs     func(e *Env) []string
	Programs []string
	// Parts lists what gotk puts in the agent's files. Reading an
	// installation needs no Bins.
	Parts func(e *Env, s Scope, b Bins) []Part
	// HookBin is the agent's hook binary, "" for plugin and rules agents.
	HookBin string
	// CommandRegex: the hook binary prints its entry's commandRegex when
	// run with --command-regex (gotk-install asks it; Bins.CommandRegex).
	CommandRegex bool
	// Notes are said after an install.
	Notes func(e *Env, s Scope) []string
}

// Bins are the absolute paths gotk's entries name, quoted for a shell
// where needed.
type Bins struct {
	Hook string // the agent's hook binary
	Gotk string // the runner
	// CommandRegex is what the hook binary printed for --command-regex
	// (agents with Agent.CommandRegex); "" leaves the member out.
	CommandRegex string
}

// Part is one thing gotk puts in one file.
type Part struct {
	Kind    string // one of the Kind constants
	File    string // absolute path as the agent names it
	Hook    *HookSpec
	Markers Markers
	Body    string // a block's or a file's text (when Asset is "")
	IsTOML  bool   // the block is TOML: the result must parse
	Inline  string // the block's entry as a TOML inline table (Vibe's hook)
	Flag    string // toml-flag key
	Doc     Obj    // a whole JSON file of gotk's
	Asset   string // a whole file (or a block's text) from module plugins
	Prefix  string // text before the asset (front matter)
	What    string // what it is, for messages
	Rules   bool   // a rules text beside a hook: --no-rules leaves it out
	Legacy  bool   // where an older layout put it: only uninstall looks
	// Syntax is how the agent itself reads a JSON file (SyntaxJSON,
	// SyntaxJSONComments; "" when not known): gotk-install reads every form,
	// the agent may skip a file it cannot parse.
	Syntax string
	// Script, for a hook script the agent executes (Body is Script of the
	// hook command): written executable; a file that is not Script of some
	// command (ScriptHook) is the user's and never replaced.
	Script func(hook string) string
	// ScriptWas are Script's earlier forms: a file of one of them is
	// gotk's too, brought up to date by an install.
	ScriptWas []func(hook string) string
}

// Describe names a part's entry for the manifest and messages.
func (p *Part) Describe() string {
	if p.Kind == KindJSONHook {
		return fmt.Sprintf("%s entry (%s)", p.Hook.EventPath(), p.Hook.Bin)
	}
	return p.What
}

// copilotShellTools matches Copilot CLI's shell tools, the ones
// gotk-hook-copilot answers for.
const copilotShellTools = "bash|powershell"

// CodexNote is the note Codex gets in AGENTS.md. Its hook already rewrites
// commands; the model only needs to know what the compact output is and how
// to get the rest. It names gotk by absolute path: Codex runs commands in a
// login shell, whose PATH may not have gotk.
func CodexNote(gotk string) string {
	if gotk == "" {
		gotk = "gotk"
	}
	return "A hook runs some shell commands through gotk (" + gotk + "), which prints a compact form of their\n" +
		"output with the same exit code and failures in full. When it says output was cut, run the\n" +
		"`" + gotk + " recall <id>` it names, or `" + gotk + " --raw <command>`.\n"
}

// TOMLString quotes s as a TOML basic string.
func TOMLString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`)
	return `"` + r.Replace(s) + `"`
}

// Agents returns the table, in the order --list shows it.
func Agents() []*Agent {
	return []*Agent{
		{
			Name: "claude", Title: "Claude Code", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-claude",
			Dirs:     func(e *Env) []string { return []string{ClaudeDir(e)} },
			Programs: []string{"claude"},
			Parts: func(e *Env, s Scope, b Bins) []Part {
				f := filepath.Join(ClaudeDir(e), "settings.json")
				if s == Project {
					f = permission.ClaudeProjectSettings(e.Cwd)
				}
				// Claude Code skips a settings file with a comment or a
				// trailing comma ("Invalid or malformed JSON";
				// anthropics/claude-code#83190).
				return []Part{{Kind: KindJSONHook, File: f, What: "PreToolUse hook", Syntax: SyntaxJSON, Hook: &HookSpec{
					Event: []string{"hooks", "PreToolUse"}, Matcher: "Bash", Tool: "Bash", CmdKey: "command", Bin: "gotk-hook-claude",
					Handler: Obj{{"type", "command"}, {"command", b.Hook}, {"timeout", 10}},
				}}}
			},
		},
		{
			Name: "cursor", Title: "Cursor", Scopes: []Scope{Global}, HookBin: "gotk-hook-cursor",
			Dirs:     func(e *Env) []string { return []string{CursorDir(e)} },
			Programs: []string{"cursor-agent", "cursor"},
			Parts: func(e *Env, s Scope, b Bins) []Part {
				return []Part{{Kind: KindJSONHook, File: filepath.Join(CursorDir(e), "hooks.json"), What: "preToolUse hook", Hook: &HookSpec{
					Event: []string{"hooks", "preToolUse"}, Tool: "Shell", CmdKey: "command", Bin: "gotk-hook-cursor",
					Handler:  Obj{{"command", b.Hook}, {"matcher", "Shell"}},
					RootKeys: Obj{{"version", 1}},
				}}}
			},
			Notes: func(e *Env, s Scope) []string {
				return []string{"Cursor also runs Claude Code hooks from ~/.claude/settings.json; with both installed it runs gotk twice (harmless: a gotk command is not rewritten again)."}
			},
		},
		{
			Name: "copilot", Title: "Copilot CLI", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-copilot",
			Dirs:     func(e *Env) []string { return []string{CopilotDir(e)} },
			Programs: []string{"copilot"},
			Parts: func(e *Env, s Scope, b Bins) []Part {
				// Copilot CLI denies a tool call whose preToolUse hook fails:
				// the matcher (a regex on toolName, anchored) keeps gotk to
				// the shell tools, so a missing binary cannot block the others.
				doc := Obj{{"version", 1}, {"hooks", Obj{{"preToolUse", []any{Obj{{"type", "command"}, {"bash", b.Hook}, {"timeoutSec", 10}, {"matcher", copilotShellTools}}}}}}}
				if s == Project {
					return []Part{
						{Kind: KindFile, File: filepath.Join(e.Cwd, ".github", "hooks", "gotk.json"), Doc: doc, What: "preToolUse hook file"},
						{Kind: KindBlock, File: filepath.Join(e.Cwd, ".github", "copilot-instructions.md"), Markers: MDMarkers, Asset: AssetRules, What: "gotk rules block", Rules: true},
					}
				}
				return []Part{{Kind: KindFile, File: filepath.Join(CopilotDir(e), "hooks", "gotk.json"), Doc: doc, What: "preToolUse hook file"}}
			},
			Notes: func(e *Env, s Scope) []string {
				return []string{"one camelCase preToolUse registration only: VS Code reads the same folder, so install gotk for Copilot in one scope, not both."}
			},
		},
		{
			Name: "gemini", Title: "Gemini CLI", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-gemini",
			Dirs:     func(e *Env) []string { return []string{GeminiDir(e)} },
			Programs: []string{"gemini"},
			Parts: func(e *Env, s Scope, b Bins) []Part {
				f := filepath.Join(GeminiDir(e), "settings.json")
				if s == Project {
					f = permission.GeminiProjectSettings(e.Cwd)
				}
				// Gemini CLI strips comments, then JSON.parse: a trailing
				// comma fails the file (gemini-cli 0.61 loadSettings).
				return []Part{{Kind: KindJSONHook, File: f, What: "BeforeTool hook", Syntax: SyntaxJSONComments, Hook: &HookSpec{
					Event: []string{"hooks", "BeforeTool"}, Matcher: "run_shell_command", Tool: "run_shell_command", CmdKey: "command", Bin: "gotk-hook-gemini",
					Handler: Obj{{"name", "gotk"}, {"type", "command"}, {"command", b.Hook}, {"timeout", 10000}},
				}}}
			},
		},
		{
			Name: "vibe", Title: "Mistral Vibe", Scopes: []Scope{Global}, HookBin: "gotk-hook-vibe",
			Dirs:     func(e *Env) []string { return []string{VibeDir(e)} },
			Programs: []string{"vibe"},
			Parts: func(e *Env, s Scope, b Bins) []Part {
				fields := []string{`name = "gotk"`, `type = "pre_tool"`, `match = "bash"`,
					"command = " + TOMLString(b.Hook), "timeout = 10.0", "strict = false"}
				body := "[[hooks]]\n" + strings.Join(fields, "\n")
				// The same hook as an inline table, for a hooks.toml whose
				// hooks are an inline array.
				inline := "{ " + strings.Join(fields, ", ") + " }"
				return []Part{
					{Kind: KindBlock, File: filepath.Join(VibeDir(e), "hooks.toml"), Markers: TOMLMarkers, Body: body, Inline: inline, IsTOML: true, What: "pre_tool hook"},
					{Kind: KindTOMLFlag, File: filepath.Join(VibeDir(e), "config.toml"), Flag: "enable_experimental_hooks", What: "enable_experimental_hooks = true"},
				}
			},
			Notes: func(e *Env, s Scope) []string {
				return []string{`Vibe <= 2.20 calls the event "before_tool"; gotk writes "pre_tool" (Vibe >= 2.21).`}
			},
		},
		{
			Name: "codex", Title: "Codex CLI", Scopes: []Scope{Global}, HookBin: "gotk-hook-codex",
			Dirs:     func(e *Env) []string { return []string{CodexDir(e)} },
			Programs: []string{"codex"},
			Parts: func(e *Env, s Scope, b Bins) []Part {
				return []Part{
					// Codex reads hooks.json with serde_json: plain JSON.
					{Kind: KindJSONHook, File: filepath.Join(CodexDir(e), "hooks.json"), What: "PreToolUse hook", Syntax: SyntaxJSON, Hook: &HookSpec{
						Event: []string{"hooks", "PreToolUse"}, Matcher: "Bash", Tool: "Bash", CmdKey: "command", Bin: "gotk-hook-codex",
						Handler: Obj{{"type", "command"}, {"command", b.Hook}, {"timeout", 10}},
					}},
					{Kind: KindBlock, File: filepath.Join(CodexDir(e), "AGENTS.md"), Markers: MDMarkers, Body: CodexNote(b.Gotk), What: "gotk note", Rules: true},
				}
			},
			Notes: func(e *Env, s Scope) []string {
				return []string{"Codex runs new hooks only once trusted: start codex and run /hooks to review and trust gotk's."}
			},
		},
		{
			Name: "opencode", Title: "OpenCode", Scopes: []Scope{Global, Project},
			Dirs:     func(e *Env) []string { return []string{OpenCodeDir(e)} },
			Programs: []string{"opencode"},
			Parts:    openCodePlugin(func(e *Env) string { return filepath.Join(OpenCodeDir(e), "plugins") }, filepath.Join(".opencode", "plugins")),
		},
		{
			Name: "pi", Title: "Pi", Scopes: []Scope{Global, Project},
			Dirs:     func(e *Env) []string { return []string{PiDir(e)} },
			Programs: []string{"pi"},
			Parts: func(e *Env, s Scope, _ Bins) []Part {
				dir := filepath.Join(PiDir(e), "extensions")
				if s == Project {
					dir = filepath.Join(e.Cwd, ".pi", "extensions")
				}
				return []Part{{Kind: KindFile, File: filepath.Join(dir, "gotk.ts"), Asset: AssetPi, What: "extension"}}
			},
		},
		{
			Name: "hermes", Title: "Hermes", Scopes: []Scope{Global},
			Dirs:     func(e *Env) []string { return []string{HermesDir(e)} },
			Programs: []string{"hermes"},
			Parts: func(e *Env, s Scope, _ Bins) []Part {
				dir := filepath.Join(HermesDir(e), "plugins", "gotk")
				return []Part{
					{Kind: KindFile, File: filepath.Join(dir, "plugin.yaml"), Asset: AssetHermesManifest, What: "plugin manifest"},
					{Kind: KindFile, File: filepath.Join(dir, "__init__.py"), Asset: AssetHermesPlugin, What: "plugin"},
				}
			},
			Notes: func(e *Env, s Scope) []string {
				return []string{"Hermes plugins are off until enabled: run `hermes plugins enable gotk`."}
			},
		},
		{
			// Cline CLI 3.x runs the file named after the event in its hooks
			// folder: a short script that execs gotk-hook-cline. --project
			// keeps the rules text (.clinerules) for the Cline extension.
			Name: "cline", Title: "Cline", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-cline",
			Dirs: func(e *Env) []string {
				return []string{ClineDir(e), filepath.Join(e.Cwd, ".clinerules")}
			},
			Programs: []string{"cline"},
			Parts: func(e *Env, s Scope, b Bins) []Part {
				if s == Global {
					return []Part{{Kind: KindFile, File: filepath.Join(ClineDir(e), "hooks", "PreToolUse"), Body: ClineHookScript(b.Hook), Script: ClineHookScript,
						ScriptWas: []func(string) string{clineHookScriptV1}, What: "PreToolUse hook file"}}
				}
				f := filepath.Join(e.Cwd, ".clinerules")
				if fi, err := os.Stat(f); err == nil && fi.IsDir() {
					// .clinerules may be a folder of rule files.
					return []Part{{Kind: KindFile, File: filepath.Join(f, "gotk.md"), Asset: AssetRules, What: "rules file"}}
				}
				return []Part{{Kind: KindBlock, File: f, Markers: MDMarkers, Asset: AssetRules, What: "gotk rules block"}}
			},
			Notes: func(e *Env, s Scope) []string {
				if s != Global {
					return nil
				}
				return []string{"Cline runs its sessions (and their hooks) in a background hub that keeps the environment it was started with: if gotk is not on that PATH, stop the hub once (cline hub stop) after installing."}
			},
		},
		{
			// Factory Droid: hooks.json keyed by event; commandRegex so that
			// Droid calls the hook only for commands naming a program gotk
			// may rewrite; preserveRiskLevel so that, when gotk does not
			// allow, the model's risk level still applies.
			Name: "droid", Title: "Factory Droid", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-droid", CommandRegex: true,
			Dirs:     func(e *Env) []string { return []string{DroidDir(e)} },
			Programs: []string{"droid"},
			Parts: func(e *Env, s Scope, b Bins) []Part {
				dir := DroidDir(e)
				if s == Project {
					dir = filepath.Join(e.Cwd, ".factory")
				}
				spec := &HookSpec{
					Event: []string{"PreToolUse"}, Matcher: "Execute", Tool: "Execute", CmdKey: "command", Bin: "gotk-hook-droid",
					Handler: Obj{{"type", "command"}, {"command", b.Hook}, {"timeout", 10}, {"preserveRiskLevel", true}},
				}
				if b.CommandRegex != "" {
					spec.Group = Obj{{"commandRegex", b.CommandRegex}}
				}
				f := filepath.Join(dir, "hooks.json")
				if droidHooksInSettings(dir) {
					// Without a hooks.json Droid reads settings.json's
					// "hooks": a new hooks.json would hide them.
					f = filepath.Join(dir, "settings.json")
					spec.Event = []string{"hooks", "PreToolUse"}
				}
				return []Part{{Kind: KindJSONHook, File: f, What: "PreToolUse hook", Hook: spec}}
			},
		},
		{
			// Kilo Code CLI, an OpenCode fork: the OpenCode plugin, which
			// asks gotk as host kilo when it runs in Kilo (KILO=1).
			Name: "kilo", Title: "Kilo Code", Scopes: []Scope{Global, Project},
			Dirs:     func(e *Env) []string { return []string{KiloDir(e)} },
			Programs: []string{"kilo"},
			Parts:    openCodePlugin(func(e *Env) string { return filepath.Join(KiloDir(e), "plugin") }, filepath.Join(".kilo", "plugin")),
		},
		{
			// Crush: hooks.PreToolUse entries carry their own name and
			// matcher (a regex on the tool name).
			Name: "crush", Title: "Crush", Scopes: []Scope{Global, Project}, HookBin: "gotk-hook-crush",
			Dirs:     func(e *Env) []string { return []string{filepath.Dir(CrushConfig(e))} },
			Programs: []string{"crush"},
			Parts: func(e *Env, s Scope, b Bins) []Part {
				f := CrushConfig(e)
				if s == Project {
					// The project's crush.json, or its .crush.json when
					// that is the one it has.
					f = filepath.Join(e.Cwd, "crush.json")
					if _, err := os.Stat(f); err != nil {
						if _, err := os.Stat(filepath.Join(e.Cwd, ".crush.json")); err == nil {
							f = filepath.Join(e.Cwd, ".crush.json")
						}
					}
				}
				return []Part{{Kind: KindJSONHook, File: f, What: "PreToolUse hook", Hook: &HookSpec{
					Event: []string{"hooks", "PreToolUse"}, Tool: "bash", CmdKey: "command", Bin: "gotk-hook-crush",
					Handler: Obj{{"name", "gotk"}, {"matcher", "^bash$"}, {"command", b.Hook}, {"timeout", 10}},
				}}}
			},
		},
		{
			Name: "windsurf", Title: "Windsurf", Scopes: []Scope{Project},
			Dirs: func(e *Env) []string {
				return []string{filepath.Join(e.Cwd, ".windsurf"), filepath.Join(e.Cwd, ".windsurfrules")}
			},
			Programs: []string{"windsurf"},
			Parts: func(e *Env, s Scope, _ Bins) []Part {
				legacy := Part{Kind: KindBlock, File: filepath.Join(e.Cwd, ".windsurfrules"), Markers: MDMarkers, Asset: AssetRules, What: "gotk rules block"}
				dir := filepath.Join(e.Cwd, ".windsurf", "rules")
				if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
					return []Part{legacy}
				}
				// Windsurf's current rules: one Markdown file per rule in
				// .windsurf/rules/, its activation in front matter.
				legacy.Legacy = true
				return []Part{{Kind: KindFile, File: filepath.Join(dir, "gotk.md"), Prefix: "---\ntrigger: always_on\n---\n\n", Asset: AssetRules, What: "rules file"}, legacy}
			},
		},
	}
}

// ClineHookScript is the hook file gotk-install writes for Cline: Cline
// runs a file without extension as a program when its first line is a
// shebang. When the hook is gone (gotk moved or uninstalled by hand) the
// script exits 0 with nothing on stdout, which Cline 3.0.65 takes as no
// answer (runHookCommand reads only the hook's JSON on stdout): the tool
// call goes ahead unchanged, and no "not found" exit 127 is left to any
// Cline that would read it as a failure.
func ClineHookScript(hook string) string {
	return "#!/bin/sh\n# gotk-install: Cline runs this file before each tool call; gotk-hook-cline answers.\n" +
		"# Without it, the tool call goes ahead unchanged.\ncommand -v " + hook + " >/dev/null 2>&1 || exit 0\nexec " + hook + "\n"
}

// clineHookScriptV1 is ClineHookScript before it stepped aside for a
// missing hook.
func clineHookScriptV1(hook string) string {
	return "#!/bin/sh\n# gotk-install: Cline runs this file before each tool call; gotk-hook-cline answers.\nexec " + hook + "\n"
}

// ScriptHook returns the command of the last `exec` line of a hook script
// gotk-install writes, or "".
func ScriptHook(b []byte) string {
	cmd := ""
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimRight(l, "\r"), "exec "); ok {
			cmd = strings.TrimSpace(rest)
		}
	}
	return cmd
}

// droidHooksInSettings reports whether dir has no hooks.json and its
// settings.json has a "hooks" member: Droid then reads its hooks there.
func droidHooksInSettings(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, "hooks.json")); err == nil {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, "settings.json"))
	if err != nil {
		return false
	}
	root, err := LoadRoot(b)
	return err == nil && root != nil && root.Get("hooks") != nil
}

// AgentNames lists the agents' names, in table order.
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
	ours := m.Created()
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

// openCodePlugin is the part of OpenCode and of Kilo (its fork): the
// OpenCode plugin file, gotk.ts, in the global plugin folder or in the
// project's (project, relative to the working directory).
func openCodePlugin(global func(*Env) string, project string) func(*Env, Scope, Bins) []Part {
	return func(e *Env, s Scope, _ Bins) []Part {
		dir := global(e)
		if s == Project {
			dir = filepath.Join(e.Cwd, project)
		}
		return []Part{{Kind: KindFile, File: filepath.Join(dir, "gotk.ts"), Asset: AssetOpenCode, What: "plugin"}}
	}
}
