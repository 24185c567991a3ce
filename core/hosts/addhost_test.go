package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/agentconf"
	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// acme is a host added the way CONTRIBUTING.md says: one value holding its
// rule reader, install entry and probe, with a payload captured from the
// agent (testdata/acme/payload.json).
var acme = &host.Def{
	Name: "acme", Title: "Acme CLI",
	// Its settings.json lists deny rules as "Shell(PATTERN)".
	Rules: func(r *permission.Rules, env permission.Env) {
		var doc struct{ Deny []any }
		if r.ReadJSON(env, filepath.Join(env.Home, ".acme", "settings.json"), &doc) {
			r.Add(&r.Deny, doc.Deny, "settings.json", "Shell")
		}
	},
	Agent: &agentconf.Agent{
		Scopes:   []agentconf.Scope{agentconf.Global},
		Dirs:     func(e *agentconf.Env) []string { return []string{filepath.Join(e.Home, ".acme")} },
		Programs: []string{"acme"},
		HookBin:  "gotk-hook-acme",
		Parts: func(e *agentconf.Env, s agentconf.Scope, b agentconf.Bins) []agentconf.Part {
			return []agentconf.Part{{Kind: agentconf.KindJSONHook, File: filepath.Join(e.Home, ".acme", "settings.json"), What: "PreToolUse hook", Hook: &agentconf.HookSpec{
				Event: []string{"hooks", "PreToolUse"}, Tool: "Shell", CmdKey: "command", Bin: "gotk-hook-acme",
				Handler: agentconf.Obj{{K: "command", V: b.Hook}},
			}}}
		},
	},
	Probe: &host.Probe{Command: "git status", Rewrites: true, Answer: []string{"updatedInput", "command"},
		Payload: func(cwd, cmd string) any {
			return map[string]any{"session_id": "gotk-verify", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": "Shell",
				"tool_input": map[string]any{"command": cmd}}
		}},
	Table: host.Row{How: "`PreToolUse` hook `gotk-hook-acme`", Proven: "no"},
}

// TestAddHost: a host registered in the list is known everywhere the list
// is read — `--host`, gotk-install, the README's table, the decision — with
// no other change; its probe asks what the real agent sends.
func TestAddHost(t *testing.T) {
	saved := All
	All = append(slices.Clip(All), acme)
	defer func() { All = saved }()

	if !slices.Contains(Names(), "acme") || ByName("acme") != acme {
		t.Errorf("--host does not know acme: %v", Names())
	}
	a := AgentByName("acme")
	if a == nil || a.Name != "acme" || a.Title != "Acme CLI" || !slices.Contains(AgentNames(), "acme") {
		t.Fatalf("gotk-install does not know acme: %+v", a)
	}
	if row := "| Acme CLI | `acme` | `PreToolUse` hook `gotk-hook-acme` | no |"; !strings.Contains(table(All, Others), row) {
		t.Errorf("the README table has no row %q", row)
	}

	home := t.TempDir()
	permissiontest.Write(t, filepath.Join(home, ".acme", "settings.json"), `{"Deny": ["Shell(git push *)"]}`)
	e := decision.New(acme, permissiontest.Env(home, home, nil))
	if d := e.Decide(decision.Request{Command: "git push origin main"}); d.Verdict != decision.Deny {
		t.Errorf("acme's deny rule: %v", d.Verdict)
	}
	if d := e.Decide(decision.Request{Command: "git status"}); d.Verdict != decision.AskRewrite || d.Command != "gotk git status" {
		t.Errorf("git status for acme: %v %q", d.Verdict, d.Command)
	}
	env := &agentconf.Env{Home: home, Cwd: home, Getenv: func(string) string { return "" }, LookPath: func(string) (string, error) { return "", os.ErrNotExist }}
	if st := agentconf.InspectOne(env, &agentconf.Manifest{}, a, agentconf.Global); st.File != filepath.Join(home, ".acme", "settings.json") {
		t.Errorf("install entry's file: %q", st.File)
	}

	// The probe sends what the agent sends: the captured payload's keys.
	b, err := os.ReadFile(filepath.Join("testdata", "acme", "payload.json"))
	if err != nil {
		t.Fatal(err)
	}
	var captured, probe map[string]any
	pb, _ := json.Marshal(acme.Probe.Payload("/work/proj", "git status"))
	if json.Unmarshal(b, &captured) != nil || json.Unmarshal(pb, &probe) != nil {
		t.Fatal("payloads do not parse")
	}
	for k := range captured {
		if _, ok := probe[k]; !ok {
			t.Errorf("the probe lacks %q, which the agent sends", k)
		}
	}
}
