package copilot

import (
	"encoding/json"
	"runtime"
	"strings"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
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
	if !ok || (powershell && !plainWords(cmd)) {
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

// psAliases are PowerShell's built-in aliases among the programs gotk
// rewrites (and their neighbours): in PowerShell `ls` is Get-ChildItem, and
// `gotk ls` would run a different program.
var psAliases = map[string]bool{"ls": true, "dir": true, "cat": true, "type": true, "diff": true, "compare": true, "echo": true, "cd": true, "cp": true, "mv": true, "rm": true, "ps": true, "kill": true, "sleep": true, "sort": true, "tee": true, "curl": true, "wget": true, "man": true, "pwd": true, "where": true, "select": true, "gc": true, "gci": true, "gl": true, "h": true, "history": true, "r": true, "ni": true, "sc": true, "tree": true}

// plainWords reports whether a PowerShell command is one simple command of
// plain words that bash and PowerShell split the same way (letters,
// digits, spaces and . _ / : = + -), whose program is not a PowerShell
// alias: the only PowerShell commands gotk's bash parser may rewrite.
func plainWords(cmd string) bool {
	if f := strings.Fields(cmd); len(f) == 0 || psAliases[strings.ToLower(f[0])] {
		return false
	}
	for _, r := range cmd {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r == ' ' || r == '.' || r == '_' || r == '/' || r == ':' || r == '=' || r == '+' || r == '-':
		default:
			return false
		}
	}
	return true
}

// reasonFor is the text shown with the decision: for "ask", one that says
// approval is needed.
func reasonFor(pd string, dec decision.Decision) string {
	if pd == "ask" {
		return hookio.AskReason(dec)
	}
	return hookio.Reason(dec)
}
