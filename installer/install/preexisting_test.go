package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// preexisting_test.go: the installer's promise, as a property. For any
// valid settings file a user may already have — JSON with comments,
// trailing commas, a BOM, CRLF, tabs or one line; TOML with inline arrays
// of tables, [[hooks]], quoted and dotted keys, comments — holding entries
// of the user's own (other hooks, RTK's, gotk-looking ones gotk-install did
// not add), install then uninstall through the real command gives the file
// back byte for byte and leaves nothing behind; the install itself keeps
// every foreign entry, keeps plain JSON plain, and adds exactly one entry.

// FuzzPreexistingConfigs generates documents from a seed.
func FuzzPreexistingConfigs(f *testing.F) {
	for seed := range uint64(16) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		r := rand.New(rand.NewPCG(seed, 0x90_7c))
		for _, agent := range []string{"claude", "gemini", "codex", "cursor"} {
			g := &jgen{r: r, strict: r.IntN(3) == 0}
			doc := g.document()
			roundTripAgent(t, agent, map[string]string{jsonFile[agent]: doc}, g.strict)
		}
		hooks, config := vibeDocs(r)
		roundTripAgent(t, "vibe", map[string]string{".vibe/hooks.toml": hooks, ".vibe/config.toml": config}, false)
	})
}

// jsonFile is each JSON agent's file under HOME.
var jsonFile = map[string]string{
	"claude": ".claude/settings.json",
	"gemini": ".gemini/settings.json",
	"codex":  ".codex/hooks.json",
	"cursor": ".cursor/hooks.json",
}

// roundTripAgent writes files (HOME-relative; "" content: no file), installs
// gotk for agent and uninstalls it, checking the property.
func roundTripAgent(t *testing.T, agent string, files map[string]string, strict bool) {
	t.Helper()
	e, home := testEnv(t)
	e.Getenv = func(string) string { return "" }
	for name, content := range files {
		if content == "\x00none" {
			continue
		}
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, home)
	out := &bytes.Buffer{}
	e.Stdout, e.Stderr = out, out
	if c := Main([]string{"--agent", agent, "--yes"}, e); c != 0 {
		t.Fatalf("%s: install of a valid file failed (exit %d): %s\n%s", agent, c, out, dump(files))
	}
	for name, content := range files {
		if content == "\x00none" || !strings.HasSuffix(name, ".json") {
			continue
		}
		got, err := os.ReadFile(filepath.Join(home, name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := agentconf.ParseJSONC(got); err != nil {
			t.Fatalf("%s: install made %s unreadable: %v\n%s", agent, name, err, got)
		}
		if strict && !json.Valid(bytes.TrimPrefix(got, []byte("\uFEFF"))) {
			t.Fatalf("%s: install made plain JSON into something else:\n%s\n---\n%s", agent, content, got)
		}
		hook := shellQuote(filepath.Join(e.BinDir, "gotk-hook-"+agent))
		// One entry of gotk's own; none beside a gotk hook made by hand
		// that runs for the same tool, and then a note says so.
		if n := strings.Count(string(got), quoteJSON(hook)); n != 1 && (n != 0 || !strings.Contains(out.String(), "adds no second one")) {
			t.Fatalf("%s: %d entries of gotk's in:\n%s", agent, n, got)
		}
		for _, c := range foreignCommands {
			if w, g := strings.Count(content, quoteJSON(c)), strings.Count(string(got), quoteJSON(c)); w != g {
				t.Fatalf("%s: %q occurs %d times after install, %d before:\n%s", agent, c, g, w, got)
			}
		}
	}
	if agent == "vibe" {
		got, _ := os.ReadFile(filepath.Join(home, ".vibe", "hooks.toml"))
		if !strings.Contains(vibeCommandOf(t, got), "/gotk-hook-vibe") {
			t.Fatalf("vibe: no gotk hook after install:\n%s", got)
		}
	}
	out.Reset()
	if c := Main([]string{"--agent", agent, "--uninstall", "--yes"}, e); c != 0 {
		t.Fatalf("%s: uninstall failed (exit %d): %s\n%s", agent, c, out, dump(files))
	}
	after := snapshot(t, home)
	for p, b := range before {
		if after[p] != b {
			t.Fatalf("%s: %s after install and uninstall:\n%q\nbefore:\n%q\n%s", agent, p, after[p], b, out)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Fatalf("%s: %s left behind after uninstall", agent, p)
		}
	}
}

// snapshot maps every file and folder under root to its content ("/" for
// a folder).
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		if d.IsDir() {
			m[p] = "/"
			return nil
		}
		b, err := os.ReadFile(p)
		m[p] = string(b)
		return err
	})
	return m
}

func dump(files map[string]string) string {
	var b strings.Builder
	for n, c := range files {
		fmt.Fprintf(&b, "-- %s --\n%q\n", n, c)
	}
	return b.String()
}

func quoteJSON(s string) string { b, _ := json.Marshal(s); return string(b) }

func vibeCommandOf(t *testing.T, b []byte) string {
	var doc struct {
		Hooks []struct{ Name, Command string } `toml:"hooks"`
	}
	if _, err := toml.Decode(string(b), &doc); err != nil {
		t.Fatalf("vibe: hooks.toml does not parse after install: %v\n%s", err, b)
	}
	for _, h := range doc.Hooks {
		if h.Name == "gotk" {
			return h.Command
		}
	}
	return ""
}

// foreignCommands are the users' own hook commands, some of which look
// like gotk's.
var foreignCommands = []string{
	"audit-log", "rtk hook claude", "/opt/old/gotk-hook-claude --debug", "/home/u/go/bin/gotk-hook-gemini",
	"'/with space/gotk-hook-codex'", `echo "done" | tee -a ~/log`, "lint.sh ✓ é", "/usr/bin/gotk-hook-cursor",
}

// jgen writes a random JSONC settings document.
type jgen struct {
	r      *rand.Rand
	strict bool   // plain JSON: no comment, no trailing comma, no BOM
	nl     string // line end
	unit   string // one level of indentation; "" writes one line
	b      strings.Builder
}

func (g *jgen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *jgen) document() string {
	g.nl = g.pick("\n", "\n", "\r\n")
	g.unit = g.pick("  ", "    ", "\t", "")
	if !g.strict && g.r.IntN(8) == 0 {
		g.b.WriteString("\uFEFF")
	}
	if !g.strict && g.r.IntN(4) == 0 {
		g.comment(0)
	}
	g.object(0, g.rootMembers())
	if g.r.IntN(3) > 0 {
		g.b.WriteString(g.nl)
	}
	return g.b.String()
}

type member struct {
	k string
	v any
}

// rootMembers are the settings: hooks with the users' own entries for
// every agent's event, and other keys.
func (g *jgen) rootMembers() []member {
	var ms []member
	if g.r.IntN(2) == 0 {
		ms = append(ms, member{"model", g.pick("opus", "sonnet", `a "quoted" name`, "é✓")})
	}
	if g.r.IntN(2) == 0 {
		ms = append(ms, member{"permissions", []member{{"allow", []any{"Bash(git status)", "Read(*)"}}, {"deny", []any{}}}})
	}
	if g.r.IntN(5) > 0 {
		var hooks []member
		for _, ev := range g.r.Perm(5) {
			switch ev {
			case 0:
				hooks = append(hooks, member{"PreToolUse", g.groups("Bash", "Edit|Write", "")})
			case 1:
				hooks = append(hooks, member{"BeforeTool", g.groups("run_shell_command", "write_file", "*")})
			case 2:
				hooks = append(hooks, member{"preToolUse", g.flat()})
			case 3:
				hooks = append(hooks, member{"Stop", g.groups("")})
			}
		}
		ms = append(ms, member{"hooks", hooks})
	}
	if g.r.IntN(3) == 0 {
		ms = append(ms, member{"version", 1})
	}
	if g.r.IntN(3) == 0 {
		ms = append(ms, member{"nested", []member{{"x", []any{1.5, true, nil, -3, "s", []member{}}}}})
	}
	g.r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	return ms
}

func (g *jgen) handler() []member {
	h := []member{{"type", "command"}, {"command", foreignCommands[g.r.IntN(len(foreignCommands))]}}
	if g.r.IntN(2) == 0 {
		h = append(h, member{"timeout", g.r.IntN(60) + 1})
	}
	return h
}

func (g *jgen) groups(matchers ...string) []any {
	var arr []any
	for range g.r.IntN(4) {
		var hs []any
		for range g.r.IntN(3) + 1 {
			hs = append(hs, g.handler())
		}
		grp := []member{}
		if m := matchers[g.r.IntN(len(matchers))]; m != "" {
			grp = append(grp, member{"matcher", m})
		}
		arr = append(arr, append(grp, member{"hooks", hs}))
	}
	return arr
}

func (g *jgen) flat() []any {
	var arr []any
	for range g.r.IntN(3) {
		arr = append(arr, []member{{"command", foreignCommands[g.r.IntN(len(foreignCommands))]}, {"matcher", g.pick("Shell", "Read")}})
	}
	return arr
}

// space writes what goes between tokens at depth: a line break and
// indentation, or a space, and now and then a comment.
func (g *jgen) space(depth int) {
	if g.unit == "" {
		g.b.WriteString(g.pick("", " "))
		if !g.strict && g.r.IntN(10) == 0 {
			g.b.WriteString("/* c */ ")
		}
		return
	}
	if !g.strict && g.r.IntN(8) == 0 {
		g.b.WriteString(g.nl + strings.Repeat(g.unit, depth))
		g.comment(depth)
		return
	}
	g.b.WriteString(g.nl + strings.Repeat(g.unit, depth))
}

func (g *jgen) comment(depth int) {
	if g.unit == "" || g.r.IntN(2) == 0 {
		g.b.WriteString("/* " + g.pick("note", "a, b: {c}", "// x") + " */ ")
		return
	}
	g.b.WriteString("// " + g.pick("why", "http://x/y", "é") + g.nl + strings.Repeat(g.unit, depth))
}

func (g *jgen) value(v any, depth int) {
	switch v := v.(type) {
	case []member:
		g.object(depth, v)
	case []any:
		g.array(depth, v)
	default:
		b, _ := json.Marshal(v)
		g.b.Write(b)
	}
}

func (g *jgen) object(depth int, ms []member) {
	g.b.WriteByte('{')
	for i, m := range ms {
		g.space(depth + 1)
		k, _ := json.Marshal(m.k)
		g.b.Write(k)
		g.b.WriteString(g.pick(": ", ":", " : "))
		g.value(m.v, depth+1)
		if i < len(ms)-1 || !g.strict && g.r.IntN(3) == 0 {
			g.b.WriteByte(',')
		}
	}
	if len(ms) > 0 {
		g.space(depth)
	}
	g.b.WriteByte('}')
}

func (g *jgen) array(depth int, xs []any) {
	g.b.WriteByte('[')
	for i, x := range xs {
		g.space(depth + 1)
		g.value(x, depth+1)
		if i < len(xs)-1 || !g.strict && g.r.IntN(3) == 0 {
			g.b.WriteByte(',')
		}
	}
	if len(xs) > 0 {
		g.space(depth)
	}
	g.b.WriteByte(']')
}

// vibeDocs writes a random Vibe hooks.toml and config.toml ("\x00none":
// no such file).
func vibeDocs(r *rand.Rand) (hooks, config string) {
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	nl := pick("\n", "\n", "\r\n")
	var b strings.Builder
	line := func(s string) { b.WriteString(s + nl) }
	str := func() string {
		return pick(`"audit.sh"`, `'lint "x,]"'`, `"/opt/old/gotk-hook-vibe --debug"`, `"say \"hi\" \u00e9"`, `'C:\tools\x'`)
	}
	hook := func(name string, inline bool) string {
		kv := []string{"name = " + name, `type = "` + pick("pre_tool", "post_tool") + `"`, "command = " + str()}
		if r.IntN(2) == 0 {
			kv = append(kv, `match = "`+pick("bash", "write_file")+`"`)
		}
		if r.IntN(2) == 0 {
			kv = append(kv, "timeout = "+pick("5", "2.5", "10.0"))
		}
		if inline {
			return "{ " + strings.Join(kv, ", ") + " }"
		}
		return strings.Join(kv, nl)
	}
	names := []string{`"rtk"`, `"audit"`, `'gotk-old'`, `"lint"`}
	if r.IntN(4) == 0 {
		line("# " + pick("my hooks", "é ✓", "hooks = [ not this ]"))
	}
	top := []string{`site.name = "x"`, `"quoted key" = 1`, `a.b.c = true`, `when = 1979-05-27T07:32:00Z`, `list = [1, 2, ]`, `s = 'C:\path'`}
	for _, i := range r.Perm(len(top))[:r.IntN(3)] {
		line(top[i])
	}
	switch form := r.IntN(3); form {
	case 0: // inline array
		n := r.IntN(3)
		key := pick("hooks", `"hooks"`, "hooks ")
		if r.IntN(2) == 0 { // one line
			var hs []string
			for i := range n {
				hs = append(hs, hook(names[i], true))
			}
			trail := ""
			if n > 0 && r.IntN(3) == 0 {
				trail = ","
			}
			line(key + "= [" + pick(" ", "") + strings.Join(hs, ", ") + trail + pick(" ", "") + "]" + pick("", "  # mine"))
		} else {
			line(key + " = [")
			for i := range n {
				if r.IntN(3) == 0 {
					line("  # " + pick("a comment, ] with a bracket", "next"))
				}
				sep := ","
				if i == n-1 && r.IntN(2) == 0 {
					sep = ""
				}
				line("  " + hook(names[i], true) + sep + pick("", "  # why"))
			}
			line("]")
		}
	case 1: // [[hooks]] tables
		for i := range r.IntN(3) + 1 {
			if i > 0 || r.IntN(2) == 0 {
				line("")
			}
			line("[[hooks]]")
			line(hook(names[i], false))
			if r.IntN(3) == 0 {
				line(`env.LEVEL = "debug"`)
			}
		}
	}
	if r.IntN(3) == 0 {
		line("")
		line("[" + pick("other", `"x.y"`, "tools.t") + "]")
		line("k = " + str())
	}
	hooks = b.String()
	if r.IntN(5) == 0 {
		hooks = "\x00none"
	}
	switch r.IntN(5) {
	case 0:
		config = "\x00none"
	case 1:
		config = "active_model = \"devstral\"" + nl
	case 2:
		config = pick("enable_experimental_hooks", `"enable_experimental_hooks"`) + " = false" + pick("", "  # off") + nl + nl + "[models.x]" + nl + "name = \"y\"" + nl
	case 3:
		config = "enable_experimental_hooks = true" + nl
	default:
		config = "# vibe" + nl + "[tools.bash]" + nl + "allow = [\"ls\"]" + nl
	}
	for _, d := range []string{hooks, config} {
		if d == "\x00none" {
			continue
		}
		var v map[string]any
		if _, err := toml.Decode(d, &v); err != nil {
			panic(fmt.Sprintf("generated TOML does not parse: %v\n%s", err, d))
		}
	}
	return hooks, config
}
