package kilo

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hosts/opencode/opencodetest"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
	"github.com/gotk-dev/gotk/core/shell/shelltest"
	"mvdan.cc/sh/v3/syntax"
)

// The model below is how @kilocode/cli 7.7.9 decides a bash call,
// transcribed from the JavaScript bundled in its linux-x64 binary (minified
// names of that build):
//   - ShellTool.collect: tree-sitter-bash parses the command; every
//     `command` node (those inside substitutions included) whose first word
//     is not cd, chdir, popd, pushd, push-location or set-location gives
//     one pattern, Cof: the text of its redirected_statement (the command
//     with its redirects) or of the command, with Gof's masking — in each
//     word, number, raw_string, ANSI-C string and string_content the
//     characters <>|&;$` and newline become "_", and so does all of a
//     redirect to /dev/null, to a number or to "-" (`2>&1` is `2__1`).
//     A line without a command is one pattern, its whole text (Fof).
//   - the same function asks external_directory first when rm, cp, mv,
//     mkdir, touch, chmod, chown, cat or a cd names a path outside the
//     project.
//   - Permission.ask: each pattern evaluated alone (opencodetest).
//   - the code agent's ruleset (Agent.state, $if): the defaults
//     ("*": allow), the code agent's bash list R12, then the user's
//     permission, then agent.code.permission. The plan agent's: the
//     defaults and R12, its own list td1 (after "*": deny), the user's
//     permission, td1 again (icf), the user's deny rules (y12), then
//     agent.plan.permission.

// kiloR12 is the code agent's bash list, in its order.
var kiloR12 = func() []opencodetest.Rule {
	out := []opencodetest.Rule{{Permission: "bash", Pattern: "*", Action: "ask"}}
	for _, p := range kiloCodeDefaultsModel {
		out = append(out, opencodetest.Rule{Permission: "bash", Pattern: p, Action: "allow"})
	}
	return out
}()

// kiloCodeDefaultsModel is R12's allow list as the bundle spells it
// (ncf, then the code agent's own).
var kiloCodeDefaultsModel = []string{"cat *", "head *", "tail *", "less *", "ls *", "tree *", "pwd *", "echo *", "wc *",
	"which *", "type *", "file *", "diff *", "du *", "df *", "date *", "uname *", "whoami *", "printenv *", "man *",
	"grep *", "rg *", "ag *", "sort *", "uniq *", "cut *", "tr *", "jq *", "touch *", "mkdir *", "cp *", "mv *", "tsc *",
	"tsgo *", "tar *", "unzip *", "gzip *", "gunzip *"}

// kiloTd1 is the plan agent's bash list, in its order, "*": deny first.
var kiloTd1 = func() []opencodetest.Rule {
	var out []opencodetest.Rule
	add := func(action string, patterns ...string) {
		for _, p := range patterns {
			out = append(out, opencodetest.Rule{Permission: "bash", Pattern: p, Action: action})
		}
	}
	add("deny", "*")
	add("allow", kiloCodeDefaultsModel[:28]...)
	add("deny", "git *")
	add("allow", "git log *", "git show *", "git diff *", "git status *", "git blame *", "git rev-parse *", "git rev-list *",
		"git ls-files *", "git ls-tree *", "git ls-remote *", "git shortlog *", "git describe *", "git cat-file *", "git name-rev *",
		"git stash list *", "git tag -l *", "git branch --list *", "git branch -a *", "git branch -r *", "git remote -v *")
	add("ask", "gh *")
	add("allow", "gh pr view *", "gh pr list *", "gh pr status *", "gh pr diff *", "gh pr checks *", "gh issue view *",
		"gh issue list *", "gh issue status *", "gh repo view *", "gh run list *", "gh run view *", "gh release list *",
		"gh release view *", "gh search *")
	add("deny", "*\n*", "*<(*", "*|*", "*;*", "*&*", "*$(*", "*`*", "*>*", "sort -o *", "sort * -o *", "sort *--output*",
		"sort *--compress-program*", "sort *--files0-from*", "rg *--pre *", "rg *--pre=*", "rg *--hostname-bin*",
		"ag *--pager*", "man *-P*", "man *--pager*", "man *-H*")
	return out
}()

var (
	kiloNoPattern = map[string]bool{"cd": true, "chdir": true, "popd": true, "pushd": true, "push-location": true, "set-location": true}
	kiloPathCmds  = map[string]bool{"cd": true, "chdir": true, "popd": true, "pushd": true, "push-location": true, "set-location": true,
		"rm": true, "cp": true, "mv": true, "mkdir": true, "touch": true, "chmod": true, "chown": true, "cat": true}
	kiloMasked = regexp.MustCompile("[<>|&;$`\n]")
)

// kiloCall is what Kilo makes of one bash call: its patterns, and whether
// it names a directory outside the project. ok is false where the model
// does not know (a line the parser refuses, a heredoc).
func kiloCall(line, proj string) (patterns []string, external, ok bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || strings.Contains(line, "<<") {
		return nil, false, false
	}
	commands := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		st, isStmt := n.(*syntax.Stmt)
		if !isStmt {
			return true
		}
		call, isCall := st.Cmd.(*syntax.CallExpr)
		if !isCall || len(call.Args) == 0 {
			return true
		}
		commands++
		words := make([]string, len(call.Args))
		for i, w := range call.Args {
			words[i] = line[w.Pos().Offset():w.End().Offset()]
		}
		if kiloPathCmds[words[0]] && kiloOutside(words, proj) {
			external = true
		}
		if kiloNoPattern[words[0]] {
			return true
		}
		start, end := int(call.Pos().Offset()), int(call.End().Offset())
		var masks [][2]int
		mask := func(n syntax.Node) { masks = append(masks, [2]int{int(n.Pos().Offset()), int(n.End().Offset())}) }
		leaves := func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.Lit, *syntax.SglQuoted:
				mask(n)
			}
			return true
		}
		syntax.Walk(call, leaves)
		for _, r := range st.Redirs {
			start, end = min(start, int(r.Pos().Offset())), max(end, int(r.End().Offset()))
			if kiloMaskedRedirect(r) {
				mask(r)
			} else {
				syntax.Walk(r, leaves)
			}
		}
		b := []byte(line)
		for _, m := range masks {
			copy(b[m[0]:m[1]], kiloMasked.ReplaceAll(b[m[0]:m[1]], []byte("_")))
		}
		patterns = append(patterns, strings.TrimSpace(string(b[start:end])))
		return true
	})
	if commands == 0 {
		patterns = append(patterns, strings.TrimSpace(line))
	}
	return patterns, external, true
}

// kiloMaskedRedirect is Mu2: a redirect Gof masks whole.
func kiloMaskedRedirect(r *syntax.Redirect) bool {
	w := r.Word.Lit()
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.RdrIn:
		return w == "/dev/null"
	case syntax.DplOut, syntax.DplIn:
		return w == "-" || regexp.MustCompile(`^[0-9]+$`).MatchString(w)
	}
	return false
}

// kiloOutside is ShellTool.argPath over a path command's operands: quotes
// around a word dropped, ~ the home, cut at the first glob character, words
// with an expansion skipped; true when one resolves outside proj.
func kiloOutside(words []string, proj string) bool {
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") || words[0] == "chmod" && strings.HasPrefix(w, "+") {
			continue
		}
		if len(w) >= 2 && (w[0] == '"' || w[0] == '\'') && w[len(w)-1] == w[0] {
			w = w[1 : len(w)-1]
		}
		if w == "~" || strings.HasPrefix(w, "~/") {
			return true
		}
		if i := strings.IndexAny(w, "?*["); i == 0 {
			continue
		} else if i > 0 {
			w = w[:i]
		}
		if strings.Contains(w, "$") || strings.Contains(w, "`") {
			continue
		}
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(proj, p)
		}
		if rel, err := filepath.Rel(proj, filepath.Clean(p)); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return true
		}
	}
	return false
}

// kiloOutcome is what Kilo does with a bash call under rules: "deny",
// "ask" or "allow" ("" where the model does not know).
func kiloOutcome(line, proj string, rules []opencodetest.Rule) string {
	patterns, external, ok := kiloCall(line, proj)
	if !ok {
		return ""
	}
	v := opencodetest.Ask("bash", patterns, rules)
	if v == "allow" && external {
		v = "ask"
	}
	return v
}

// kiloPerm is one generated permission value: keys in order, each an
// action or patterns with actions in order.
type kiloPerm []struct {
	key     string
	action  string      // a plain action
	entries [][2]string // else these
}

func (p kiloPerm) json() string {
	var parts []string
	for _, k := range p {
		kj, _ := json.Marshal(k.key)
		if k.entries == nil {
			parts = append(parts, fmt.Sprintf("%s: %q", kj, k.action))
			continue
		}
		var es []string
		for _, e := range k.entries {
			pj, _ := json.Marshal(e[0])
			es = append(es, fmt.Sprintf("%s: %q", pj, e[1]))
		}
		parts = append(parts, fmt.Sprintf("%s: {%s}", kj, strings.Join(es, ", ")))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// rules is fromConfig.
func (p kiloPerm) rules() []opencodetest.Rule {
	var out []opencodetest.Rule
	for _, k := range p {
		if k.entries == nil {
			out = append(out, opencodetest.Rule{Permission: k.key, Pattern: "*", Action: k.action})
		}
		for _, e := range k.entries {
			out = append(out, opencodetest.Rule{Permission: k.key, Pattern: e[0], Action: e[1]})
		}
	}
	return out
}

var (
	kiloKeys     = []string{"bash", "bash", "*", "b*", "ba?h", "edit"}
	kiloActions  = []string{"allow", "ask", "deny"}
	kiloPatterns = []string{"*", "git *", "git status*", "git status *", "git log *", "FOO=* *", "FOO=1 git *", "* 2>&1", "*2__1",
		"*>*", "* > out.txt", "*_/dev/null", "ls *", "gotk *", "*gotk*", "* -s", "grep *", "*\n*", "*'*", "git st*", "*status",
		"git  status", "git status", "*/*", "git */*", "git *_*", "ls *_*", "wc *", "*x.txt"}
	kiloCmds = [][]string{{"git", "status"}, {"git", "status", "-s"}, {"git", "log", "-3"}, {"ls", "-la"}, {"grep", "-n", "a;b", "x.txt"},
		{"go", "test", "./..."}, {"cat", "x.txt"}, {"cat", "/etc/passwd"}, {"wc", "-l", "x.txt"}, {"git", "diff"}, {"ls", "a b"}, {"ls", "it's"}}
	kiloAssigns = []string{"FOO=1 ", "FOO='a b' ", "FOO=$x "}
	kiloRedirs  = []string{" 2>&1", " >/dev/null", " > out.txt", " 2>/dev/null", " 2> err.txt"}
	kiloSeps    = []string{" ", " ", " ", "  ", "\t", " \\\n"}
)

// kiloLine is a generated line: simple commands, each maybe behind an
// assignment or a redirect, their words quoted one of several ways and
// spaced unevenly, joined by && || ; or a pipe, maybe after a cd.
func kiloLine(rng *rand.Rand) string {
	simple := func() string {
		c := kiloCmds[rng.IntN(len(kiloCmds))]
		var b strings.Builder
		if rng.IntN(4) == 0 {
			b.WriteString(kiloAssigns[rng.IntN(len(kiloAssigns))])
		}
		for i, w := range c {
			if i > 0 {
				b.WriteString(kiloSeps[rng.IntN(len(kiloSeps))])
			}
			if i == 0 || rng.IntN(3) > 0 {
				b.WriteString(shelltest.Spell(rng, w))
			} else {
				b.WriteString(syntaxQuote(w))
			}
		}
		if rng.IntN(4) == 0 {
			b.WriteString(kiloRedirs[rng.IntN(len(kiloRedirs))])
		}
		return b.String()
	}
	line := simple()
	if rng.IntN(8) == 0 {
		line = "cd sub && " + line
	}
	for n := rng.IntN(3); n > 0 && rng.IntN(2) == 0; n-- {
		line += []string{" && ", " || ", "; ", " | "}[rng.IntN(4)] + simple()
	}
	return line
}

// syntaxQuote is w single-quoted where it needs quoting.
func syntaxQuote(w string) string {
	q, err := syntax.Quote(w, syntax.LangBash)
	if err != nil {
		return w
	}
	return q
}

// kiloCase is one generated configuration of an agent, code or plan.
type kiloCase struct {
	name        string
	user, agent kiloPerm
	place       int // where the rules are written (kiloEngine)
}

func (c kiloCase) config() string {
	s := `{"permission": ` + c.user.json()
	if c.agent != nil {
		s += `, "agent": {"` + c.name + `": {"permission": ` + c.agent.json() + `}}`
	}
	return s + "}"
}

func (c kiloCase) rules() []opencodetest.Rule {
	out := []opencodetest.Rule{{Permission: "*", Pattern: "*", Action: "allow"}}
	out = append(out, kiloR12...)
	user := c.user.rules()
	if c.name == "plan" {
		out = append(append(append(out, kiloTd1...), user...), kiloTd1...)
		for _, r := range user {
			if r.Action == "deny" && r.Permission != "edit" {
				out = append(out, r)
			}
		}
		return append(out, c.agent.rules()...)
	}
	return append(append(out, user...), c.agent.rules()...)
}

func genKiloPerm(rng *rand.Rand) kiloPerm {
	var p kiloPerm
	seen := map[string]bool{}
	for n := rng.IntN(3); n >= 0; n-- {
		k := kiloKeys[rng.IntN(len(kiloKeys))]
		if seen[k] {
			continue
		}
		seen[k] = true
		e := struct {
			key     string
			action  string
			entries [][2]string
		}{key: k}
		if rng.IntN(5) == 0 {
			e.action = kiloActions[rng.IntN(len(kiloActions))]
		} else {
			pats := map[string]bool{}
			for m := rng.IntN(3); m >= 0; m-- {
				pat := kiloPatterns[rng.IntN(len(kiloPatterns))]
				if !pats[pat] {
					pats[pat] = true
					e.entries = append(e.entries, [2]string{pat, kiloActions[rng.IntN(len(kiloActions))]})
				}
			}
		}
		p = append(p, e)
	}
	return p
}

// kiloEngine writes c where c.place says, in a fresh home, and returns
// gotk's engine for c's agent there: 0 the project's .kilo/kilo.json, 1
// ~/.config/kilo/kilo.jsonc, 2 $KILO_CONFIG_CONTENT, 3 $KILO_PERMISSION
// with the agent's rules in the front matter of .kilo/agent/NAME.md.
func kiloEngine(t *testing.T, c kiloCase) *decision.Engine {
	t.Helper()
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	permissiontest.Write(t, filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	vars := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "GOTK_KILO_AGENT": c.name}
	switch c.place {
	case 1:
		permissiontest.Write(t, filepath.Join(home, ".config", "kilo", "kilo.jsonc"), "// mine\n"+c.config())
	case 2:
		vars["KILO_CONFIG_CONTENT"] = c.config()
		if err := os.MkdirAll(proj, 0o755); err != nil {
			t.Fatal(err)
		}
	case 3:
		vars["KILO_PERMISSION"] = c.user.json()
		if c.agent != nil {
			permissiontest.Write(t, filepath.Join(proj, ".kilo", "agent", c.name+".md"), "---\npermission: "+c.agent.json()+"\n---\nYou code.\n")
		}
	default:
		permissiontest.Write(t, filepath.Join(proj, ".kilo", "kilo.json"), c.config())
	}
	return decision.New(Host, permissiontest.Env(home, proj, vars))
}

// checkKilo: where gotk rewrites line for Kilo's agent under c, Kilo
// does with the rewrite what it would do with line.
func checkKilo(t *testing.T, e *decision.Engine, c kiloCase, line string) (rewrote bool) {
	t.Helper()
	proj := e.Env.Cwd
	d := e.Decide(decision.Request{Command: line, Cwd: proj})
	if d.Verdict != decision.AllowRewrite && d.Verdict != decision.AskRewrite {
		return false
	}
	rules := c.rules()
	before, after := kiloOutcome(line, proj, rules), kiloOutcome(d.Command, proj, rules)
	if before != "" && after != "" && before != after {
		t.Fatalf("config %s\nline %q: Kilo would %s it; gotk rewrites it to %q, which Kilo would %s", c.config(), line, before, d.Command, after)
	}
	return true
}

// TestKiloModelProperty holds gotk's decision for Kilo's code and plan
// agents against the model above, over generated configurations and
// lines.
func TestKiloModelProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	rewrites := 0
	for i := 0; i < 150; i++ {
		c := kiloCase{name: []string{"code", "code", "plan"}[rng.IntN(3)], user: genKiloPerm(rng), place: rng.IntN(4)}
		if rng.IntN(3) == 0 {
			c.agent = genKiloPerm(rng)
		}
		e := kiloEngine(t, c)
		for k := 0; k < 8; k++ {
			if checkKilo(t, e, c, kiloLine(rng)) {
				rewrites++
			}
		}
	}
	if rewrites < 50 {
		t.Errorf("only %d rewrites: the lines test little", rewrites)
	}
}

// TestKiloModelRegressions are the cases the property found, kept.
func TestKiloModelRegressions(t *testing.T) {
	perm := func(pats ...string) kiloPerm {
		p := kiloPerm{{key: "bash"}}
		for i := 0; i+1 < len(pats); i += 2 {
			p[0].entries = append(p[0].entries, [2]string{pats[i], pats[i+1]})
		}
		return p
	}
	for _, c := range []struct {
		user kiloPerm
		line string
	}{
		// Kilo matches `2_/dev/null`: its deny holds for the original only
		{perm("git *_*", "deny", "*\n*", "allow"), "git status -s 2>/dev/null"},
		{perm("git *_*", "deny"), "git log -3 2>&1"},
		// and `'a_b'` for the quoted `a;b`
		{perm("grep *a_b*", "allow"), "grep -n 'a;b' x.txt"},
		// Kilo matches the text as written, line continuations included
		{perm("git */*", "deny"), "git \\\nlog -3"},
		{perm("git  log *", "deny"), "git  log -3"},
	} {
		kc := kiloCase{name: "code", user: c.user}
		checkKilo(t, kiloEngine(t, kc), kc, c.line)
	}
}
