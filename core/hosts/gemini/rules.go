package gemini

import (
	"path/filepath"
	"strings"

	"github.com/gotk-dev/gotk/core/permission"
)

// Home is $GEMINI_CLI_HOME or the home directory.
func Home(env permission.Env) string {
	if d := env.Getenv("GEMINI_CLI_HOME"); d != "" {
		return d
	}
	return env.Home
}

// Dir is ~/.gemini, where GEMINI_CLI_HOME replaces the home folder
// (gemini-cli packages/core/src/utils/paths.ts homedir()).
func Dir(env permission.Env) string { return filepath.Join(Home(env), ".gemini") }

// ProjectSettings is a workspace's settings file.
func ProjectSettings(cwd string) string { return filepath.Join(cwd, ".gemini", "settings.json") }

// Load reads Gemini CLI's settings (tools.allowed, exclude,
// confirmationRequired), its policy files and extension policies, and adds
// its own hard-wired asks. The highest-priority rule wins.
func Load(r *permission.Rules, env permission.Env) {
	r.Match, r.Ranked, r.SourceText = match, true, true // rules see `FOO=1 git …` too
	// Gemini first tests its rules on the whole line, then on each command
	// (checkShellCommand): an unanchored commandRegex may match the line
	// where it matches no command.
	r.LineForms = func(line string) []string { return []string{line} }
	type doc struct {
		Tools struct {
			Allowed              []any `json:"allowed"`
			Core                 []any `json:"core"`
			Exclude              []any `json:"exclude"`
			ConfirmationRequired []any `json:"confirmationRequired"`
		} `json:"tools"`
		Security struct {
			FolderTrust struct {
				Enabled *bool `json:"enabled"`
			} `json:"folderTrust"`
		} `json:"security"`
		PolicyPaths      []string `json:"policyPaths"`
		AdminPolicyPaths []string `json:"adminPolicyPaths"`
	}
	gf := filepath.Join(Dir(env), "settings.json")
	var g doc
	haveGlobal := r.ReadJSON(env, gf, &g)
	trusted := env.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true" || !(g.Security.FolderTrust.Enabled != nil && *g.Security.FolderTrust.Enabled)
	type settings struct {
		path string
		d    doc
		ok   bool
	}
	files := []settings{{gf, g, haveGlobal}}
	if trusted && env.Cwd != "" {
		pf := ProjectSettings(env.Cwd)
		if pf != gf {
			var p doc
			ok := r.ReadJSON(env, pf, &p)
			files = append(files, settings{pf, p, ok})
		}
	}
	// System settings: only where policy files come from.
	sf := env.Getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
	if sf == "" {
		sf = filepath.Join(SystemDir(), "settings.json")
		if env.ManagedDir != "" {
			sf = filepath.Join(env.ManagedDir, "settings.json")
		}
	}
	var sys doc
	r.ReadJSON(env, sf, &sys)
	var policyPaths []string
	for _, f := range files {
		if !f.ok {
			continue
		}
		policyPaths = append(policyPaths, f.d.PolicyPaths...)
		for _, prefix := range shellToolNames {
			r.AddRanked(&r.Deny, f.d.Tools.Exclude, f.path, prefix, geminiExcludePriority)
			r.AddRanked(&r.Ask, f.d.Tools.ConfirmationRequired, f.path, prefix, geminiConfirmPriority)
			r.AddRanked(&r.Allow, f.d.Tools.Allowed, f.path, prefix, geminiAllowedPriority)
			// tools.core restricts Gemini to the tools it lists: each an
			// allow, and every other tool denied just below them (outside
			// plan mode), so `gotk git status` is refused where
			// run_shell_command(git) allows `git status`
			r.AddRanked(&r.Allow, f.d.Tools.Core, f.path, prefix, geminiCorePriority)
		}
		if len(f.d.Tools.Core) > 0 {
			r.AddRanked(&r.Deny, []any{"run_shell_command"}, f.path+" (tools.core: every tool it does not list)", "run_shell_command", geminiCorePriority-0.01)
		}
	}
	policyPaths = append(policyPaths, sys.PolicyPaths...)
	adminPaths := sys.AdminPolicyPaths
	// The session's flags: --allowed-tools (kept beside the settings'
	// tools.allowed they replace: an extra allow only keeps gotk from
	// rewriting), --policy and --admin-policy (in place of the settings').
	for _, prefix := range shellToolNames {
		r.AddRanked(&r.Allow, permission.Entries(env.Session.Allow), "--allowed-tools", prefix, geminiAllowedPriority)
	}
	if env.Session.Policies != nil {
		policyPaths = resolvePaths(env, env.Session.Policies)
	}
	if env.Session.AdminPolicies != nil {
		adminPaths = resolvePaths(env, env.Session.AdminPolicies)
	}
	loadGeminiPolicies(r, env, geminiPolicyPaths(env, trusted, policyPaths, adminPaths))
	r.Deny = append(r.Deny, geminiHeuristicRules(trusted)...)
}

// shellToolNames are the names a settings entry gives Gemini's shell tool
// (SHELL_TOOL_NAMES): run_shell_command(git log), ShellTool(git log).
var shellToolNames = []string{"run_shell_command", "ShellTool"}

// match implements Gemini CLI's run_shell_command(...) rules: a
// word-boundary prefix of the command.
func match(pattern, cmd string) bool {
	p := permission.Normalize(pattern)
	if p == "*" {
		return true
	}
	return p != "" && permission.WordPrefix(permission.Normalize(cmd), p)
}

// resolvePaths resolves policy paths from flags as Gemini CLI does
// (resolvePath: a leading ~ is the home folder), relative ones against the
// working directory Gemini was started in, taken to be the hook's.
func resolvePaths(env permission.Env, paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		switch {
		case p == "~" || strings.HasPrefix(p, "~/"):
			p = filepath.Join(Home(env), p[1:])
		case len(p) >= len("%userprofile%") && strings.EqualFold(p[:len("%userprofile%")], "%userprofile%"):
			p = filepath.Join(Home(env), p[len("%userprofile%"):])
		case !filepath.IsAbs(p) && env.Cwd != "":
			p = filepath.Join(env.Cwd, p)
		}
		out = append(out, filepath.Clean(p))
	}
	return out
}
