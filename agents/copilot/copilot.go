package copilot

import (
	"encoding/json"
	"runtime"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
	copilothost "github.com/gotk-dev/gotk/core/hosts/copilot"
)

// input holds both payload casings: VS Code and PascalCase send tool_name
// and tool_input; Copilot CLI and JetBrains send toolName and toolArgs (a
// JSON string, or an object in some builds).
type input struct {
	ToolName  *string         `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	ToolNameC *string         `json:"toolName"`
	ToolArgs  json.RawMessage `json:"toolArgs"`
	Cwd       string          `json:"cwd"`
}

// dialect is one host's way of answering a rewrite.
type dialect int

const (
	vscode    dialect = iota // hookSpecificOutput.updatedInput
	cli                      // modifiedArgs
	jetbrains                // deny with a suggestion: it cannot rewrite
)

// terminalTools are the tool_name values of a shell command in the
// PascalCase payload: VS Code's run_in_terminal (runTerminalCommand in its
// docs), and Copilot CLI's bash/powershell remapped to Bash.
var terminalTools = map[string]bool{"run_in_terminal": true, "runTerminalCommand": true, "Bash": true, "bash": true}

// Handle answers one payload, or returns nil (no opinion):
//
//	VS Code / PascalCase  {"hookSpecificOutput":{"hookEventName":"PreToolUse",
//	                      "permissionDecision":"allow"|"ask","permissionDecisionReason":…,
//	                      "updatedInput":{…}}}
//	Copilot CLI           {"permissionDecision":"allow","permissionDecisionReason":…,
//	                      "modifiedArgs":{…}} — only for an allow: core reads
//	                      the copilot process's flags (core/host) and allows
//	                      only in a session started with --allow-all-tools and
//	                      no --deny-tool. Copilot checks its permission flags on
//	                      the modified arguments, so anywhere else a rewrite
//	                      would dodge a deny or lose an allow
//	JetBrains             {"permissionDecision":"deny","permissionDecisionReason":
//	                      "… re-run as `gotk …`"}: the agent re-issues the command
//
// The input object comes back whole, key order kept, command replaced.
// Copilot's permission rules live in CLI flags, which core reads from the
// copilot process; outside such a session the others get Ask rewrites.
func Handle(in []byte, d decision.Decider) []byte {
	var p input
	if json.Unmarshal(in, &p) != nil {
		return nil
	}
	var (
		dia        dialect
		args       []byte
		powershell bool
	)
	switch {
	case p.ToolName != nil:
		if !terminalTools[*p.ToolName] {
			return nil
		}
		// VS Code's terminal on Windows is PowerShell.
		dia, args, powershell = vscode, p.ToolInput, *p.ToolName == "run_in_terminal" && runtime.GOOS == "windows"
	case p.ToolNameC != nil:
		switch *p.ToolNameC {
		case "bash", "powershell":
			dia, powershell = cli, *p.ToolNameC == "powershell"
		case "run_in_terminal":
			dia = jetbrains
		default:
			return nil
		}
		args = unstring(p.ToolArgs)
	default:
		return nil
	}
	fields, cmd, ok := hookio.ShellInput(args, "command")
	if !ok || (powershell && !copilothost.PowerShellPlain(cmd)) {
		return nil
	}
	dec := d.Decide(decision.Request{Command: cmd, Cwd: p.Cwd})
	if !hookio.IsRewrite(dec) {
		return nil
	}
	updated := fields.With("command", dec.Command)
	switch dia {
	case vscode:
		pd := "ask"
		if dec.Verdict == decision.AllowRewrite {
			pd = "allow"
		}
		return hookio.Object("hookSpecificOutput", hookio.Fields{
			{Key: "hookEventName", Value: hookio.Raw("PreToolUse")},
			{Key: "permissionDecision", Value: hookio.Raw(pd)},
			{Key: "permissionDecisionReason", Value: hookio.Raw(reasonFor(pd, dec))},
			{Key: "updatedInput", Value: hookio.Raw(updated)},
		})
	case cli:
		if dec.Verdict != decision.AllowRewrite {
			return nil // Copilot would check its rules on the rewrite
		}
		return hookio.Object("permissionDecision", "allow", "permissionDecisionReason", hookio.Reason(dec), "modifiedArgs", updated)
	}
	return hookio.Object("permissionDecision", "deny",
		"permissionDecisionReason", "gotk: the same command with compact output is available; re-run it as `"+dec.Command+"`")
}

// unstring returns the object toolArgs holds: itself, or the JSON text of
// a string.
func unstring(raw json.RawMessage) []byte {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []byte(s)
	}
	return raw
}

// reasonFor is the text shown with the decision: for "ask", one that says
// approval is needed.
func reasonFor(pd string, dec decision.Decision) string {
	if pd == "ask" {
		return hookio.AskReason(dec)
	}
	return hookio.Reason(dec)
}
