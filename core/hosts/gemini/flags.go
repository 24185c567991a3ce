package gemini

import (
	"strings"

	"github.com/gotk-dev/gotk/core/host"
)

// geminiFlags maps the Gemini CLI flags gotk reads to a canonical name
// (yargs also takes the camel-case spelling).
var geminiFlags = map[string]string{
	"--allowed-tools": "allow", "--allowedTools": "allow",
	"--policy":       "policy",
	"--admin-policy": "admin", "--adminPolicy": "admin",
}

// parseFlags reads the flags that change what Gemini CLI runs without
// asking (packages/cli/src/config/config.ts): --allowed-tools adds allow
// rules (`run_shell_command(git log)`, in place of the settings'
// tools.allowed); --policy and --admin-policy load policy files or
// directories in place of the settings' policyPaths and adminPolicyPaths
// (given at all, even empty, they replace them: Policies is then not
// nil). Each takes one value a time, several comma-separated.
func parseFlags(argv []string) host.Session {
	var s host.Session
	v := host.FlagValues(argv, geminiFlags, nil)
	s.Rules.Allow = commaSplit(v["allow"])
	if vals, ok := v["policy"]; ok {
		s.Rules.Policies = append([]string{}, commaSplit(vals)...)
	}
	if vals, ok := v["admin"]; ok {
		s.Rules.AdminPolicies = append([]string{}, commaSplit(vals)...)
	}
	return s
}

// commaSplit splits each value on commas and trims the parts, as Gemini's
// coerceCommaSeparated does; empty parts go.
func commaSplit(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}
