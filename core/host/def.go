package host

import (
	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/permission"
)

// Def is everything gotk knows of one host (agent), defined in one place:
// the host's package under core/hosts/<name>, registered in the list of
// core/hosts. A hook binary links only its own host's package; `gotk`,
// `gotk-install` and `gotk verify` read the list.
type Def struct {
	// Name is the host's name (`--host NAME`, `--agent NAME`); Title its
	// product name, for messages and tables.
	Name, Title string
	// Rules reads the host's rule files (nil: it has none, and every
	// command is Default).
	Rules permission.Loader
	// ReadOnly: the host runs its read-only commands without asking,
	// inside its working directories (Claude Code).
	ReadOnly bool
	// Flags reads the session flags of the host's process (nil: none that
	// matter).
	Flags *Flags
	// Answers is the host's answer policy.
	Answers Answers
	// KnownSafe is the host's own set of commands it runs without asking
	// whatever its approval policy (Codex's is_known_safe_command), or nil.
	// It applies where no rule of the host matched. alone is false where
	// the host runs cmd without asking on a check that did not see all of
	// it (Crush's text check of a line bash runs as two commands): gotk
	// then steps aside and the host decides on the original.
	KnownSafe func(cmd string) (safe, alone bool)
	// ModeMayRun returns the programs a permission mode of the host may
	// run without asking beyond its read-only set (Claude Code's
	// acceptEdits), or nil; the field itself may be nil.
	ModeMayRun func(mode string) []string
	// Agent is where gotk-install puts gotk in the host's configuration
	// (its Name and Title come from the Def), nil for none.
	Agent *agentconf.Agent
	// Probe is what `gotk verify` asks the host's hook, nil for none.
	Probe *Probe
	// RulesOnly: gotk gives this host a rules text only; nothing of its
	// asks gotk to decide (no `--host`).
	RulesOnly bool
	// Table is the host's row in the README's agent table.
	Table Row
}

// Row is a host's row in the README's agent table (generated from the
// list: core/hosts).
type Row struct {
	// Name is the agent as the table names it ("" is the Def's Title).
	Name string
	// Install follows the `--agent` word: what else to do (Codex's
	// "(then trust it once with /hooks)"), or "".
	Install string
	// How gotk hooks in: the event and binary, or the plugin.
	How string
	// Proven: whether the real CLI runs in `make e2e`, at which version,
	// or why not.
	Proven string
}

// Host is the host's name as the permission rules carry it.
func (d *Def) Host() permission.Host { return permission.Host(d.Name) }

// Probe is one hook's question in `gotk verify`, and where its answer
// carries the rewritten command.
type Probe struct {
	// Command is what the hook is asked about: one its agent lets it
	// rewrite in a clean session.
	Command string
	// Payload is the agent's hook input for Command run in cwd.
	Payload func(cwd, command string) any
	// Answer is the path of the rewritten command in the answer (an index
	// for a list element).
	Answer []string
	// Rewrites is false for a hook that, outside a session of its agent,
	// answers nothing by design (Copilot: only --allow-all-tools sessions).
	Rewrites bool
	// Absolute: the rewrite names gotk by absolute path (Codex runs
	// commands in a login shell).
	Absolute bool
	// Under names the agent process the hook must run beneath: a hook
	// that finds no such ancestor cannot see the session's flags, which
	// may deny, and so never allows. The probe runs it as a child of a
	// shell named so, the way the agent starts it, with no flags.
	Under string
}

// LoadRules reads the host's rule files in env.
func (d *Def) LoadRules(env permission.Env) *permission.Rules {
	return permission.Load(d.Host(), d.Rules, env)
}
