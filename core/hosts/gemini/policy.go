package gemini

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/gotk-dev/gotk/core/jsontree"
	"github.com/gotk-dev/gotk/core/permission"
)

// Gemini CLI's policy engine (google-gemini/gemini-cli@5411f11,
// packages/core/src/policy/{toml-loader,config,utils,policy-engine}.ts and
// docs/reference/policy-engine.md) reads [[rule]] tables from *.toml files:
//
//	[[rule]]
//	toolName = "run_shell_command"   # or a list; "*" is every tool
//	commandPrefix = "git push"       # or a list; or commandRegex, or argsPattern
//	decision = "deny"                # allow | deny | ask_user
//	priority = 100                   # 0..999
//
// The highest-priority matching rule wins; a file's priority becomes
// tier + priority/1000 (workspace 3, user 4, admin 5). Settings rules sit in
// the user tier: tools.exclude 4.4, tools.confirmationRequired 4.35,
// tools.allowed 4.3, tools.core 4.25 with every other tool denied at
// 4.24 (config.ts).
const (
	geminiExtensionTier = 2
	geminiWorkspaceTier = 3
	geminiUserTier      = 4
	geminiAdminTier     = 5

	geminiExcludePriority = geminiUserTier + 0.4
	geminiConfirmPriority = geminiUserTier + 0.35
	geminiAllowedPriority = geminiUserTier + 0.3
	geminiCorePriority    = geminiUserTier + 0.25
)

// SystemDir is where Gemini CLI keeps its system-wide (admin) files.
func SystemDir() string {
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/GeminiCli"
	case "windows":
		return `C:\ProgramData\gemini-cli`
	}
	return "/etc/gemini-cli"
}

// geminiPolicyDir is one directory (or .toml file) of policy files.
type geminiPolicyDir struct {
	path string
	tier int
	// allow: this source's allow rules may count. They do only where gotk
	// is sure Gemini loads the source: the user directory when no
	// policyPaths setting replaces it. Admin and workspace allow rules are
	// left out, which can only make gotk more careful.
	allow bool
}

// geminiPolicyPaths are the policy sources that hold shell rules: admin
// (the system directory, its settings' adminPolicyPaths, and the directory
// of GEMINI_CLI_SYSTEM_SETTINGS_PATH, which Gemini does not read but is
// read here for deny and ask rules only), user (~/.gemini/policies, and
// policyPaths from settings) and, in a trusted workspace, the workspace's
// .gemini/policies — which Gemini CLI currently disables, but whose deny and
// ask rules are kept: extra deny rules only make gotk step aside.
func geminiPolicyPaths(env permission.Env, trusted bool, policyPaths, adminPaths []string) []geminiPolicyDir {
	sys := SystemDir()
	if env.ManagedDir != "" {
		sys = env.ManagedDir
	}
	dirs := []geminiPolicyDir{{filepath.Join(sys, "policies"), geminiAdminTier, false}}
	if p := env.Getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"); p != "" {
		dirs = append(dirs, geminiPolicyDir{filepath.Join(filepath.Dir(p), "policies"), geminiAdminTier, false})
	}
	for _, p := range adminPaths {
		dirs = append(dirs, geminiPolicyDir{p, geminiAdminTier, false})
	}
	user := filepath.Join(Dir(env), "policies")
	dirs = append(dirs, geminiPolicyDir{user, geminiUserTier, len(policyPaths) == 0})
	for _, p := range policyPaths {
		dirs = append(dirs, geminiPolicyDir{p, geminiUserTier, false})
	}
	// Extensions' policies (~/.gemini/extensions/NAME/policies), tier 2:
	// deny and ask rules; gotk does not know which extensions are enabled.
	if m, err := filepath.Glob(filepath.Join(Dir(env), "extensions", "*", "policies")); err == nil {
		sort.Strings(m)
		for _, p := range m {
			dirs = append(dirs, geminiPolicyDir{p, geminiExtensionTier, false})
		}
	}
	if trusted && env.Cwd != "" {
		ws := filepath.Join(env.Cwd, ".gemini", "policies")
		if ws != user {
			dirs = append(dirs, geminiPolicyDir{ws, geminiWorkspaceTier, false})
		}
	}
	return dirs
}

// loadGeminiPolicies adds the shell rules of every policy file. A file that
// cannot be read or parsed makes the rules Unreadable.
func loadGeminiPolicies(r *permission.Rules, env permission.Env, dirs []geminiPolicyDir) {
	seen := map[string]bool{}
	for _, d := range dirs {
		for _, f := range policyFiles(r, d) {
			if seen[f] {
				continue
			}
			seen[f] = true
			data, err := env.Read(f)
			if err != nil {
				if os.IsNotExist(err) {
					continue
				}
				r.MarkUnreadable("gotk: %s: %v", f, err)
				continue
			}
			addPolicy(r, f, data, d)
		}
	}
}

// policyFiles lists the .toml files of a directory, sorted, or the path
// itself when it names a .toml file. As Gemini (toml-loader.ts
// readPolicyFiles), entries may be symlinks, except that a workspace
// policy's link may not lead out of its directory (Gemini skips those).
// What a link leads to is checked when it is read: anything but a regular
// file makes the rules unreadable.
func policyFiles(r *permission.Rules, d geminiPolicyDir) []string {
	path := d.path
	st, err := os.Stat(path)
	if err != nil {
		if !os.IsNotExist(err) {
			r.MarkUnreadable("gotk: %s: %v", path, err)
		}
		return nil
	}
	if !st.IsDir() {
		if st.Mode().IsRegular() && strings.HasSuffix(path, ".toml") {
			return []string{path}
		}
		if !st.Mode().IsRegular() {
			r.Warnf("gotk: %s: neither a directory nor a regular file; skipped, as Gemini does", path)
		}
		return nil
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		r.MarkUnreadable("gotk: %s: %v", path, err)
		return nil
	}
	var out []string
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		if !e.Type().IsRegular() && e.Type()&fs.ModeSymlink == 0 {
			r.Warnf("gotk: %s: not a regular file; skipped, as Gemini does", filepath.Join(path, e.Name()))
			continue
		}
		f := filepath.Join(path, e.Name())
		if e.Type()&fs.ModeSymlink != 0 && d.tier == geminiWorkspaceTier && !within(f, path) {
			continue
		}
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// within reports whether the link f resolves inside dir (both resolved);
// a link that cannot be resolved counts as inside, to be read and fail.
func within(f, dir string) bool {
	rf, err1 := filepath.EvalSymlinks(f)
	rd, err2 := filepath.EvalSymlinks(dir)
	if err1 != nil || err2 != nil {
		return true
	}
	rel, err := filepath.Rel(rd, rf)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// addPolicy adds one policy file's rules for run_shell_command.
func addPolicy(r *permission.Rules, file string, data []byte, d geminiPolicyDir) {
	var doc struct {
		Rule []map[string]any `toml:"rule"`
	}
	if _, err := toml.Decode(string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))), &doc); err != nil {
		r.MarkUnreadable("gotk: %s: %s", file, permission.OneLine(err.Error()))
		return
	}
	r.Sources = append(r.Sources, file)
	// Gemini drops a whole file when one rule fails its schema; then none
	// of the file's allow rules may count (its deny rules still do here).
	valid := true
	for _, raw := range doc.Rule {
		if _, _, err := geminiRuleHead(raw); err != nil {
			valid = false
			r.Warnf("gotk: %s: %v; Gemini ignores this file, gotk counts only its deny and ask rules", file, err)
			break
		}
	}
	for i, raw := range doc.Rule {
		names, v, err := geminiRuleHead(raw)
		if err != nil || !geminiShellRule(raw, names) {
			continue
		}
		prio := float64(d.tier) + toFloat(raw["priority"])/1000
		rawText := fmt.Sprintf("[[rule]] #%d %s", i+1, geminiDescribe(raw))
		if v == permission.Allow {
			// An allow rule must be sure to apply: a trusted source, the
			// shell tool by name, and no condition gotk cannot see.
			if !valid || !d.allow || !slices.Contains(names, "run_shell_command") || geminiConditional(raw) {
				continue
			}
		}
		for _, rule := range matchers(r, file, raw, v) {
			rule.Raw, rule.Source, rule.Priority = rawText, file, prio
			switch v {
			case permission.Deny:
				r.Deny = append(r.Deny, rule)
			case permission.Ask:
				r.Ask = append(r.Ask, rule)
			case permission.Allow:
				r.Allow = append(r.Allow, rule)
			}
		}
	}
}

// geminiRuleHead checks the fields Gemini's schema requires and returns the
// tool names and the verdict.
func geminiRuleHead(raw map[string]any) ([]string, permission.Verdict, error) {
	names, ok := stringOrList(raw["toolName"])
	if !ok || len(names) == 0 {
		return nil, 0, fmt.Errorf("a rule has no valid toolName")
	}
	var v permission.Verdict
	switch raw["decision"] {
	case "deny":
		v = permission.Deny
	case "ask_user":
		v = permission.Ask
	case "allow":
		v = permission.Allow
	default:
		return nil, 0, fmt.Errorf("a rule has decision %v (want allow, deny or ask_user)", raw["decision"])
	}
	p, ok := raw["priority"].(int64)
	if !ok || p < 0 || p > 999 {
		return nil, 0, fmt.Errorf("a rule has priority %v (want an integer 0..999)", raw["priority"])
	}
	return names, v, nil
}

// geminiShellRule: the rule can apply to run_shell_command. permission.Rules naming
// an MCP server never do.
func geminiShellRule(raw map[string]any, names []string) bool {
	if _, ok := raw["mcpName"]; ok {
		return false
	}
	for _, n := range names {
		if n == "run_shell_command" || n == "ShellTool" || n == "*" {
			return true
		}
	}
	return false
}

// geminiConditional: the rule depends on something a hook does not know
// (approval mode, interactivity, calling subagent, tool annotations).
func geminiConditional(raw map[string]any) bool {
	for _, k := range []string{"modes", "interactive", "subagent", "toolAnnotations"} {
		if _, ok := raw[k]; ok {
			return true
		}
	}
	return false
}

// matchers turns a rule's argument conditions into rules, as
// buildArgsPatterns (utils.ts) does: commandPrefix first, then
// commandRegex, then argsPattern; none means every command.
func matchers(r *permission.Rules, file string, raw map[string]any, v permission.Verdict) []permission.Rule {
	if prefixes, ok := stringOrList(raw["commandPrefix"]); ok && len(prefixes) > 0 {
		var out []permission.Rule
		for _, p := range prefixes {
			re := regexp.MustCompile(geminiPrefixRegexp(p))
			exact := func(cmd string) bool { return re.MatchString(geminiArgs(cmd)) }
			if v == permission.Allow {
				out = append(out, permission.Rule{Pattern: p, Test: exact})
				continue
			}
			// deny and ask: Gemini's exact test, or a word prefix of the
			// normalized command (the safe side of any spacing difference).
			pp := p
			out = append(out, permission.Rule{Pattern: p, Test: func(cmd string) bool { return exact(cmd) || match(pp, cmd) }})
		}
		return out
	}
	var pattern string
	switch {
	case isString(raw["commandRegex"]):
		pattern = `"command":"` + raw["commandRegex"].(string)
	case isString(raw["argsPattern"]):
		pattern = raw["argsPattern"].(string)
	default:
		return []permission.Rule{{Pattern: "*"}}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		if v == permission.Allow {
			r.Warnf("gotk: %s: regular expression %q: %v; the allow rule is ignored", file, pattern, permission.OneLine(err.Error()))
			return nil
		}
		r.Warnf("gotk: %s: regular expression %q: %v; the %s rule is taken to match every command", file, pattern, permission.OneLine(err.Error()), v)
		return []permission.Rule{{Pattern: "*"}}
	}
	return []permission.Rule{{Pattern: pattern, Test: func(cmd string) bool {
		for _, a := range geminiArgsForms(cmd) {
			if re.MatchString(a) {
				return true
			}
		}
		return false
	}}}
}

// geminiArgsForms are the serialisations of a shell call's arguments
// Gemini may test an argsPattern against (policy-engine.ts check:
// stableStringify of all the call's arguments, keys sorted, each top-level
// pair between NUL bytes), over the arguments a hook does not see:
// description, dir_path, is_background absent or present. A rule counts as
// matching when any form matches: for deny and ask that is the careful
// side; for Gemini's allow rules too, as gotk does not rewrite a command
// one of them allows.
func geminiArgsForms(cmd string) []string {
	c := jsString(cmd)
	out := []string{geminiArgs(cmd)}
	for _, desc := range []string{"", `""`, c} {
		for _, dir := range []string{"", `""`, `"."`} {
			for _, bg := range []string{"", "false", "true"} {
				pairs := []string{"\x00\"command\":" + c + "\x00"}
				if desc != "" {
					pairs = append(pairs, "\x00\"description\":"+desc+"\x00")
				}
				if dir != "" {
					pairs = append(pairs, "\x00\"dir_path\":"+dir+"\x00")
				}
				if bg != "" {
					pairs = append(pairs, "\x00\"is_background\":"+bg+"\x00")
				}
				out = append(out, "{"+strings.Join(pairs, ",")+"}")
			}
		}
	}
	return out
}

// geminiPrefixRegexp is buildArgsPatterns' regular expression for one
// commandPrefix: `"command":"<prefix>` followed by whitespace, a closing
// quote, or an escaped quote.
func geminiPrefixRegexp(prefix string) string {
	enc := jsString(prefix)
	return regexp.QuoteMeta(`"command":`+enc[:len(enc)-1]) + `(?:[\s"]|\\")`
}

// geminiArgs is the stable JSON of a shell call's arguments, as Gemini
// tests rules against it for one command.
func geminiArgs(cmd string) string { return `{"command":` + jsString(cmd) + `}` }

// jsString encodes s as JavaScript's JSON.stringify does (no HTML escapes).
func jsString(s string) string { return string(jsontree.AppendString(nil, s)) }

func geminiDescribe(raw map[string]any) string {
	var parts []string
	for _, k := range []string{"toolName", "commandPrefix", "commandRegex", "argsPattern", "decision", "priority"} {
		if v, ok := raw[k]; ok {
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	}
	return strings.Join(parts, " ")
}

// stringOrList accepts a string or a list of strings.
func stringOrList(v any) ([]string, bool) {
	switch x := v.(type) {
	case string:
		return []string{x}, true
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

func isString(v any) bool { _, ok := v.(string); return ok }

func toFloat(v any) float64 {
	if i, ok := v.(int64); ok {
		return float64(i)
	}
	return 0
}
