// Package hosts is the list of hosts (agents) gotk serves: each is one
// value, its package's Host, defined in core/hosts/<name>. `gotk`,
// `gotk-install` and `gotk verify` read the list; a hook binary imports
// only its own host's package.
package hosts

import (
	"sort"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts/auggie"
	"github.com/gotk-dev/gotk/core/hosts/claude"
	"github.com/gotk-dev/gotk/core/hosts/cline"
	"github.com/gotk-dev/gotk/core/hosts/codex"
	"github.com/gotk-dev/gotk/core/hosts/copilot"
	"github.com/gotk-dev/gotk/core/hosts/crush"
	"github.com/gotk-dev/gotk/core/hosts/cursor"
	"github.com/gotk-dev/gotk/core/hosts/droid"
	"github.com/gotk-dev/gotk/core/hosts/gemini"
	"github.com/gotk-dev/gotk/core/hosts/hermes"
	"github.com/gotk-dev/gotk/core/hosts/kilo"
	"github.com/gotk-dev/gotk/core/hosts/openclaw"
	"github.com/gotk-dev/gotk/core/hosts/opencode"
	"github.com/gotk-dev/gotk/core/hosts/pi"
	"github.com/gotk-dev/gotk/core/hosts/vibe"
	"github.com/gotk-dev/gotk/core/hosts/windsurf"
)

// All are the hosts, in the order `gotk-install --list` and the README's
// agent table show them.
var All = []*host.Def{
	claude.Host,
	cursor.Host,
	copilot.Host,
	gemini.Host,
	vibe.Host,
	codex.Host,
	opencode.Host,
	pi.Host,
	hermes.Host,
	cline.Host,
	droid.Host,
	kilo.Host,
	crush.Host,
	openclaw.Host,
	windsurf.Host,
	auggie.Host,
}

// Others are the agents users asked for that gotk does not serve, and why:
// the README's agent table lists them after All.
var Others = []host.Row{
	{Name: "Qwen Code", Install: "not supported", How: "its `PreToolUse` ignores a rewritten input; its only rewrite path approves a prompt the user would have seen (a widening)", Proven: "—"},
	{Name: "Continue CLI", Install: "not supported", How: "it never calls its hooks", Proven: "—"},
	{Name: "Grok CLI", Install: "not supported", How: "its hooks can only block a call", Proven: "—"},
	{Name: "Kimi CLI", Install: "not supported", How: "it ignores a rewritten input", Proven: "—"},
	{Name: "Tabnine CLI", Install: "not supported", How: "its docs describe a Gemini-style BeforeTool rewrite, but the CLI is not on npm to prove it, and its permission rules are undocumented: a rewrite could walk past one gotk cannot read", Proven: "—"},
}

// ByName returns the named host, or nil.
func ByName(name string) *host.Def {
	for _, d := range All {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// Names lists the hosts gotk decides for (`--host`), sorted.
func Names() []string {
	var out []string
	for _, d := range All {
		if !d.RulesOnly {
			out = append(out, d.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Agents returns the install entries of the hosts that have one, each
// named after its host, in list order.
func Agents() []*agentconf.Agent {
	var out []*agentconf.Agent
	for _, d := range All {
		if d.Agent != nil {
			a := *d.Agent
			a.Name, a.Title = d.Name, d.Title
			out = append(out, &a)
		}
	}
	return out
}

// AgentNames lists the names `gotk-install --agent` takes, in list order.
func AgentNames() []string {
	var out []string
	for _, a := range Agents() {
		out = append(out, a.Name)
	}
	return out
}

// AgentByName returns the named install entry, or nil.
func AgentByName(name string) *agentconf.Agent {
	for _, a := range Agents() {
		if a.Name == name {
			return a
		}
	}
	return nil
}
