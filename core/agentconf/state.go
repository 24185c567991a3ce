package agentconf

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/BurntSushi/toml"
)

// state.go: read-only inspection of what is installed, for gotk-install
// --list and for `gotk verify` / `gotk doctor` (core/check).

// State is how gotk's parts look for one agent in one scope.
type State struct {
	Agent     string
	Scope     Scope
	Found     bool   // the agent is used on this machine
	State     string // installed, not installed, partial, missing (recorded, gone), modified, unreadable
	File      string // the agent's main file for gotk
	HookBin   string // the hook binary's name, "" for plugin and rules agents
	Hook      string // the command gotk's entry runs, as written
	Parts     []PartState
	Conflicts []string
	Others    []string // gotk-looking entries gotk-install did not add
}

// PartState is one part's state.
type PartState struct {
	File  string
	What  string
	Kind  string
	State string // present, absent, modified (owned file changed), invalid: ...
	// AgentError says why the agent itself cannot read the file (a
	// comment where it wants plain JSON), when gotk can.
	AgentError string
}

// Invalid reports whether the part's file cannot be read or parsed, and
// why.
func (p PartState) Invalid() (string, bool) {
	return strings.CutPrefix(p.State, "invalid: ")
}

// Inspect returns the state of each of agents in every scope it supports.
func Inspect(agents []*Agent, e *Env, m *Manifest) []State {
	var out []State
	for _, a := range agents {
		for _, s := range a.Scopes {
			out = append(out, InspectOne(e, m, a, s))
		}
	}
	return out
}

// InspectOne returns the state of agent a in scope s.
func InspectOne(e *Env, m *Manifest, a *Agent, s Scope) State {
	st := State{Agent: a.Name, Scope: s, Found: a.Found(e, m), HookBin: a.HookBin}
	var parts []Part
	for _, p := range a.Parts(e, s, Bins{}) {
		if !p.Legacy {
			parts = append(parts, p)
		}
	}
	present, recorded := 0, 0
	for i, p := range parts {
		if i == 0 {
			st.File = p.File
		}
		ps := PartState{File: p.File, What: p.Describe(), Kind: p.Kind, State: "absent"}
		rec := m.Find(a.Name, p.Kind, p.File)
		if rec != nil {
			recorded++
		}
		b, err := os.ReadFile(p.File)
		switch {
		case os.IsNotExist(err):
		case err != nil:
			ps.State = "invalid: " + err.Error()
		case p.Kind == KindJSONHook:
			root, err := LoadRoot(b)
			if err != nil {
				ps.State = "invalid: " + err.Error()
				break
			}
			if err := AgentReads(p.Syntax, b); err != nil {
				ps.AgentError = fmt.Sprintf("%s skips this whole file: %v", a.Title, err)
			}
			arr, err := Walk(b, root, p.Hook.Event, JArray)
			if err != nil {
				ps.State = "invalid: " + err.Error()
				break
			}
			ours, others := p.Hook.FindGotk(arr, OwnerOf(rec, false))
			if len(ours) > 0 {
				ps.State = "present"
				st.Hook, _ = p.Hook.HandlerAt(arr, ours[0]).GetStr(p.Hook.CmdKey)
			}
			st.Conflicts = append(st.Conflicts, p.Hook.Conflicts(arr)...)
			st.Others = append(st.Others, p.Hook.OtherNotes(arr, others)...)
		case p.Kind == KindBlock:
			if rec != nil && rec.Inline != nil {
				if bytes.Contains(b, []byte(rec.Inline.Lead+rec.Inline.Entry)) {
					ps.State = "present"
				}
			} else if start, _, err := FindBlock(b, p.Markers); err != nil {
				ps.State = "invalid: " + err.Error()
			} else if start >= 0 {
				ps.State = "present"
			}
			if p.IsTOML && ps.State == "present" {
				st.Hook = vibeCommand(b)
			}
		case p.Kind == KindTOMLFlag:
			var doc map[string]any
			if _, err := toml.Decode(string(b), &doc); err != nil {
				ps.State = "invalid: " + TOMLErr(err).Error()
			} else if doc[p.Flag] == true {
				ps.State = "present"
			}
		case p.Kind == KindFile:
			ps.State = "present"
			if rec != nil && rec.SHA256 != Sum(b) {
				ps.State = "modified"
			}
			if p.Script != nil {
				if cmd := ScriptHook(b); ProgramBase(cmd) == a.HookBin {
					st.Hook = cmd
				}
			} else if a.HookBin != "" {
				if root, err := LoadRoot(b); err == nil {
					spec := &HookSpec{Event: []string{"hooks", "preToolUse"}, Bin: a.HookBin}
					if arr, _ := Walk(b, root, spec.Event, JArray); arr != nil {
						if refs, _ := spec.FindGotk(arr, Owner{Adopt: true}); len(refs) > 0 {
							st.Hook, _ = arr.Members[refs[0].Elem].Val.GetStr("bash")
						}
					}
				}
			}
		}
		if ps.State == "present" || ps.State == "modified" {
			present++
		}
		st.Parts = append(st.Parts, ps)
	}
	switch {
	case present == 0 && recorded > 0:
		st.State = "missing" // gotk-install wrote it; it is gone
	case present == 0:
		st.State = "not installed"
	case present < len(parts):
		st.State = "partial"
	default:
		st.State = "installed"
	}
	for _, ps := range st.Parts {
		if ps.State == "modified" {
			st.State = "modified"
		}
		if _, bad := ps.Invalid(); bad {
			st.State = "unreadable"
		}
	}
	return st
}

// vibeCommand returns the command of the hook named gotk in a Vibe
// hooks.toml, or "".
func vibeCommand(b []byte) string {
	var doc struct {
		Hooks []struct{ Name, Command string } `toml:"hooks"`
	}
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return ""
	}
	for _, h := range doc.Hooks {
		if h.Name == "gotk" {
			return h.Command
		}
	}
	return ""
}
