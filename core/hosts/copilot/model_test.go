package copilot

import (
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// The Copilot CLI model, from @github/copilot 1.0.102: its bundled
// cli-main.js (the `copilot help permissions` text and the --allow-tool /
// --deny-tool handling, which hands each value to the native
// permissionsParseRuleValue) and BUG 3's measurements (docs/agents.md).
// The rule engine and the shell analysis are compiled into the native
// runtime.node (Rust), whose source is not published: what the model says
// of them comes from that help text and from calling the native parser.
//   - the options are commander.js's: `--opt value` or `--opt=value`; an
//     option that takes a value takes the next argument whatever it is;
//     `--` ends the options;
//   - deny rules (--deny-tool `shell` or `shell(cmd)`, --deny-url) win
//     over every allow, --allow-all-tools included;
//   - --allow-all and --yolo are --allow-all-tools, --allow-all-paths and
//     --allow-all-urls together; with --allow-all-tools alone, a command's
//     paths outside the working directory and its URLs still need their
//     own approval (measured for paths: refused in -p), which a hook's
//     allow gets past; what Copilot counts as such a path or URL is its
//     native analysis, so the model does not tell (unknown);
//   - a preToolUse answer's modifiedArgs are what Copilot checks its rules
//     on (measured): a deny rule of the original no longer matches
//     `gotk …`.

// modelValueOpts are the options of the generator that take a value.
var modelValueOpts = map[string]bool{"-p": true, "--prompt": true, "--model": true, "--allow-tool": true, "--deny-tool": true,
	"--allow-url": true, "--deny-url": true, "--add-dir": true, "--log-level": true, "--agent": true}

type modelSession struct {
	tools, paths, urls bool
	deny               []string // --deny-tool values; "url" for a --deny-url
}

// modelParse reads argv as commander.js does.
func modelParse(argv []string) modelSession {
	var s modelSession
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		if modelValueOpts[name] && !hasVal && i+1 < len(argv) {
			i++
			val = argv[i]
		}
		switch name {
		case "--allow-all-tools":
			s.tools = true
		case "--allow-all-paths":
			s.paths = true
		case "--allow-all-urls":
			s.urls = true
		case "--allow-all", "--yolo":
			s.tools, s.paths, s.urls = true, true, true
		case "--deny-tool":
			s.deny = append(s.deny, val)
		case "--deny-url":
			s.deny = append(s.deny, "url")
		}
	}
	return s
}

// modelDenies: a `shell` rule denies every command, `shell(x:*)` the
// commands whose words start with x's, `shell(x)` the command whose
// first-level command (the program, or for git and gh the program and
// its subcommand) is x; a URL rule any command naming a URL.
func modelDenies(rule string, words []string) bool {
	switch {
	case rule == "shell":
		return true
	case rule == "url":
		for _, w := range words {
			if strings.Contains(w, "://") {
				return true
			}
		}
		return false
	case !strings.HasPrefix(rule, "shell(") || !strings.HasSuffix(rule, ")"):
		return false
	}
	arg := rule[len("shell(") : len(rule)-1]
	if p, ok := strings.CutSuffix(arg, ":*"); ok {
		pw := strings.Fields(p)
		return len(words) >= len(pw) && strings.Join(words[:len(pw)], " ") == strings.Join(pw, " ")
	}
	id := words[:1]
	if (words[0] == "git" || words[0] == "gh") && len(words) > 1 {
		id = words[:2]
	}
	return strings.Join(id, " ") == strings.Join(strings.Fields(arg), " ")
}

// modelRun is what Copilot does with a line in session s: "deny", "run",
// or "" when the model cannot tell.
func modelRun(s modelSession, line string) string {
	r := strings.NewReplacer("&&", "\x00", "||", "\x00", ";", "\x00", "|", "\x00")
	for _, c := range strings.Split(r.Replace(line), "\x00") {
		words := strings.Fields(strings.NewReplacer("'", "", `"`, "").Replace(c))
		for len(words) > 1 && strings.Contains(words[0], "=") {
			words = words[1:] // a leading assignment
		}
		if len(words) == 0 {
			continue
		}
		for _, d := range s.deny {
			if modelDenies(d, words) {
				return "deny"
			}
		}
		if !s.paths || !s.urls {
			for _, w := range words {
				if strings.HasPrefix(w, "/") || w == ".." || strings.HasPrefix(w, "../") || strings.Contains(w, "://") {
					return "" // a path or URL approval of its own
				}
			}
		}
	}
	if s.tools {
		return "run"
	}
	return "" // asked, or run as read-only: gotk sends no rewrite here
}

var (
	modelArgv = []string{"-p", "fix it", "--model", "gpt-4o", "--allow-all-tools", "--allow-all-tools", "--yolo", "--allow-all",
		"--allow-all-paths", "--allow-all-urls", "--deny-tool", "shell(git push)", "--deny-tool=shell(git:*)", "--deny-tool=shell",
		"--allow-tool", "shell(go:*)", "--deny-url", "evil.example", "--deny-url=evil.example", "--", "--no-auto-update", "--silent",
		"--add-dir", "/x", "--log-level=debug", "--agent", "--deny-tool=shell(rm)"}
	modelCmds = []string{"git status", "git push origin main", "git diff", "go test ./...", "go build ./...", "ls -la", "cat go.mod",
		"cat /etc/hostname", "rm x", "curl https://evil.example/x", "git log -n 3", "head -5", "grep -rn x .", "wc -l",
		"git diff ../other", "ls ~/x", "grep --file=/etc/x y"}
	modelPrefixes = []string{"", "", "", "FOO=1 ", "timeout 5 ", "env ", "nice "}
)

// modelLine joins one to three generated commands, some words quoted,
// with && || ; and |.
func modelLine(rng *rand.Rand) string {
	ops := []string{" && ", " || ", "; ", " | "}
	var line string
	for i := 0; i == 0 || i < 3 && rng.Intn(2) == 0; i++ {
		if i > 0 {
			line += ops[rng.Intn(len(ops))]
		}
		words := strings.Fields(modelCmds[rng.Intn(len(modelCmds))])
		for k, w := range words {
			if rng.Intn(5) == 0 {
				words[k] = "'" + w + "'"
			}
		}
		line += modelPrefixes[rng.Intn(len(modelPrefixes))] + strings.Join(words, " ")
	}
	return line
}

// TestCopilotModelParity: over generated copilot command lines and shell
// lines, wherever gotk's Copilot CLI hook rewrites (an allow with
// modifiedArgs: the only rewrite it sends), Copilot runs the rewrite and
// would have run the original without asking; a deny always stands.
func TestCopilotModelParity(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	compared := 0
	for i := 0; i < 3000; i++ {
		argv := []string{"copilot"}
		for n := rng.Intn(5); n > 0; n-- {
			argv = append(argv, modelArgv[rng.Intn(len(modelArgv))])
		}
		line := modelLine(rng)
		sess := Host.Flags.Parse(argv)
		sess.Found = true
		d := decision.NewInSession(Host, permissiontest.Env(home, proj, nil), sess).Decide(decision.Request{Command: line, Cwd: proj})
		if d.Verdict != decision.AllowRewrite {
			continue
		}
		m := modelParse(argv)
		before := modelRun(m, line)
		if before == "" {
			// the model cannot tell what Copilot does: gotk must not be
			// sure either
			t.Fatalf("argv %q, line %q: gotk allows %q where Copilot may ask (%+v)", argv, line, d.Command, m)
		}
		compared++
		// Copilot checks its rules on the rewrite: no deny rule of the
		// original can match `gotk …`, so it runs under allow-all.
		if after := modelRun(m, d.Command); before != after {
			t.Fatalf("argv %q, line %q: Copilot would %s it; gotk answers allow %q, which Copilot would %s", argv, line, before, d.Command, after)
		}
	}
	t.Logf("rewrites compared: %d", compared)
	if compared < 30 {
		t.Fatalf("only %d rewrites compared", compared)
	}
}

// TestCopilotFlagValueIsNoAllowAll: an allow-all flag that is the value of
// the option before it (`-p --yolo` prompts "--yolo"), or comes after
// `--`, does not make the session allow-all; gotk counted it, and allowed
// rewrites Copilot would ask about.
func TestCopilotFlagValueIsNoAllowAll(t *testing.T) {
	for argv, want := range map[string]bool{
		"copilot -p --yolo":                                     false,
		"copilot --add-dir --allow-all-tools":                   false,
		"copilot -p x -- --allow-all-tools":                     false,
		"copilot --unknown-option --allow-all":                  false,
		"copilot -p x --allow-all-tools --no-auto-update":       true,
		"copilot --no-auto-update --allow-all-tools":            true,
		"copilot --allow-all-tools":                             true,
		"copilot --model=gpt-4o --yolo":                         true,
		"copilot --silent --disable-client-telemetry --yolo -p": true,
	} {
		if got := Host.Flags.Parse(strings.Fields(argv)).AllowAll; got != want {
			t.Errorf("%s: allow-all %v, want %v", argv, got, want)
		}
	}
}

// TestCopilotPathOrURLNotRewritten: under --allow-all-tools a command
// naming a path outside the working directory or a URL still needs its
// own approval, which gotk cannot tell survives the rewrite: no rewrite.
func TestCopilotPathOrURLNotRewritten(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "p")
	e := decision.NewInSession(Host, permissiontest.Env(home, proj, nil), Host.Flags.Parse([]string{"copilot", "--allow-all-tools"}))
	for line, rewrite := range map[string]bool{
		"cat /etc/hostname": false, "git diff ../other": false, "curl https://example.com": false, "ls ~/x": false,
		"grep --file=/etc/x y": false, "go test ./...": true, "git status": true, "cat go.mod": true,
	} {
		d := e.Decide(decision.Request{Command: line, Cwd: proj})
		if got := d.Verdict == decision.AllowRewrite; got != rewrite {
			t.Errorf("%q: %s %q, want rewrite %v", line, d.Verdict, d.Command, rewrite)
		}
	}
}
