package hookio

import "github.com/gotk-dev/gotk/core/decision"

// Reason is the one-line reason a hook gives the agent for a rewrite. It
// never repeats the command (agents cap these strings).
func Reason(d decision.Decision) string {
	return "gotk: same command, compact output (rule " + d.Rule + ")"
}

// IsRewrite reports whether d rewrites the command.
func IsRewrite(d decision.Decision) bool {
	return d.Verdict == decision.AllowRewrite || d.Verdict == decision.AskRewrite
}
