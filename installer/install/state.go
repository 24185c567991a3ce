package install

import (
	"bytes"
	"os"

	"github.com/BurntSushi/toml"
)

// state.go: read-only inspection of what is installed, for --list and for
// `gotk verify` / `gotk doctor` (package check).

// State is how gotk's parts look for one agent in one scope.
type State struct {
	Agent     string
	Scope     Scope
	Found     bool   // the agent is used on this machine
	State     string // installed, not installed, partial, modified, unreadable
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
	State string // present, absent, modified (owned file changed), invalid: ...
}

// Inspect returns the state of every agent in every scope it supports.
func Inspect(e *Env, m *Manifest) []State {
	var out []State
	for _, a := range Agents() {
		for _, s := range a.Scopes {
			out = append(out, inspect(e, m, a, s))
		}
	}
	return out
}

func inspect(e *Env, m *Manifest, a *Agent, s Scope) State {
	st := State{Agent: a.Name, Scope: s, Found: a.Found(e, m), HookBin: a.HookBin}
	var parts []part
	for _, p := range a.Parts(e, s, "") {
		if !p.legacy {
			parts = append(parts, p)
		}
	}
	present := 0
	for i, p := range parts {
		if i == 0 {
			st.File = p.file
		}
		ps := PartState{File: p.file, What: p.describe(), State: "absent"}
		b, err := os.ReadFile(p.file)
		switch {
		case os.IsNotExist(err):
		case err != nil:
			ps.State = "invalid: " + err.Error()
		case p.kind == "json-hook":
			root, err := loadRoot(b)
			if err != nil {
				ps.State = "invalid: " + err.Error()
				break
			}
			arr, err := walk(b, root, p.hook.event, jArray)
			if err != nil {
				ps.State = "invalid: " + err.Error()
				break
			}
			rec := m.Find(a.Name, p.kind, p.file)
			o := owner{recorded: rec != nil}
			if rec != nil {
				o.cmd = rec.Command
			}
			ours, others := p.hook.findGotk(arr, o)
			if len(ours) > 0 {
				ps.State = "present"
				st.Hook, _ = p.hook.handlerAt(arr, ours[0]).getStr(p.hook.cmdKey)
			}
			st.Conflicts = append(st.Conflicts, p.hook.conflicts(arr)...)
			st.Others = append(st.Others, p.hook.otherNotes(arr, others)...)
		case p.kind == "block":
			if rec := m.Find(a.Name, p.kind, p.file); rec != nil && rec.Inline != nil {
				if bytes.Contains(b, []byte(rec.Inline.Lead+rec.Inline.Entry)) {
					ps.State = "present"
				}
				break
			}
			start, _, err := findBlock(b, p.mk)
			if err != nil {
				ps.State = "invalid: " + err.Error()
			} else if start >= 0 {
				ps.State = "present"
			}
		case p.kind == "toml-flag":
			var doc map[string]any
			if _, err := toml.Decode(string(b), &doc); err != nil {
				ps.State = "invalid: " + tomlErr(err).Error()
			} else if doc[p.flag] == true {
				ps.State = "present"
			}
		case p.kind == "file":
			ps.State = "present"
			if rec := m.Find(a.Name, p.kind, p.file); rec != nil && rec.SHA256 != Sum(b) {
				ps.State = "modified"
			}
			if a.HookBin != "" {
				if root, err := loadRoot(b); err == nil {
					spec := &jsonHookSpec{event: []string{"hooks", "preToolUse"}, bin: a.HookBin}
					if arr, _ := walk(b, root, spec.event, jArray); arr != nil {
						if refs, _ := spec.findGotk(arr, owner{adopt: true}); len(refs) > 0 {
							st.Hook, _ = arr.members[refs[0].elem].val.getStr("bash")
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
		if len(ps.State) > 8 && ps.State[:8] == "invalid:" {
			st.State = "unreadable"
		}
	}
	return st
}
