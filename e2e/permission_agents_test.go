package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
)

// Permission parity (scenario 4) for Cline, Droid, Kilo, OpenCode and Crush: each
// case runs its calls without and with gotk; the outcome must match.

func init() {
	for agent, pats := range map[string][]struct {
		re *regexp.Regexp
		o  Outcome
	}{
		"cline": {
			{regexp.MustCompile(`(?i)blocked by a runtime hook`), Blocked},
			{regexp.MustCompile(`(?i)blocked in plan mode`), Denied},
			{regexp.MustCompile(`(?i)requires approval|was not executed|not approved|Tool execution denied`), Refused},
		},
		"droid": {
			{regexp.MustCompile(`(?i)blocked by hook|denied by hook`), Blocked},
			{regexp.MustCompile(`(?i)blocklist|is blocked|not allowed|Droid-Shield`), Denied},
		},
		"kilo": {
			{regexp.MustCompile(`(?i)specified a rule which prevents`), Denied},
			{regexp.MustCompile(`(?i)rejected permission|permission.*(rejected|denied)|requires approval`), Refused},
		},
		"opencode": {
			{regexp.MustCompile(`(?i)specified a rule which prevents`), Denied},
			{regexp.MustCompile(`(?i)rejected permission|permission.*(rejected|denied)|requires approval`), Refused},
		},
		"crush": {
			{regexp.MustCompile(`(?i)blocked by hook|denied by hook`), Blocked},
			{regexp.MustCompile(`(?i)not allowed|blocked|banned`), Denied},
			{regexp.MustCompile(`(?i)permission denied|rejected`), Refused},
		},
	} {
		outcomePatterns[agent] = append(outcomePatterns[agent], pats...)
	}
	permCases = append(permCases, agentPermCases...)
}

// risk is a Droid Execute call's riskLevel.
func risk(levels ...string) []map[string]any {
	out := make([]map[string]any, len(levels))
	for i, l := range levels {
		out[i] = map[string]any{"riskLevel": l}
	}
	return out
}

// droidSettings writes the run's ~/.factory/settings.json with the
// offline model config plus the user's lists.
func droidSettings(e *Env, lists map[string]any) {
	e.editJSON(filepath.Join(e.Home, ".factory", "settings.json"), func(m map[string]any) {
		for k, v := range lists {
			m[k] = v
		}
	})
}

var agentPermCases = []permCase{
	// Cline approves per tool: a rewrite changes no approval. Its plan mode
	// refuses file-changing commands, checking the command after the hook.
	{
		agent: "cline", name: "act-auto-approve",
		calls: []permCall{
			{"git status", "act mode, tools auto-approved", Ran},
			{"go version", "act mode, tools auto-approved", Ran},
		},
	},
	{
		agent: "cline", name: "plan-mode",
		setup: func(e *Env) { e.Args = append([]string{"--plan"}, e.Args...) },
		calls: []permCall{
			{"git status", "plan mode, read-only", Ran},
			{"git commit --allow-empty -m plan", "plan mode refuses file-changing commands", Denied},
			{"go vet ./...", "plan mode, read-only", Ran},
		},
	},
	{
		agent: "cline", name: "no-auto-approve",
		setup: func(e *Env) { e.Args = append([]string{"--auto-approve", "false"}, e.Args...) },
		calls: []permCall{
			{"git status", "--auto-approve false (nobody to approve)", Refused},
		},
	},

	// Droid: allow rules (built in: git status/diff/log…, ls, pwd) run
	// whatever the model's risk level; other commands run when the risk is
	// within the autonomy (droid exec: low); deny lists ask, block lists
	// refuse. A refusal ends `droid exec`: refused calls come last.
	{
		agent: "droid", name: "default-autonomy",
		setup: goModule,
		args:  risk("medium", "high", "low", "low", "medium"),
		calls: []permCall{
			{"git status", "built-in allow rule, risk medium", Ran},
			{"ls -la", "built-in allow rule, risk high", Ran},
			{"go vet ./...", "risk low within autonomy low", Ran},
			{"touch newfile", "risk low within autonomy low", Ran},
			{"go build ./...", "risk medium above autonomy low (exec cannot ask)", Refused},
		},
	},
	{
		agent: "droid", name: "auto-medium",
		setup: func(e *Env) { goModule(e); e.Args = append([]string{"exec", "--auto", "medium"}, e.Args[1:]...) },
		args:  risk("medium", "high"),
		calls: []permCall{
			{"go build ./...", "risk medium within --auto medium", Ran},
			{"go vet ./...", "risk high above --auto medium", Refused},
		},
	},
	{
		agent: "droid", name: "denylist-auto-high",
		setup: func(e *Env) {
			goModule(e)
			droidSettings(e, map[string]any{"commandDenylist": []any{"go vet"}})
			e.Args = append([]string{"exec", "--auto", "high"}, e.Args[1:]...)
		},
		args: risk("low", "low"),
		calls: []permCall{
			{"git status", "--auto high", Ran},
			{"go vet ./...", "commandDenylist go vet asks even at high", Refused},
		},
	},
	{
		agent: "droid", name: "denylist-newline",
		setup: func(e *Env) {
			droidSettings(e, map[string]any{"commandDenylist": []any{"chown -R"}})
			e.Args = append([]string{"exec", "--auto", "high"}, e.Args[1:]...)
		},
		args: risk("low", "low", "low"),
		calls: []permCall{
			{"git status", "--auto high", Ran},
			// Measured in 0.225.2: Droid matches each part of the line
			// alone, splitting at newlines too (gotk, matching the whole
			// line as well, leaves these to Droid).
			{"chown me f; ls -R", "commandDenylist chown -R, the -R of another command on the line", Ran},
			{"chown me f\nls -R", "commandDenylist chown -R, the -R on the next line", Ran},
		},
	},
	{
		agent: "droid", name: "blocklist",
		setup: func(e *Env) {
			droidSettings(e, map[string]any{"commandBlocklist": []any{"git log"}})
			e.Args = append([]string{"exec", "--auto", "high"}, e.Args[1:]...)
		},
		args: risk("low", "low"),
		calls: []permCall{
			{"git status", "--auto high", Ran},
			{"git log -3", "commandBlocklist git log", Denied},
		},
	},
	{
		agent: "droid", name: "custom-allowlist",
		setup: func(e *Env) {
			goModule(e)
			droidSettings(e, map[string]any{"commandAllowlist": []any{"go vet"}})
		},
		args: risk("high", "high"),
		calls: []permCall{
			{"go vet ./...", "the user's allowlist, risk high", Ran},
			// Measured in 0.225.2: Droid keeps its built-in allow rules
			// beside the user's list (gotk, unsure, leaves it alone).
			{"git status", "not on the user's allowlist, risk high", Ran},
		},
	},
	{
		agent: "droid", name: "skip-permissions",
		setup: func(e *Env) {
			goModule(e)
			e.Args = append([]string{"exec", "--skip-permissions-unsafe"}, e.Args[1:]...)
		},
		args: risk("high", "high"),
		calls: []permCall{
			{"go build ./...", "--skip-permissions-unsafe, risk high", Ran},
			{"git status", "--skip-permissions-unsafe", Ran},
		},
	},

	// Kilo checks its bash rules on the rewritten command.
	{
		agent: "kilo", name: "bash-allow",
		setup: goModule,
		calls: []permCall{
			{"git status", `permission.bash "allow"`, Ran},
			{"go vet ./...", `permission.bash "allow"`, Ran},
		},
	},
	{
		agent: "kilo", name: "deny-all-but-git-status",
		setup: func(e *Env) {
			e.editJSON(filepath.Join(e.Home, ".config", "kilo", "kilo.json"), func(m map[string]any) {
				m["permission"] = map[string]any{"bash": map[string]any{"*": "deny", "git status*": "allow"}}
			})
		},
		calls: []permCall{
			{"git status", `"git status*": "allow"`, Ran},
			{"go version", `"*": "deny"`, Denied},
			{"git log -1", `"*": "deny"`, Denied},
		},
	},
	{
		agent: "kilo", name: "plan-agent",
		setup: func(e *Env) {
			goModule(e)
			e.Args = append([]string{"run", "--agent", "plan"}, e.Args[1:]...)
		},
		calls: []permCall{
			{"git status", "the plan agent's read-only list", Ran},
			{"go build ./...", `the plan agent's "*": "deny" (after the user's bash "allow")`, Denied},
		},
	},

	// An agent-level deny: OpenCode and Kilo match the rewritten command, so
	// gotk must not rewrite what a rule of any agent names.
	{
		agent: "kilo", name: "agent-level-deny",
		setup: func(e *Env) {
			e.editJSON(filepath.Join(e.Home, ".config", "kilo", "kilo.json"), func(m map[string]any) {
				m["permission"] = map[string]any{"bash": "allow"}
				m["agent"] = map[string]any{"code": map[string]any{"permission": map[string]any{"bash": map[string]any{"git push *": "deny"}}}}
			})
		},
		calls: []permCall{
			{"git push origin main", `agent.code.permission "git push *": "deny"`, Denied},
			{"git status", `bash "allow"`, Ran},
		},
	},
	// In a linked git worktree Kilo also loads the main checkout's .kilo
	// folder (untracked there, so absent from the worktree).
	{
		agent: "kilo", name: "linked-worktree-main-rules",
		setup: func(e *Env) {
			e.editJSON(filepath.Join(e.Home, ".config", "kilo", "kilo.json"), func(m map[string]any) {
				m["permission"] = map[string]any{"bash": "allow"}
			})
			main := e.Project
			e.WriteFile(filepath.Join(main, ".kilo", "kilo.json"), `{"permission": {"bash": {"*": "allow", "git log*": "deny"}}}`)
			seedPluginDeps(e, filepath.Join(main, ".kilo"), "@kilocode/plugin", "7.7.9")
			wt := filepath.Join(filepath.Dir(main), "worktree")
			cmd := exec.Command("git", "worktree", "add", "-q", wt)
			cmd.Dir, cmd.Env = main, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + e.Home, "GIT_CONFIG_NOSYSTEM=1"}
			if out, err := cmd.CombinedOutput(); err != nil {
				e.T.Fatalf("git worktree add: %v\n%s", err, out)
			}
			e.Project = wt
		},
		calls: []permCall{
			{"git log -1", `the main checkout's .kilo/kilo.json "git log*": "deny"`, Denied},
			{"git status", `bash "allow"`, Ran},
		},
	},
	{
		agent: "opencode", name: "agent-level-deny",
		setup: func(e *Env) {
			e.editJSON(filepath.Join(e.Home, ".config", "opencode", "opencode.json"), func(m map[string]any) {
				m["agent"] = map[string]any{"build": map[string]any{"permission": map[string]any{"bash": map[string]any{"git push *": "deny"}}}}
			})
		},
		calls: []permCall{
			{"git push origin main", `agent.build.permission "git push *": "deny"`, Denied},
			{"git status", `the build agent's "*": "allow"`, Ran},
		},
	},
	// A project plugin whose tool.execute.before hook refuses a command by
	// its text (OpenCode's documented way to block tools): it runs after
	// gotk's global plugin and would see `gotk git log -1`.
	{
		agent: "opencode", name: "guard-plugin",
		setup: func(e *Env) {
			dir := filepath.Join(e.Project, ".opencode")
			e.WriteFile(filepath.Join(dir, "plugins", "guard.js"), `export default {
  id: "e2e-guard",
  server: async () => ({
    "tool.execute.before": async (input, output) => {
      if (input.tool === "bash" && /^git log/.test(output.args.command)) throw new Error("git log requires approval (guard plugin)")
    },
  }),
};
`)
			seedPluginDeps(e, dir, "@opencode-ai/plugin", "1.18.33")
		},
		calls: []permCall{
			{"git log -1", "a project plugin refuses ^git log", Refused},
			{"git status", `the build agent's "*": "allow"`, Ran},
		},
	},
	{
		agent: "opencode", name: "agent-markdown-deny",
		setup: func(e *Env) {
			e.WriteFile(filepath.Join(e.Home, ".config", "opencode", "agent", "build.md"),
				"---\ndescription: build\nmode: primary\npermission:\n  bash:\n    \"git push *\": deny\n---\nYou build.\n")
		},
		calls: []permCall{
			{"git push origin main", `agent/build.md permission "git push *": "deny"`, Denied},
		},
	},

	// Crush: `crush run` approves every permission of its session; its
	// shell refuses banned programs and argument forms.
	{
		agent: "crush", name: "run",
		setup: goModule,
		calls: []permCall{
			{"git status", "read-only list", Ran},
			{"go vet ./...", "crush run approves", Ran},
			{"go test -exec /bin/true ./...", "the shell's block list (go test -exec)", Denied},
		},
	},
}
