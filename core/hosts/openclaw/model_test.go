package openclaw

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// The model below is OpenClaw 2026.9.6's host exec policy, transcribed
// from its bundled docs/tools/exec.md ("Modes", "Inline eval"),
// docs/tools/exec-approvals.md (exec.security, exec.ask, "stricter of")
// and docs/tools/permission-modes.md:
//   - tools.exec.mode resolves to a security/ask pair: deny deny/off,
//     allowlist allowlist/off, ask and auto allowlist/on-miss, full
//     full/off; security and ask may be set too. An agent's policy here is
//     the strictest of what the top level, agents.defaults and its own
//     entry set; nothing set is full/off (the gateway host's default).
//   - deny refuses every command; ask always asks about every command;
//     allowlist runs a line only when every segment's program is a safe
//     bin, else asks (on-miss) or refuses (off); auto's reviewer is not
//     modelled; full runs every command, but strictInlineEval asks about
//     inline-eval forms (python -c, node -e, sed programs).
//   - a sandbox or a node host has a policy of its own: not modelled.

// openClawScope is one generated tools.exec and sandbox setting.
type openClawScope struct {
	Exec    map[string]any
	Sandbox string
}

func (s openClawScope) json() map[string]any {
	out := map[string]any{}
	if s.Exec != nil {
		out["tools"] = map[string]any{"exec": s.Exec}
	}
	if s.Sandbox != "" {
		out["sandbox"] = map[string]any{"mode": s.Sandbox}
	}
	return out
}

// clawModel is an agent's resolved policy; known is false where the
// model does not know what OpenClaw does.
type clawModel struct {
	security, ask string
	strict, auto  bool
	safeBins      []string
	known         bool
}

var (
	openClawSecurity = []string{"deny", "allowlist", "full"} // strictest first
	openClawAsk      = []string{"always", "on-miss", "off"}
	openClawModes    = map[string][2]string{"deny": {"deny", "off"}, "allowlist": {"allowlist", "off"}, "ask": {"allowlist", "on-miss"},
		"auto": {"allowlist", "on-miss"}, "full": {"full", "off"}}
)

func resolveOpenClaw(scopes ...openClawScope) clawModel {
	p := clawModel{security: "full", ask: "off", known: true}
	stricter := func(order []string, a, b string) string {
		if slices.Index(order, b) >= 0 && slices.Index(order, b) < slices.Index(order, a) {
			return b
		}
		return a
	}
	for _, s := range scopes {
		if s.Sandbox != "" && s.Sandbox != "off" {
			p.known = false
		}
		e := s.Exec
		if m, ok := e["mode"].(string); ok {
			p.security, p.ask = stricter(openClawSecurity, p.security, openClawModes[m][0]), stricter(openClawAsk, p.ask, openClawModes[m][1])
			p.auto = p.auto || m == "auto"
		}
		if v, ok := e["security"].(string); ok {
			p.security = stricter(openClawSecurity, p.security, v)
		}
		if v, ok := e["ask"].(string); ok {
			p.ask = stricter(openClawAsk, p.ask, v)
		}
		if v, ok := e["strictInlineEval"].(bool); ok && v {
			p.strict = true
		}
		if v, ok := e["host"].(string); ok && v != "auto" && v != "gateway" {
			p.known = false
		}
		if v, ok := e["safeBins"].([]string); ok {
			p.safeBins = v
		}
	}
	return p
}

var (
	openClawSplit  = regexp.MustCompile(`\s*(?:&&|\|\||;|\|)\s*`)
	openClawAssign = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
)

// outcome is what OpenClaw does with line: "run", "ask", "deny", or ""
// where the model does not know.
func (p clawModel) outcome(line string) string {
	if !p.known {
		return ""
	}
	if p.security == "deny" {
		return "deny"
	}
	if p.ask == "always" {
		return "ask"
	}
	var progs [][]string
	for _, seg := range openClawSplit.Split(line, -1) {
		w := strings.Fields(seg)
		for len(w) > 0 && openClawAssign.MatchString(w[0]) {
			w = w[1:]
		}
		if len(w) > 0 {
			progs = append(progs, w)
		}
	}
	if p.security == "allowlist" {
		for _, w := range progs {
			if !slices.Contains(p.safeBins, w[0]) {
				switch {
				case p.ask == "off":
					return "deny"
				case p.auto:
					return "" // the reviewer decides
				}
				return "ask"
			}
		}
		return "run"
	}
	if p.strict {
		for _, w := range progs {
			if inline := map[string]string{"python3": "-c", "node": "-e", "sed": ""}[w[0]]; inline != "" && slices.Contains(w, inline) || w[0] == "sed" {
				return "ask"
			}
		}
	}
	return "run"
}

// genOpenClawScope draws a scope that sets nothing half of the time.
func genOpenClawScope(rng *rand.Rand) openClawScope {
	var s openClawScope
	if rng.IntN(2) == 0 {
		return s
	}
	s.Exec = map[string]any{}
	pickOf := func(key string, xs ...any) {
		if rng.IntN(3) == 0 {
			s.Exec[key] = xs[rng.IntN(len(xs))]
		}
	}
	pickOf("mode", "deny", "allowlist", "ask", "auto", "full", "full", "full")
	pickOf("security", "deny", "allowlist", "full", "full")
	pickOf("ask", "off", "off", "on-miss", "always")
	pickOf("strictInlineEval", true, false, false)
	pickOf("host", "auto", "gateway", "node", "sandbox")
	pickOf("safeBins", []string{"ls", "cat"}, []string{"git", "grep", "wc"})
	if rng.IntN(6) == 0 {
		s.Sandbox = []string{"off", "all", "non-main"}[rng.IntN(3)]
	}
	return s
}

// TestOpenClawModelProperty: over generated configurations (the top level,
// agents.defaults, agents.entries and agents.list) and lines, wherever gotk
// rewrites a line, OpenClaw — for every agent the config names — does with
// the rewrite what it would do with the line.
func TestOpenClawModelProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	cmds := []string{"git status", "ls -la", "cat x.txt", "python3 -c 1", "sed s/a/b/ x.txt", "grep -n x x.txt", "FOO=1 git log -3", "wc -l x.txt"}
	rewrites, checked := 0, 0
	for i := 0; i < 400; i++ {
		top, defaults := genOpenClawScope(rng), genOpenClawScope(rng)
		entries := map[string]openClawScope{"main": genOpenClawScope(rng), "x": genOpenClawScope(rng)}
		listed := genOpenClawScope(rng)
		cfg := top.json()
		agents := map[string]any{"defaults": defaults.json(), "entries": map[string]any{"main": entries["main"].json(), "x": entries["x"].json()}}
		l := listed.json()
		l["id"] = "y"
		agents["list"] = []any{l}
		cfg["agents"] = agents
		doc, _ := json.Marshal(cfg)
		home := t.TempDir()
		permissiontest.Write(t, filepath.Join(home, ".openclaw", "openclaw.json"), string(doc))
		e := decision.New(Host, permissiontest.Env(home, home, nil))
		policies := []clawModel{resolveOpenClaw(top, defaults, entries["main"]), resolveOpenClaw(top, defaults, entries["x"]), resolveOpenClaw(top, defaults, listed)}
		for k := 0; k < 4; k++ {
			line := cmds[rng.IntN(len(cmds))]
			if rng.IntN(3) == 0 {
				line += []string{" && ", " | ", "; "}[rng.IntN(3)] + cmds[rng.IntN(len(cmds))]
			}
			d := e.Decide(decision.Request{Command: line, Cwd: home})
			if d.Verdict != decision.AllowRewrite && d.Verdict != decision.AskRewrite {
				continue
			}
			rewrites++
			for _, p := range policies {
				before, after := p.outcome(line), p.outcome(d.Command)
				if before == "" || after == "" {
					continue
				}
				checked++
				if before != after {
					t.Fatalf("config %s\nline %q: OpenClaw would %s it (policy %+v); gotk rewrites it to %q, which it would %s", doc, line, before, p, d.Command, after)
				}
			}
		}
	}
	if rewrites < 30 || checked < 30 {
		t.Errorf("%d rewrites, %d checked: the configurations test little", rewrites, checked)
	}
}
