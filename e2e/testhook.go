package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// The rewrite hook of the phase-1 scenarios is the test binary itself, run
// again as "<test binary> -e2e-testhook DIALECT LOGFILE" (TestMain calls
// MaybeRunTestHook first). It needs no jq or Python on the machine, and it
// logs every stdin it gets so a test can show what the agent really sent.
//
// It rewrites the command to `echo 'REWRITTEN:<original>'` in the agent's
// documented dialect (docs/e2e.md):
//
//	claude, codex  hookSpecificOutput.updatedInput + permissionDecision "allow"
//	droid, auggie  the same (Auggie reads updatedInput only: the whole input)
//	gemini         decision "allow" + hookSpecificOutput.tool_input
//	copilot        permissionDecision "allow" + modifiedArgs
//	cline          overrideInput, each of tool_call.input.commands rewritten
//	crush          decision "allow" + updated_input (a patch)
const testHookFlag = "-e2e-testhook"

// RewritePrefix marks a command that the phase-1 test hooks rewrote.
const RewritePrefix = "REWRITTEN:"

// Rewritten is what the test hooks and plugins turn cmd into.
func Rewritten(cmd string) string {
	return "echo " + shellQuote(RewritePrefix+cmd)
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// MaybeRunTestHook runs the test hook and exits when the process was started
// as one; otherwise it returns at once.
func MaybeRunTestHook() {
	if len(os.Args) < 4 || os.Args[1] != testHookFlag {
		return
	}
	in, _ := io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
	if f, err := os.OpenFile(os.Args[3], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
		line, _ := json.Marshal(map[string]any{"dialect": os.Args[2], "stdin": json.RawMessage(validJSON(in))})
		fmt.Fprintf(f, "%s\n", line)
		f.Close()
	}
	if out := testHookAnswer(os.Args[2], in); out != nil {
		os.Stdout.Write(out)
	}
	os.Exit(0)
}

func validJSON(b []byte) []byte {
	if json.Valid(b) {
		return b
	}
	q, _ := json.Marshal(string(b))
	return q
}

// testHookAnswer is the hook's pure core: the stdout for one stdin, nil for
// "no opinion".
func testHookAnswer(dialect string, in []byte) []byte {
	var ev map[string]any
	if json.Unmarshal(in, &ev) != nil {
		return nil
	}
	var out any
	switch dialect {
	case "claude", "codex", "droid", "auggie":
		args, _ := ev["tool_input"].(map[string]any)
		cmd, ok := args["command"].(string)
		if !ok {
			return nil
		}
		args["command"] = Rewritten(cmd)
		out = map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName":            "PreToolUse",
			"permissionDecision":       "allow",
			"permissionDecisionReason": "e2e test hook rewrite",
			"updatedInput":             args,
		}}
	case "gemini":
		args, _ := ev["tool_input"].(map[string]any)
		cmd, ok := args["command"].(string)
		if !ok {
			return nil
		}
		args["command"] = Rewritten(cmd)
		out = map[string]any{"decision": "allow", "hookSpecificOutput": map[string]any{
			"hookEventName": "BeforeTool",
			"tool_input":    args,
		}}
	case "copilot":
		// toolArgs arrives as an object in 1.0.102; older builds sent a JSON string.
		var args map[string]any
		switch v := ev["toolArgs"].(type) {
		case map[string]any:
			args = v
		case string:
			_ = json.Unmarshal([]byte(v), &args)
		}
		cmd, ok := args["command"].(string)
		if !ok {
			return nil
		}
		args["command"] = Rewritten(cmd)
		out = map[string]any{
			"permissionDecision":       "allow",
			"permissionDecisionReason": "e2e test hook rewrite",
			"modifiedArgs":             args,
		}
	case "crush":
		// Crush's own form: a decision and a shallow-merge patch.
		args, _ := ev["tool_input"].(map[string]any)
		cmd, ok := args["command"].(string)
		if !ok {
			return nil
		}
		out = map[string]any{"decision": "allow", "updated_input": map[string]any{"command": Rewritten(cmd)}}
	case "cline":
		// tool_call.input.commands is a list; overrideInput replaces the
		// whole input.
		if ev["hookName"] != "tool_call" {
			return nil
		}
		call, _ := ev["tool_call"].(map[string]any)
		args, _ := call["input"].(map[string]any)
		list, ok := args["commands"].([]any)
		if !ok {
			return nil
		}
		for i, c := range list {
			if s, ok := c.(string); ok {
				list[i] = Rewritten(s)
			}
		}
		out = map[string]any{"overrideInput": args}
	default:
		return nil
	}
	b, _ := json.Marshal(out)
	return b
}

// OpenCodeRewritePlugin is the phase-1 OpenCode plugin: it mutates
// output.args.command in place (a new output.args object would be ignored).
const OpenCodeRewritePlugin = `// e2e rewrite plugin (gotk e2e phase 1)
const quote = (s) => "'" + s.replaceAll("'", "'\\''") + "'";
export default {
  id: "gotk-e2e-rewrite",
  server: async () => ({
    "tool.execute.before": async (input, output) => {
      if (input.tool === "bash" && typeof output.args?.command === "string") {
        output.args.command = "echo " + quote("REWRITTEN:" + output.args.command);
      }
    },
  }),
};
`

// PiRewriteExtension is the phase-1 Pi extension: it mutates
// event.input.command in place; the return value only controls blocking.
const PiRewriteExtension = `// e2e rewrite extension (gotk e2e phase 1)
const quote = (s: string) => "'" + s.replaceAll("'", "'\\''") + "'";
export default function (pi: any) {
  pi.on("tool_call", async (event: any) => {
    if (event.toolName === "bash" && typeof event.input?.command === "string") {
      event.input.command = "echo " + quote("REWRITTEN:" + event.input.command);
    }
  });
}
`
