package decision

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts/claude"
	"github.com/gotk-dev/gotk/core/hosts/cursor"
	"github.com/gotk-dev/gotk/core/hosts/droid"
	"github.com/gotk-dev/gotk/core/hosts/gemini"
	"github.com/gotk-dev/gotk/core/hosts/vibe"

	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/shell"
)

// RTK's permission vectors: the verdicts RTK's own tests expect of its
// permission gate (check_command_with_rules and the rule readers of
// src/hooks/permissions.rs), replayed against gotk's engine for the same
// host with the same rules. gotk may be stricter than RTK; it may never be
// wider: where RTK says Deny gotk denies too (and so never rewrites), and
// where RTK says Ask or Default gotk never allows. Where RTK is wrong about
// what the host does, the vector says so (host_verdict, with why) and gotk
// must give the host's verdict.

// rtkVector is one line of testdata/rtk-permission-vectors.jsonl.
type rtkVector struct {
	Source  string   `json:"source"` // file#test in RTK
	Agent   string   `json:"agent"`
	Allow   []string `json:"allow"` // raw patterns, as inside Bash(…)/Shell(…)
	Ask     []string `json:"ask"`
	Deny    []string `json:"deny"`
	Command string   `json:"command"`
	// Expect is RTK's verdict: Allow, Deny, Ask, Default, or NotAllow where
	// RTK's test asserts only that the verdict is not Allow.
	Expect string `json:"expect"`
	RTK    string `json:"rtk"` // repository@commit the test was read at
	// HostVerdict and Why: the host's real verdict where RTK's is wrong,
	// from the host's source as gotk's model tests transcribe it.
	HostVerdict string `json:"host_verdict,omitempty"`
	Why         string `json:"why,omitempty"`
	// Derived: why RTK's verdict for this agent is the one its test
	// asserts for another (the same check over the rules RTK reads).
	Derived string `json:"derived,omitempty"`
}

// rtkCommit is the RTK source the vectors and the matrix were read from.
const rtkCommit = "rtk-ai/rtk@a06dca252525e57116837f918eff978f948adb1b"

func readRTKVectors(t *testing.T) []rtkVector {
	t.Helper()
	f, err := os.Open("testdata/rtk-permission-vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var vs []rtkVector
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var v rtkVector
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vs
}

// rtkPrefixMatrix is RTK's test_no_prefix_construct_can_hide_a_denied_command
// (src/hooks/permissions.rs): every prefix built from its redirects,
// separators and grammar words, in front of the denied `rm -rf /`, with
// deny rule `rm -rf /`, must be Deny. Built the way RTK builds it, so the
// count (2525) is RTK's.
func rtkPrefixMatrix() []rtkVector {
	redirects := []string{"2>&1", "1>&2", ">&2", "2>&-", ">out", ">>out", "<in", "2>/dev/null", ">/dev/null",
		">$HOME/x", "<&0", "0<&1", "0<&-", "3<&0", "1<in", "0</dev/null", "0>&1", "3>out"}
	separators := []string{" ", "&", "&&", ";", "|", "||", "& ", "&& ", "; ", "| ", "|| "}
	grammar := []string{"{ ", "! ", "{ ! ", "! { ", "} "}
	prefixes := []string{""}
	for _, r := range redirects {
		for _, s := range separators {
			prefixes = append(prefixes, r+s)
			for _, g := range grammar {
				prefixes = append(prefixes, g+r+s, "ls && "+g+r+s)
			}
		}
		for _, second := range redirects {
			prefixes = append(prefixes, r+second+" ")
		}
	}
	for _, lead := range []string{"", "ls && ", "ls; ", "ls | "} {
		prefixes = append(prefixes, lead+"\\\n", lead+"\\\r\n")
	}
	for _, g := range grammar {
		prefixes = append(prefixes, g, "ls && "+g)
	}
	prefixes = append(prefixes, "ls && ", "ls; ", "ls | ", "ls & ")
	vs := make([]rtkVector, len(prefixes))
	for i, p := range prefixes {
		vs[i] = rtkVector{Source: "src/hooks/permissions.rs#test_no_prefix_construct_can_hide_a_denied_command", Agent: "claude",
			Deny: []string{"rm -rf /"}, Command: p + "rm -rf /", Expect: "Deny", RTK: rtkCommit}
	}
	return vs
}

// rtkHosts: the gotk host for each RTK agent, and where RTK reads that
// host's rules, written in the host's own syntax.
var rtkHosts = map[string]struct {
	def   *host.Def
	write func(t *testing.T, home string, v rtkVector)
}{
	"claude": {claude.Host, func(t *testing.T, home string, v rtkVector) {
		writeJSON(t, filepath.Join(home, ".claude", "settings.json"), map[string]any{
			"permissions": map[string]any{"allow": wrapAll("Bash", v.Allow), "ask": wrapAll("Bash", v.Ask), "deny": wrapAll("Bash", v.Deny)}})
	}},
	"cursor": {cursor.Host, func(t *testing.T, home string, v rtkVector) {
		if len(v.Ask) > 0 {
			t.Fatalf("%s: Cursor has no ask rules", v.Source)
		}
		writeJSON(t, filepath.Join(home, ".cursor", "cli-config.json"), map[string]any{
			"permissions": map[string]any{"allow": wrapAll("Shell", v.Allow), "deny": wrapAll("Shell", v.Deny)}})
	}},
	"gemini": {gemini.Host, func(t *testing.T, home string, v rtkVector) {
		if len(v.Deny) > 0 {
			t.Fatalf("%s: RTK reads no Gemini deny rules", v.Source)
		}
		writeJSON(t, filepath.Join(home, ".gemini", "settings.json"), map[string]any{
			"tools": map[string]any{"allowed": wrapAll("run_shell_command", v.Allow), "confirmationRequired": wrapAll("run_shell_command", v.Ask)}})
	}},
	"droid": {droid.Host, func(t *testing.T, home string, v rtkVector) {
		if len(v.Allow)+len(v.Ask) > 0 {
			t.Fatalf("%s: RTK reads only Droid's deny lists", v.Source)
		}
		if len(v.Deny) > 0 {
			writeJSON(t, filepath.Join(home, ".factory", "settings.json"), map[string]any{"commandDenylist": v.Deny})
		}
	}},
	"vibe": {vibe.Host, func(t *testing.T, home string, v rtkVector) {
		if len(v.Allow)+len(v.Ask)+len(v.Deny) > 0 {
			t.Fatalf("%s: RTK reads no Vibe rules", v.Source)
		}
	}},
}

func wrapAll(tool string, ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = tool + "(" + p + ")"
	}
	return out
}

func writeJSON(t *testing.T, path string, doc any) {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

var rtkVerdicts = map[string]permission.Verdict{"Allow": permission.Allow, "Deny": permission.Deny, "Ask": permission.Ask, "Default": permission.Default}

// widens says how gotk's answer d is wider than verdict want, or "".
// parsed: gotk could parse the line; where it cannot it answers nothing
// and the host decides alone.
func widens(want string, d Decision, parsed bool) string {
	switch want {
	case "Deny":
		if d.Verdict == AllowRewrite || d.Verdict == AskRewrite {
			return "a denied command is rewritten"
		}
		// The command itself may have nothing to rewrite: gotk's rules
		// must still see the deny, or a rewritable one would be rewritten.
		if parsed && d.Permission != permission.Deny {
			return "the deny is not seen (" + d.Permission.String() + ")"
		}
	case "Ask", "Default", "NotAllow":
		if d.Verdict == AllowRewrite {
			return "auto-allowed"
		}
	}
	return ""
}

// narrower: gotk is stricter than RTK (a refusal, or a prompt where RTK
// allows).
func narrower(want string, d Decision) bool {
	switch want {
	case "Allow":
		return d.Permission != permission.Allow
	case "Default", "NotAllow":
		return d.Permission == permission.Ask || d.Permission == permission.Deny
	case "Ask":
		return d.Permission == permission.Deny
	}
	return false
}

func TestRTKPermissionVectors(t *testing.T) {
	vs := readRTKVectors(t)
	matrix := rtkPrefixMatrix()
	if len(matrix) != 2525 {
		t.Fatalf("RTK's prefix matrix has 2525 commands, built %d", len(matrix))
	}
	vs = append(vs, matrix...)
	base := t.TempDir()
	engines := map[string]*Engine{} // one per host and rule set: the matrix shares one
	var widened, narrow, unparsed, hostKnown int
	for i, v := range vs {
		if v.Source == "" || v.RTK == "" || v.Command == "" {
			t.Fatalf("vector %d lacks its source, RTK version or command: %+v", i, v)
		}
		if _, ok := rtkVerdicts[v.Expect]; !ok && v.Expect != "NotAllow" {
			t.Fatalf("%s: unknown verdict %q", v.Source, v.Expect)
		}
		h, ok := rtkHosts[v.Agent]
		if !ok {
			t.Fatalf("%s: no gotk host for agent %q", v.Source, v.Agent)
		}
		key := fmt.Sprintf("%s %q %q %q", v.Agent, v.Allow, v.Ask, v.Deny)
		e := engines[key]
		if e == nil {
			home := filepath.Join(base, fmt.Sprint(len(engines)))
			h.write(t, home, v)
			e = &Engine{Host: h.def, Env: permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: home,
				ManagedDir: filepath.Join(home, "managed")}}
			engines[key] = e
		}
		d := e.Decide(Request{Command: v.Command, Explain: true})
		_, err := shell.Parse(v.Command)
		parsed := err == nil
		name := fmt.Sprintf("%s %s %q (RTK %s)", v.Source, v.Agent, v.Command, v.Expect)
		if v.HostVerdict != "" {
			// RTK is wrong about the host: gotk must give the host's verdict.
			hv, ok := rtkVerdicts[v.HostVerdict]
			if !ok || v.Why == "" {
				t.Fatalf("%s: host_verdict %q needs a verdict and why", name, v.HostVerdict)
			}
			if d.Permission != hv {
				t.Errorf("%s: gotk %v, but the host's verdict is %v (%s)", name, d.Permission, hv, v.Why)
			}
			if w := widens(v.HostVerdict, d, parsed); w != "" {
				widened++
				t.Errorf("WIDENED %s: %s beyond the host's %s: gotk %v (%s)", name, w, v.HostVerdict, d.Verdict, d.Reason)
			}
			hostKnown++
			continue
		}
		if w := widens(v.Expect, d, parsed); w != "" {
			widened++
			t.Errorf("WIDENED %s: %s: gotk %v/%v (%s)", name, w, d.Verdict, d.Permission, d.Reason)
			continue
		}
		if !parsed {
			// gotk answers nothing (RTK's unclosed `{` and stray `}`
			// prefixes, bare CRs): the host decides alone.
			unparsed++
			continue
		}
		if narrower(v.Expect, d) {
			narrow++
			t.Logf("narrower %s: gotk %v/%v", name, d.Verdict, d.Permission)
		}
	}
	t.Logf("%d RTK permission vectors (%d from the prefix matrix): %d widened, %d narrower, %d unparsed (gotk steps aside), %d where RTK is wrong about the host",
		len(vs), len(matrix), widened, narrow, unparsed, hostKnown)
}
