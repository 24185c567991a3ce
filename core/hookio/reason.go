package hookio

import "github.com/gotk-dev/gotk/core/decision"

// Reason is the one-line reason a hook gives with an "allow" rewrite. It
// never repeats the command (agents cap these strings).
func Reason(d decision.Decision) string {
	return "gotk: same command, compact output (rule " + d.Rule + ")"
}

// AskReason is the reason given with an "ask" rewrite. It says first that
// approval is needed: Claude Code in -p mode hands this text to the model
// as the tool's result, which must not read like a run with no output.
func AskReason(d decision.Decision) string {
	return "gotk: this command needs approval before it runs (same command, compact output, rule " + d.Rule + ")"
}

// IsRewrite reports whether d rewrites the command.
func IsRewrite(d decision.Decision) bool {
	return d.Verdict == decision.AllowRewrite || d.Verdict == decision.AskRewrite
}
