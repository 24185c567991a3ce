package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
)

// Agent is one agent CLI: how to configure it for an offline run against
// the fake model, how to run it, and how to hook its shell tool. The facts
// come from docs/e2e.md; each agent is the few lines that
// differ.
type Agent struct {
	// Name is the agent's short name, also gotk-install's --agent value.
	Name string
	// Bin is its executable in the agents' node_modules/.bin.
	Bin string
	// Package is its npm package, for messages.
	Package string
	// setup writes the base offline config under e.Home and sets e.Vars
	// and e.Args.
	setup func(e *Env)
	// addHook registers a command hook on the shell tool (nil for agents
	// hooked by a plugin).
	addHook func(e *Env, command string)
	// dialect is the test hook's dialect for addHook.
	dialect string
	// addPlugin installs plugin source (nil for agents with command hooks).
	addPlugin func(e *Env, source string)
	// rewritePlugin is the phase-1 plugin source.
	rewritePlugin string
	// allowWrites lets the run write files in the project without asking,
	// for agents whose offline config does not already (nil = nothing to do).
	allowWrites func(e *Env)
	// keepSessions makes the run save its session transcript where the
	// agent normally keeps them, for agents whose offline invocation turns
	// that off (nil = nothing to do).
	keepSessions func(e *Env)
	// timedOut is set once a run of the agent hit its timeout.
	timedOut atomic.Bool
	// onPath: the agent is not installed from npm; its Bin is looked up on
	// PATH, and its tests skip without one.
	onPath bool
	// decodeResult turns the agent's tool result into the text the shell
	// tool printed, where the agent wraps it (nil: as is).
	decodeResult func(string) string
	// lock is the folder of the agent's own package-lock.json ("": the
	// main one), for an agent that needs another Node (OpenClaw).
	lock string
	// optIn: the agent runs its whole suite only where GOTK_E2E_AGENTS
	// names it (one OpenClaw run takes minutes); a default run gives it
	// the contract's cases alone (ContractAgents).
	optIn bool
}

// KeepSessions makes the run write its session transcript (gotk discover
// reads them): Pi's offline invocation passes --no-session.
func (a *Agent) KeepSessions(e *Env) {
	if a.keepSessions != nil {
		a.keepSessions(e)
	}
}

// AllowWrites lets commands of the run create and change files in the
// project: Claude Code's -p mode refuses `cmd > file` otherwise.
func (a *Agent) AllowWrites(e *Env) {
	if a.allowWrites != nil {
		a.allowWrites(e)
	}
}

// AddRewriteHook installs the phase-1 hook that rewrites every shell
// command to `echo 'REWRITTEN:<command>'`.
func (a *Agent) AddRewriteHook(e *Env) {
	if a.addHook != nil {
		a.addHook(e, e.TestHookCommand(a.dialect))
		return
	}
	a.addPlugin(e, a.rewritePlugin)
}

// Agents is every agent the harness drives.
var Agents = []*Agent{
	{
		Name: "claude", Bin: "claude", Package: "@anthropic-ai/claude-code",
		setup: func(e *Env) {
			e.Vars["ANTHROPIC_BASE_URL"] = e.Model.URL()
			e.Vars["ANTHROPIC_API_KEY"] = "sk-e2e-dummy"
			e.Vars["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] = "1"
			e.Vars["DISABLE_AUTOUPDATER"] = "1"
			e.Vars["DISABLE_TELEMETRY"] = "1"
			e.editJSON(filepath.Join(e.Home, ".claude", "settings.json"), func(m map[string]any) {})
			e.Args = []string{"-p", Prompt, "--output-format", "json"}
		},
		dialect: "claude",
		addHook: func(e *Env, command string) {
			e.editJSON(filepath.Join(e.Home, ".claude", "settings.json"), func(m map[string]any) {
				appendHook(m, "PreToolUse", map[string]any{"matcher": "Bash",
					"hooks": []any{map[string]any{"type": "command", "command": command}}})
			})
		},
		allowWrites: func(e *Env) {
			e.Args = append(e.Args, "--permission-mode", "acceptEdits")
		},
	},
	{
		Name: "gemini", Bin: "gemini", Package: "@google/gemini-cli",
		setup: func(e *Env) {
			e.Vars["GOOGLE_GEMINI_BASE_URL"] = e.Model.URL()
			e.Vars["GEMINI_API_KEY"] = "e2e-dummy-key"
			e.Vars["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
			e.Vars["GEMINI_CLI_NO_RELAUNCH"] = "true"
			e.editJSON(filepath.Join(e.Home, ".gemini", "settings.json"), func(m map[string]any) {
				m["security"] = map[string]any{
					"auth":        map[string]any{"selectedType": "gemini-api-key"},
					"folderTrust": map[string]any{"enabled": false},
				}
				m["telemetry"] = map[string]any{"enabled": false}
				m["privacy"] = map[string]any{"usageStatisticsEnabled": false}
				m["hooksConfig"] = map[string]any{"enabled": true}
			})
			e.Args = []string{"-m", "gemini-2.5-flash", "-p", Prompt, "--approval-mode", "yolo", "--output-format", "json"}
		},
		dialect: "gemini",
		addHook: func(e *Env, command string) {
			e.editJSON(filepath.Join(e.Home, ".gemini", "settings.json"), func(m map[string]any) {
				appendHook(m, "BeforeTool", map[string]any{"matcher": "run_shell_command",
					"hooks": []any{map[string]any{"type": "command", "name": "e2e-hook", "command": command}}})
			})
		},
	},
	{
		Name: "codex", Bin: "codex", Package: "@openai/codex",
		setup: func(e *Env) {
			codexHome := filepath.Join(e.Home, ".codex")
			e.Vars["CODEX_HOME"] = codexHome
			e.Vars["E2E_FAKE_API_KEY"] = "sk-e2e-dummy"
			e.WriteFile(filepath.Join(codexHome, "config.toml"), fmt.Sprintf(`model = "gpt-5-codex"
model_provider = "e2efake"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.e2efake]
name = "e2e fake model"
base_url = "%s/v1"
wire_api = "responses"
env_key = "E2E_FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[features]
hooks = true

[analytics]
enabled = false
`, e.Model.URL()))
			e.Args = []string{"exec", "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust",
				"--skip-git-repo-check", "--color", "never", Prompt}
		},
		dialect: "codex",
		addHook: func(e *Env, command string) {
			e.editJSON(filepath.Join(e.Home, ".codex", "hooks.json"), func(m map[string]any) {
				appendHook(m, "PreToolUse", map[string]any{"matcher": "Bash",
					"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": 30}}})
			})
		},
	},
	{
		Name: "copilot", Bin: "copilot", Package: "@github/copilot",
		setup: func(e *Env) {
			e.Vars["COPILOT_OFFLINE"] = "true"
			e.Vars["COPILOT_PROVIDER_BASE_URL"] = e.Model.URL() + "/v1"
			e.Vars["COPILOT_PROVIDER_TYPE"] = "openai"
			e.Vars["COPILOT_PROVIDER_API_KEY"] = "sk-e2e-dummy"
			e.Vars["COPILOT_MODEL"] = "gpt-4o"
			e.Vars["COPILOT_AUTO_UPDATE"] = "false"
			// The npm build unpacks ~235 MB on first start; a shared cache
			// keeps later runs at a few seconds.
			e.Vars["COPILOT_CACHE_HOME"] = sharedCache(e, "copilot")
			e.Args = []string{"-p", Prompt, "--allow-all-tools", "--no-auto-update", "--disable-client-telemetry"}
		},
		dialect: "copilot",
		addHook: func(e *Env, command string) {
			e.editJSON(filepath.Join(e.Home, ".copilot", "hooks", "e2e.json"), func(m map[string]any) {
				m["version"] = 1
				appendHook(m, "preToolUse", map[string]any{"type": "command", "bash": command, "timeoutSec": 30})
			})
		},
	},
	{
		Name: "opencode", Bin: "opencode", Package: "opencode-ai",
		setup: func(e *Env) {
			for _, k := range []string{"MODELS_FETCH", "AUTOUPDATE", "LSP_DOWNLOAD", "DEFAULT_PLUGINS",
				"SHARE", "CLAUDE_CODE", "EXTERNAL_SKILLS"} {
				e.Vars["OPENCODE_DISABLE_"+k] = "1"
			}
			e.editJSON(filepath.Join(e.Home, ".config", "opencode", "opencode.json"), func(m map[string]any) {
				openCodeConfig(m, e, "https://opencode.ai/config.json")
			})
			seedPluginDeps(e, filepath.Join(e.Home, ".config", "opencode"), "@opencode-ai/plugin", "1.18.33")
			e.Args = []string{"run", "--model", "e2efake/fake-model", Prompt}
		},
		addPlugin: func(e *Env, source string) {
			e.WriteFile(filepath.Join(e.Home, ".config", "opencode", "plugin", "e2e.js"), source)
		},
		rewritePlugin: OpenCodeRewritePlugin,
	},
	{
		Name: "pi", Bin: "pi", Package: "@mariozechner/pi-coding-agent",
		setup: func(e *Env) {
			e.Vars["PI_OFFLINE"] = "1"
			e.Vars["PI_TELEMETRY"] = "0"
			e.Vars["PI_SKIP_VERSION_CHECK"] = "1"
			dir := filepath.Join(e.Home, ".pi", "agent")
			e.editJSON(filepath.Join(dir, "models.json"), func(m map[string]any) {
				m["providers"] = map[string]any{"e2efake": map[string]any{
					"baseUrl": e.Model.URL() + "/v1", "api": "openai-completions", "apiKey": "sk-e2e-dummy",
					"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
					"models": []any{map[string]any{
						"id": "fake-model", "name": "fake-model", "reasoning": false, "input": []string{"text"},
						"contextWindow": 128000, "maxTokens": 4096,
						"cost": map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
					}},
				}}
			})
			e.editJSON(filepath.Join(dir, "settings.json"), func(m map[string]any) {
				m["enableInstallTelemetry"] = false
			})
			e.Args = []string{"--offline", "--no-session", "--provider", "e2efake", "--model", "fake-model", "-p", Prompt}
		},
		addPlugin: func(e *Env, source string) {
			e.WriteFile(filepath.Join(e.Home, ".pi", "agent", "extensions", "e2e.ts"), source)
		},
		rewritePlugin: PiRewriteExtension,
		keepSessions: func(e *Env) {
			e.Args = slices.DeleteFunc(e.Args, func(a string) bool { return a == "--no-session" })
		},
	},
}

func init() {
	Agents = append(Agents, clineAgent, droidAgent, kiloAgent, crushAgent, openClawAgent, auggieAgent)
}

// crushAgent is Crush (charmbracelet/crush). Its release binary cannot be
// fetched here (npm's @charmland/crush downloads it from GitHub in a
// postinstall; the Go proxy refuses the module), so its tests run only when
// a crush binary is on PATH: an OpenAI-compatible provider in
// ~/.config/crush/crush.json, `crush run --quiet PROMPT` (which approves
// every permission of its session), the shell tool bash, and hooks in
// crush.json hooks.PreToolUse.
var crushAgent = &Agent{
	Name: "crush", Bin: "crush", Package: "charmbracelet/crush", onPath: true,
	setup: func(e *Env) {
		e.Vars["CRUSH_DISABLE_PROVIDER_AUTO_UPDATE"] = "1"
		e.editJSON(filepath.Join(e.Home, ".config", "crush", "crush.json"), func(m map[string]any) {
			m["providers"] = map[string]any{"e2efake": map[string]any{
				"type": "openai-compat", "base_url": e.Model.URL() + "/v1", "api_key": "sk-e2e-dummy",
				"models": []any{map[string]any{"id": "fake-model", "name": "Fake", "context_window": 128000, "default_max_tokens": 4096}},
			}}
			m["models"] = map[string]any{
				"large": map[string]any{"model": "fake-model", "provider": "e2efake"},
				"small": map[string]any{"model": "fake-model", "provider": "e2efake"},
			}
			m["options"] = map[string]any{"disable_provider_auto_update": true, "disable_metrics": true}
		})
		e.Args = []string{"run", "--quiet", Prompt}
	},
	dialect: "crush",
	addHook: func(e *Env, command string) {
		e.editJSON(filepath.Join(e.Home, ".config", "crush", "crush.json"), func(m map[string]any) {
			appendHook(m, "PreToolUse", map[string]any{"name": "e2e", "matcher": "^bash$", "command": command, "timeout": 30})
		})
	},
}

// kiloAgent is Kilo Code CLI (the @kilocode/cli-linux-x64 binary; the
// @kilocode/cli wrapper's platform build is missing from the registry), an
// OpenCode fork: the same provider config in ~/.config/kilo/kilo.json,
// KILO_* switches, `kilo run --model e2efake/fake-model PROMPT`, and
// plugins in ~/.config/kilo/plugin/ (gotk's OpenCode plugin, unchanged).
var kiloAgent = &Agent{
	Name: "kilo", Bin: "kilo", Package: "@kilocode/cli-linux-x64",
	setup: func(e *Env) {
		for _, k := range []string{"MODELS_FETCH", "AUTOUPDATE", "LSP_DOWNLOAD", "DEFAULT_PLUGINS", "SHARE",
			"CLAUDE_CODE", "EXTERNAL_SKILLS", "SESSION_INGEST", "CODEBASE_INDEXING", "PRESENCE"} {
			e.Vars["KILO_DISABLE_"+k] = "1"
		}
		dir := filepath.Join(e.Home, ".config", "kilo")
		e.editJSON(filepath.Join(dir, "kilo.json"), func(m map[string]any) {
			openCodeConfig(m, e, "https://app.kilo.ai/config.json")
		})
		seedPluginDeps(e, dir, "@kilocode/plugin", "7.7.9")
		e.Args = []string{"run", "--model", "e2efake/fake-model", Prompt}
	},
	addPlugin: func(e *Env, source string) {
		e.WriteFile(filepath.Join(e.Home, ".config", "kilo", "plugin", "e2e.js"), source)
	},
	rewritePlugin: OpenCodeRewritePlugin,
}

// droidAgent is Factory Droid (the @factory/cli-linux-x64 binary; the
// @factory/cli wrapper's platform build is missing from the registry): a
// BYOK custom model speaking OpenAI Chat Completions in
// ~/.factory/settings.json, `droid exec -m MODEL PROMPT` (default autonomy),
// the shell tool Execute {command, summary, riskLevel, riskLevelReason}, and
// hooks in ~/.factory/hooks.json (top-level keys are event names).
var droidAgent = &Agent{
	Name: "droid", Bin: "droid", Package: "@factory/cli-linux-x64",
	setup: func(e *Env) {
		e.editJSON(filepath.Join(e.Home, ".factory", "settings.json"), func(m map[string]any) {
			m["customModels"] = []any{map[string]any{
				"model": "fake-model", "displayName": "Fake", "baseUrl": e.Model.URL() + "/v1",
				"apiKey": "sk-e2e-dummy", "provider": "generic-chat-completion-api", "maxOutputTokens": 4096,
			}}
		})
		e.Args = []string{"exec", "-m", "fake-model", Prompt}
	},
	dialect: "droid",
	addHook: func(e *Env, command string) {
		e.editJSON(filepath.Join(e.Home, ".factory", "hooks.json"), func(m map[string]any) {
			list, _ := m["PreToolUse"].([]any)
			m["PreToolUse"] = append(list, map[string]any{"matcher": "Execute",
				"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": 30, "preserveRiskLevel": true}}})
		})
	},
}

// clineAgent is Cline CLI 3.x (npm cline, a Node wrapper around the Bun
// binary of @cline/cli-<platform>): an OpenAI-compatible provider written
// as `cline auth -p openai-compatible -b URL -k KEY -m MODEL` writes it,
// `cline PROMPT` (act mode, tools auto-approved), the shell tool
// run_commands {"commands":[…]}, and hooks as executable files named after
// the event in ~/.cline/hooks/.
var clineAgent = &Agent{
	Name: "cline", Bin: "cline", Package: "cline",
	setup: func(e *Env) {
		e.editJSON(filepath.Join(e.Home, ".cline", "data", "settings", "providers.json"), func(m map[string]any) {
			m["version"] = 1
			m["lastUsedProvider"] = "openai-compatible"
			m["modes"] = map[string]any{}
			m["providers"] = map[string]any{"openai-compatible": map[string]any{
				"settings": map[string]any{"provider": "openai-compatible", "apiKey": "sk-e2e-dummy",
					"model": "fake-model", "baseUrl": e.Model.URL() + "/v1"},
				// Without updatedAt Cline drops the entry and falls back to its
				// own provider (api.cline.bot).
				"tokenSource": "manual", "updatedAt": "2026-01-01T00:00:00.000Z",
			}}
		})
		e.Args = []string{Prompt}
	},
	dialect:      "cline",
	decodeResult: clineResult,
	addHook: func(e *Env, command string) {
		p := filepath.Join(e.Home, ".cline", "hooks", "PreToolUse")
		e.WriteFile(p, "#!/bin/sh\nexec "+command+"\n")
		if err := os.Chmod(p, 0o755); err != nil {
			e.T.Fatal(err)
		}
	},
}

// clineResult unwraps Cline's run_commands result, a JSON list of
// {query, result, error, success} (or one {error}), into its output.
func clineResult(s string) string {
	var list []struct{ Result, Error string }
	if json.Unmarshal([]byte(s), &list) != nil {
		var one struct{ Error string }
		if json.Unmarshal([]byte(s), &one) != nil || one.Error == "" {
			return s
		}
		return one.Error
	}
	var out []string
	for _, r := range list {
		t := r.Result
		if r.Error != "" {
			if t != "" && !strings.HasSuffix(t, "\n") {
				t += "\n"
			}
			t += r.Error
		}
		out = append(out, t)
	}
	return strings.Join(out, "\n")
}

// SelectedAgents is Agents, limited by GOTK_E2E_AGENTS when set.
func SelectedAgents() []*Agent {
	want := os.Getenv(EnvAgents)
	if want == "" {
		return slices.DeleteFunc(slices.Clone(Agents), func(a *Agent) bool { return a.optIn })
	}
	var out []*Agent
	for _, a := range Agents {
		for _, w := range strings.Split(want, ",") {
			if strings.TrimSpace(w) == a.Name {
				out = append(out, a)
			}
		}
	}
	return out
}

// ContractAgents is SelectedAgents, plus, in a default run, the opt-in
// agents: the cases that prove the contract (compact output, passthrough,
// a broken gotk never blocks, permission parity) run every agent in
// make e2e, however slow its start.
func ContractAgents() []*Agent {
	if os.Getenv(EnvAgents) != "" {
		return SelectedAgents()
	}
	return slices.Clone(Agents)
}

// contractOnly: a default run of an opt-in agent, which runs the
// contract's cases alone and the first of several variants.
func (a *Agent) contractOnly() bool {
	return a.optIn && os.Getenv(EnvAgents) == ""
}

// editJSON reads the JSON object at path (or {}), lets edit change it, and
// writes it back.
func (e *Env) editJSON(path string, edit func(m map[string]any)) {
	e.T.Helper()
	m := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &m); err != nil {
			e.T.Fatalf("%s: %v", path, err)
		}
	}
	edit(m)
	b, _ := json.MarshalIndent(m, "", "  ")
	e.WriteFile(path, string(b)+"\n")
}

// appendHook appends entry to m["hooks"][event], creating what is missing.
func appendHook(m map[string]any, event string, entry any) {
	hooks, _ := m["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
		m["hooks"] = hooks
	}
	list, _ := hooks[event].([]any)
	hooks[event] = append(list, entry)
}

// sharedCache is a per-agent cache directory that outlives the run, next to
// the installed agents (outside the repo).
func sharedCache(e *Env, name string) string {
	dir, err := CacheDir()
	if err != nil {
		dir = filepath.Join(os.TempDir(), "gotk-e2e-cache")
	}
	dir = filepath.Join(dir, name+"-cache")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		e.T.Fatal(err)
	}
	return dir
}

// openCodeConfig writes what OpenCode and its fork Kilo need in their JSON
// config to run against the fake model (schema names the fork's): the
// provider, the model, no updates or sharing, every permission granted but
// web fetches.
func openCodeConfig(m map[string]any, e *Env, schema string) {
	m["$schema"] = schema
	m["model"] = "e2efake/fake-model"
	m["small_model"] = "e2efake/fake-model"
	m["autoupdate"] = false
	m["share"] = "disabled"
	m["provider"] = map[string]any{"e2efake": map[string]any{
		"npm":     "@ai-sdk/openai-compatible",
		"name":    "e2e fake model",
		"options": map[string]any{"baseURL": e.Model.URL() + "/v1", "apiKey": "sk-e2e-dummy"},
		"models": map[string]any{"fake-model": map[string]any{
			"name": "fake-model", "tool_call": true,
			"limit": map[string]any{"context": 128000, "output": 4096},
		}},
	}}
	m["permission"] = map[string]any{"bash": "allow", "edit": "allow", "webfetch": "deny",
		"external_directory": "allow"}
}

// seedPluginDeps makes dir look as if pkg@version were installed there:
// OpenCode (and Kilo, its fork) npm-installs its plugin package into each
// config dir (in the background, and waits for it when a plugin is
// loaded) unless node_modules exists and package-lock.json already lists
// every dependency. Seeded, nothing leaves the machine.
func seedPluginDeps(e *Env, dir, pkg, version string) {
	dep := fmt.Sprintf(`{"%s":"%s"}`, pkg, version)
	e.WriteFile(filepath.Join(dir, "package.json"), `{"dependencies":`+dep+"}\n")
	e.WriteFile(filepath.Join(dir, "package-lock.json"), `{"lockfileVersion":3,"packages":{"":{"dependencies":`+dep+"}}}\n")
	e.WriteFile(filepath.Join(dir, "node_modules", ".keep"), "")
}
