package agentconf

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// agents.go: the table of agents — where each keeps its configuration, what
// gotk puts there, and the one or two lines that differ between them.
// Sources for every path and entry shape: docs/agents.md.

// Scope is where an install goes: the user's configuration or the project
// in the current directory.
type Scope string

// The two scopes.
const (
	Global  Scope = "global"
	Project Scope = "project"
)

// The files of module plugins that parts name (Part.Asset); gotk-install
// fills them in.
const (
	AssetOpenCode       = "opencode/gotk.ts"
	AssetPi             = "pi/gotk.ts"
	AssetHermesManifest = "hermes/gotk/plugin.yaml"
	AssetHermesPlugin   = "hermes/gotk/__init__.py"
	AssetRules          = "rules/gotk.md" // its body, without the registry's markers
)

// Agent is one coding agent gotk knows.
type Agent struct {
	Name   string
	Title  string  // its product name, for messages
	Scopes []Scope // supported; the first is the default
	// Dirs are folders (or files) whose presence, with something in them
	// gotk-install did not make, means the agent is used on this machine;
	// so does one of Programs on PATH.
	Dirs     func(e *Env) []string
	Programs []string
	// Parts lists what gotk puts in the agent's files. Reading an
	// installation needs no Bins.
	Parts func(e *Env, s Scope, b Bins) []Part
	// HookBin is the agent's hook binary, "" for plugin and rules agents.
	HookBin string
	// CommandRegex: the hook binary prints its entry's commandRegex when
	// run with --command-regex (gotk-install asks it; Bins.CommandRegex).
	CommandRegex bool
	// Notes are said after an install.
	Notes func(e *Env, s Scope) []string
	// Inactive, when set, says why the agent would not run gotk's parts
	// although they are installed (OpenClaw runs a plugin only once its
	// config enables it): `gotk verify` fails on each.
	Inactive func(e *Env, s Scope) []Problem
}

// Problem is one reason an installation does not work, and what fixes it.
type Problem struct {
	Msg string // what is wrong; one line
	Fix string // a command line or words
}

// Bins are the absolute paths gotk's entries name, quoted for a shell
// where needed.
type Bins struct {
	Hook string // the agent's hook binary
	Gotk string // the runner
	// CommandRegex is what the hook binary printed for --command-regex
	// (agents with Agent.CommandRegex); "" leaves the member out.
	CommandRegex string
}

// Part is one thing gotk puts in one file.
type Part struct {
	Kind    string // one of the Kind constants
	File    string // absolute path as the agent names it
	Hook    *HookSpec
	Markers Markers
	Body    string // a block's or a file's text (when Asset is "")
	IsTOML  bool   // the block is TOML: the result must parse
	Inline  string // the block's entry as a TOML inline table (Vibe's hook)
	Flag    string // toml-flag key
	Doc     Obj    // a whole JSON file of gotk's
	Asset   string // a whole file (or a block's text) from module plugins
	Prefix  string // text before the asset (front matter)
	What    string // what it is, for messages
	Rules   bool   // a rules text beside a hook: --no-rules leaves it out
	Legacy  bool   // where an older layout put it: only uninstall looks
	// Syntax is how the agent itself reads a JSON file (SyntaxJSON,
	// SyntaxJSONComments; "" when not known): gotk-install reads every form,
	// the agent may skip a file it cannot parse.
	Syntax string
	// Script, for a hook script the agent executes (Body is Script of the
	// hook command): written executable; a file that is not Script of some
	// command (ScriptHook) is the user's and never replaced.
	Script func(hook string) string
	// ScriptWas are Script's earlier forms: a file of one of them is
	// gotk's too, brought up to date by an install.
	ScriptWas []func(hook string) string
}

// Describe names a part's entry for the manifest and messages.
func (p *Part) Describe() string {
	if p.Kind == KindJSONHook {
		return fmt.Sprintf("%s entry (%s)", p.Hook.EventPath(), p.Hook.Bin)
	}
	return p.What
}

// TOMLString quotes s as a TOML basic string.
func TOMLString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`)
	return `"` + r.Replace(s) + `"`
}

// ScriptHook returns the command of the last `exec` line of a hook script
// gotk-install writes, or "".
func ScriptHook(b []byte) string {
	cmd := ""
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimRight(l, "\r"), "exec "); ok {
			cmd = strings.TrimSpace(rest)
		}
	}
	return cmd
}

// Supports reports whether the agent can be installed in scope s.
func (a *Agent) Supports(s Scope) bool {
	for _, x := range a.Scopes {
		if x == s {
			return true
		}
	}
	return false
}

// Found reports whether the agent itself is used on this machine: one of
// its programs is on PATH, or one of its folders holds something
// gotk-install did not put there. What gotk-install made (recorded in m)
// does not count: an install into a fresh HOME does not make the agent
// "found".
func (a *Agent) Found(e *Env, m *Manifest) bool {
	for _, p := range a.Programs {
		if _, err := e.LookPath(p); err == nil {
			return true
		}
	}
	ours := m.Created()
	for _, d := range a.Dirs(e) {
		if foreignIn(d, ours) {
			return true
		}
	}
	return false
}

// foreignIn reports whether p exists and is, or holds, something not in
// ours.
func foreignIn(p string, ours map[string]bool) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if !ours[p] {
		return true
	}
	if !fi.IsDir() {
		return false
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return true
	}
	for _, en := range entries {
		if foreignIn(filepath.Join(p, en.Name()), ours) {
			return true
		}
	}
	return false
}
