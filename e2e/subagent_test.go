package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/e2e/fakemodel"
)

// Subagents. Claude Code's Agent tool starts a subagent: a conversation of
// its own, with its own tools and (from an agent definition's frontmatter)
// its own permission mode and tool rules. Its Bash calls go through the
// same PreToolUse hooks; the hook's stdin then carries agent_id and
// agent_type, and permission_mode is the subagent's. The fake model calls
// the Agent tool in the main conversation and answers the subagent's
// conversation (told apart by the prompt it was given) with Bash calls.
// Each case runs without gotk and with it: every call's outcome must be
// the same, and the one the case is about.

// subagentKey marks the prompt the main agent gives its subagent.
const subagentKey = "E2E-SUBAGENT-TASK"

type subagentCase struct {
	name string
	// agentType is the subagent_type the main agent asks for.
	agentType string
	setup     func(e *Env)
	calls     []permCall
}

// claudeRules writes permission rules into the user's settings.
func claudeRules(e *Env, rules map[string]any) {
	e.editJSON(filepath.Join(e.Home, ".claude", "settings.json"), func(m map[string]any) {
		m["permissions"] = rules
	})
}

// claudeAgentDef writes the project's agent definition name with the
// given frontmatter lines.
func claudeAgentDef(e *Env, name string, front ...string) {
	e.WriteFile(filepath.Join(e.Project, ".claude", "agents", name+".md"),
		"---\nname: "+name+"\ndescription: runs the e2e commands\n"+strings.Join(front, "\n")+"\n---\nRun the commands you are given.\n")
}

var subagentCases = []subagentCase{
	{
		name: "settings-rules", agentType: "general-purpose",
		setup: func(e *Env) {
			goModule(e)
			e.WriteFile(filepath.Join(e.Project, "Makefile"), "all:\n\t@echo built\n")
			claudeRules(e, map[string]any{
				"allow": []any{"Bash(make:*)"},
				"ask":   []any{"Bash(go build:*)"},
				"deny":  []any{"Bash(git diff:*)"},
			})
		},
		calls: []permCall{
			{"git status", "no rule, Claude's read-only set", Ran},
			{"git diff", "deny rule", Denied},
			{"go test ./...", "no rule, not read-only (-p cannot ask)", Refused},
			{"make", "allow rule", Ran},
			{"go build ./...", "ask rule (-p cannot ask)", Refused},
		},
	},
	{
		name: "agent-permission-mode-dontask", agentType: "e2e-runner",
		setup: func(e *Env) {
			claudeAgentDef(e, "e2e-runner", "permissionMode: dontAsk")
			e.WriteFile(filepath.Join(e.Project, "Makefile"), "all:\n\t@echo built\n")
			claudeRules(e, map[string]any{"allow": []any{"Bash(make:*)"}})
		},
		calls: []permCall{
			{"go test ./...", "the agent definition's permissionMode dontAsk", Denied},
			{"make", "allow rule", Ran},
			{"git status", "no rule, Claude's read-only set", Ran},
		},
	},
	{
		name: "agent-permission-mode-bypass", agentType: "e2e-runner",
		setup: func(e *Env) {
			claudeAgentDef(e, "e2e-runner", "permissionMode: bypassPermissions")
		},
		calls: []permCall{
			{"go test ./...", "the agent definition's permissionMode bypassPermissions, which Claude ignores: it would widen the session's mode (-p cannot ask)", Refused},
		},
	},
}

func TestClaudeSubagent(t *testing.T) {
	a := selectedAgent(t, "claude")
	for _, c := range subagentCases {
		t.Run(c.name, func(t *testing.T) {
			bin := RequireGotk(t, a)
			var cmds []string
			for _, k := range c.calls {
				cmds = append(cmds, k.cmd)
			}
			script := fakemodel.Script{
				Calls: []fakemodel.Call{{Tool: "Agent", Args: map[string]any{
					"description": "Run the e2e commands", "prompt": subagentKey + ": run the commands",
					"subagent_type": c.agentType, "run_in_background": false,
				}}},
				Subagents: map[string]fakemodel.Script{subagentKey: {Commands: cmds}},
			}
			run := func(withGotk bool) (*Env, []fakemodel.ToolResult) {
				e := NewEnv(t, a, script)
				if c.setup != nil {
					c.setup(e)
				}
				if withGotk {
					e.Vars["GOTK_HOOK_AUDIT"] = "1"
					e.InstallGotk(bin)
				}
				res := e.Run()
				res.Require(t, a.Name+" (main agent)", 1)
				return e, e.Model.SubagentResults(subagentKey)
			}
			_, raw := run(false)
			e, got := run(true)
			text := func(rs []fakemodel.ToolResult, i int) string {
				if i < len(rs) {
					return rs[i].Text
				}
				return ""
			}
			for i, k := range c.calls {
				ro, go_ := Classify(a.Name, text(raw, i)), Classify(a.Name, text(got, i))
				t.Logf("%-16s %-56s without gotk: %-24s with gotk: %s", k.cmd, k.why, ro, go_)
				t.Logf("  without: %q", tail(text(raw, i), 300))
				t.Logf("  with:    %q", tail(text(got, i), 300))
				if ro != k.want {
					t.Errorf("premise: the subagent's %q (%s) without gotk: %s, want %s", k.cmd, k.why, ro, k.want)
				}
				if go_ != ro {
					t.Errorf("PARITY: the subagent's %q (%s): %s without gotk, %s with gotk", k.cmd, k.why, ro, go_)
				} else if ro == Refused && !approvalWording.MatchString(text(got, i)) {
					t.Errorf("MESSAGE: the subagent's %q was refused with gotk, but %q does not say it needs approval", k.cmd, text(got, i))
				}
				if k.cmd == "git status" && go_ == Ran {
					requireCompactStatus(t, a.Name+" subagent", text(got, i))
				}
			}
			// The main agent ran no Bash call: every line of the audit log
			// is the hook deciding one of the subagent's.
			decided := map[string]bool{}
			for _, l := range e.AuditLog() {
				t.Logf("audit: %q", l)
				if len(l) > 3 {
					decided[l[3]] = true
				}
			}
			for _, k := range c.calls {
				if !decided[k.cmd] {
					t.Errorf("the hook never saw the subagent's %q (audit log above)", k.cmd)
				}
			}
		})
	}
}

// selectedAgent is the agent named name, or skips t when GOTK_E2E_AGENTS
// leaves it out.
func selectedAgent(t *testing.T, name string) *Agent {
	RequireEnabled(t)
	for _, a := range SelectedAgents() {
		if a.Name == name {
			return a
		}
	}
	t.Skipf("%s is not among %s", name, os.Getenv(EnvAgents))
	return nil
}
