package e2e

import "path/filepath"

// openClawAgent is OpenClaw (npm openclaw, with the registry's Node 24 from
// its own lock, openclaw/package-lock.json): an openai-completions provider
// in ~/.openclaw/openclaw.json, `openclaw agent --local --agent main
// --message PROMPT --json` (one embedded turn), the shell tool exec, and
// plugins as folders in ~/.openclaw/extensions/ (an openclaw.plugin.json
// manifest and index.*), which OpenClaw discovers itself and loads into
// the run once plugins.entries.<id>.enabled (what `openclaw plugins enable`
// writes). Measured with 2026.9.6: `openclaw agent exec` never initialises
// its plugin hook runner, and --local without the entry loads only bundled
// plugins; --local with it runs the before_tool_call handler. Opt-in
// (GOTK_E2E_AGENTS=openclaw): one run takes minutes on a busy machine.
var openClawAgent = &Agent{
	Name: "openclaw", Bin: "openclaw", Package: "openclaw", lock: "openclaw",
	setup: func(e *Env) {
		e.editJSON(filepath.Join(e.Home, ".openclaw", "openclaw.json"), func(m map[string]any) {
			// The phase-1 plugin's and gotk's, as `openclaw plugins enable`
			// writes them.
			m["plugins"] = map[string]any{"entries": map[string]any{
				"e2e": map[string]any{"enabled": true}, "gotk": map[string]any{"enabled": true}}}
			// The run's workspace (where exec runs) is the project, with
			// none of OpenClaw's bootstrap files written into it.
			m["agents"] = map[string]any{"defaults": map[string]any{"model": map[string]any{"primary": "e2efake/fake-model"},
				"workspace": e.Project, "skipBootstrap": true}}
			m["models"] = map[string]any{"mode": "merge", "providers": map[string]any{"e2efake": map[string]any{
				"baseUrl": e.Model.URL() + "/v1", "apiKey": "sk-e2e-dummy", "api": "openai-completions",
				"models": []any{map[string]any{
					"id": "fake-model", "name": "fake-model", "reasoning": false, "input": []string{"text"},
					"contextWindow": 128000, "maxTokens": 4096,
					"cost": map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
				}},
			}}}
		})
		e.Args = []string{"agent", "--local", "--agent", "main", "--message", Prompt, "--json"}
	},
	addPlugin: func(e *Env, source string) {
		dir := filepath.Join(e.Home, ".openclaw", "extensions", "e2e")
		e.WriteFile(filepath.Join(dir, "openclaw.plugin.json"), `{"id":"e2e","name":"e2e","activation":{"onStartup":true,"onCapabilities":["hook"]},"configSchema":{"type":"object","additionalProperties":false}}`+"\n")
		e.WriteFile(filepath.Join(dir, "index.mjs"), source)
	},
	rewritePlugin: OpenClawRewritePlugin,
	optIn:         true,
}

// OpenClawRewritePlugin is the phase-1 OpenClaw plugin: its
// before_tool_call handler returns the new command as params, which
// OpenClaw merges into the exec call's own.
const OpenClawRewritePlugin = `// e2e rewrite plugin (gotk e2e phase 1)
const quote = (s) => "'" + s.replaceAll("'", "'\\''") + "'";
export default {
  id: "e2e",
  name: "e2e",
  description: "gotk e2e phase 1",
  register(api) {
    api.on("before_tool_call", async (event) => {
      const command = event?.params?.command;
      if (typeof command !== "string") return undefined;
      return { params: { command: "echo " + quote("REWRITTEN:" + command) } };
    }, { matcher: ["exec"] });
  },
};
`
