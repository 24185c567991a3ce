package permission_test

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hosts/claude"
)

// claudeRule is one Bash rule as Claude Code 2.1.328 reads it, transcribed
// from the JavaScript bundled in @anthropic-ai/claude-code-linux-x64's
// `claude` binary (functions aot, JUt, s0i, Xse and the rule filter that
// calls them, minified names of that build):
//   - content ending in ":*" is a prefix rule (its prefix may hold a
//     literal star);
//   - else content with an unescaped "*" is a wildcard;
//   - else an exact rule.
type claudeRule struct {
	kind, body string
	tool       bool // the bare tool name: every command
}

func parseClaudeRule(entry string) (claudeRule, bool) {
	if entry == "Bash" {
		return claudeRule{tool: true}, true
	}
	if !strings.HasPrefix(entry, "Bash(") || !strings.HasSuffix(entry, ")") {
		return claudeRule{}, false
	}
	c := entry[len("Bash(") : len(entry)-1]
	if m := regexp.MustCompile(`^(.+):\*$`).FindStringSubmatch(c); m != nil {
		return claudeRule{kind: "prefix", body: m[1]}, true
	}
	for i := 0; i < len(c); i++ {
		if c[i] == '*' {
			n := 0
			for j := i - 1; j >= 0 && c[j] == '\\'; j-- {
				n++
			}
			if n%2 == 0 {
				return claudeRule{kind: "wildcard", body: c}, true
			}
		}
	}
	return claudeRule{kind: "exact", body: c}, true
}

var claudeSpaces = regexp.MustCompile(`[ \t]+`)

// matches is the rule filter in "prefix" mode, for one candidate: exact
// rules by string equality; prefix rules, spaces folded, as the command
// itself, a word-boundary prefix of it, or either behind `xargs `;
// wildcards by Xse(pattern, cmd, false, true).
func (r claudeRule) matches(cmd string) bool {
	switch {
	case r.tool:
		return true
	case r.kind == "exact":
		return r.body == cmd
	case r.kind == "prefix":
		p, c := claudeSpaces.ReplaceAllString(r.body, " "), claudeSpaces.ReplaceAllString(cmd, " ")
		return c == p || strings.HasPrefix(c, p+" ") || c == "xargs "+p || strings.HasPrefix(c, "xargs "+p+" ")
	}
	return claudeXse(r.body, cmd)
}

// claudeXse follows Xse step by step: escaped stars and backslashes to
// placeholders, regex metacharacters escaped, "/**/" runs to a globstar,
// every star to ".*", the placeholders back, and a lone trailing " .*"
// made optional; the regular expression is anchored and dot-all.
func claudeXse(pattern, cmd string) bool {
	const star, backslash, globstar = "\x00ESCAPED_STAR\x00", "\x00ESCAPED_BACKSLASH\x00", "\x00GLOBSTAR\x00"
	u := claudeSpaces.ReplaceAllString(strings.TrimSpace(pattern), " ")
	g := claudeSpaces.ReplaceAllString(cmd, " ")
	f := strings.NewReplacer(`\*`, star, `\\`, backslash).Replace(u)
	b := regexp.MustCompile(`[.+?^${}()|[\]\\'"]`).ReplaceAllString(f, `\$0`)
	b = regexp.MustCompile(`/(?:\*\*/)+`).ReplaceAllString(b, globstar)
	b = strings.ReplaceAll(b, "*", ".*")
	b = strings.NewReplacer(globstar, "/(?:.*/)?", star, `\*`, backslash, `\\`).Replace(b)
	if strings.HasSuffix(b, " .*") && strings.Count(f, "*") == 1 {
		b = strings.TrimSuffix(b, " .*") + "( .*)?"
	}
	return regexp.MustCompile(`(?s)^` + b + `$`).MatchString(g)
}

// claudeSafeEnv are the assignments Claude strips before an allow rule
// (its set imt); before deny and ask rules it strips every assignment.
var claudeSafeEnv = map[string]bool{"NODE_ENV": true, "LANG": true, "GOOS": true, "RUST_LOG": true, "NO_COLOR": true, "CI": true}

var claudeAssign = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=\S*\s+`)

// claudeCandidates are the spellings of one simple command a rule is
// tested against: redirections stripped, then leading assignments (all,
// or only safe ones for allow rules).
func claudeCandidates(sub string, all bool) []string {
	c := strings.TrimSpace(regexp.MustCompile(`\s*(2>&1|>\s*\S+)`).ReplaceAllString(sub, ""))
	out := []string{c}
	for {
		m := claudeAssign.FindStringSubmatch(c)
		if m == nil || !all && !claudeSafeEnv[m[1]] {
			break
		}
		c = c[len(m[0]):]
		out = append(out, c)
	}
	return out
}

type claudeRules struct{ deny, ask, allow []claudeRule }

func (rs claudeRules) hit(list []claudeRule, sub string, all bool) bool {
	for _, r := range list {
		for _, c := range claudeCandidates(sub, all) {
			if r.matches(c) {
				return true
			}
		}
	}
	return false
}

// original is Claude's verdict on a line with no hook: each command of
// the line checked alone; any deny denies, any ask asks, all allowed
// runs; otherwise the default mode asks. A file redirect may bring
// Claude's path checks in, which the model leaves out.
func (rs claudeRules) original(line string) outcome {
	subs := splitLine(line)
	for _, s := range subs {
		if rs.hit(rs.deny, s, true) {
			return outDeny
		}
	}
	for _, s := range subs {
		if rs.hit(rs.ask, s, true) {
			return outAsk
		}
	}
	for _, s := range subs {
		if !rs.hit(rs.allow, s, false) {
			return outAsk
		}
	}
	if regexp.MustCompile(`>\s*[^&\s]`).MatchString(line) {
		return outUnknown
	}
	return outRun
}

// after: a hook's allow skips Claude's prompt but not its deny and ask
// rules, which it tests on the updated (rewritten) command; a hook's ask
// asks unless a deny rule matches.
func (rs claudeRules) after(rewritten string, answer decision.Verdict) outcome {
	subs := splitLine(rewritten)
	for _, s := range subs {
		if rs.hit(rs.deny, s, true) {
			return outDeny
		}
	}
	if answer == decision.AskRewrite {
		return outAsk
	}
	for _, s := range subs {
		if rs.hit(rs.ask, s, true) {
			return outAsk
		}
	}
	return outRun
}

// TestClaudeModelProperty holds gotk's decision for Claude Code against
// the model above over generated settings and lines.
func TestClaudeModelProperty(t *testing.T) {
	entries := []string{
		"Bash", "Bash(*)", "Bash(git:*)", "Bash(git push:*)", "Bash(git push *)", "Bash(git status)",
		"Bash(git status -s)", "Bash(git*)", "Bash(git * main)", "Bash(* push *)", "Bash(gotk *)", "Bash(gotk:*)",
		"Bash(* status)", "Bash(git * log:*)", "Bash(git:* push)", "Bash(ls *)", "Bash(ls:*)", "Bash(go test:*)",
		"Bash(FOO=1 git *)", "Bash(git status 2>&1)", "Bash(git *status*)", "Bash(* git status)", "Bash(git log *)",
		"Bash(git  status)", "Bash(go *)", "Bash(ls -la)", "Bash(git \\* main)",
	}
	cmds := []string{"git status", "git status -s", "git log -3", "git push origin main", "git diff", "ls -la", "go test", "go vet", "git log main"}
	envs := []string{"", "", "", "NODE_ENV=x ", "FOO=1 ", "GIT_SSH_COMMAND=x "}
	redirs := []string{"", "", "", " 2>&1", " > out.txt"}
	rng := rand.New(rand.NewSource(7))
	home := t.TempDir()
	for i := 0; i < 600; i++ {
		var rs claudeRules
		lists := map[string][]string{}
		for n := rng.Intn(4); n >= 0; n-- {
			e := pick(rng, entries)
			r, _ := parseClaudeRule(e)
			switch k := rng.Intn(3); k {
			case 0:
				rs.deny, lists["deny"] = append(rs.deny, r), append(lists["deny"], e)
			case 1:
				rs.ask, lists["ask"] = append(rs.ask, r), append(lists["ask"], e)
			default:
				rs.allow, lists["allow"] = append(rs.allow, r), append(lists["allow"], e)
			}
		}
		js := fmt.Sprintf(`{"permissions":{"deny":%s,"ask":%s,"allow":%s}}`, jsonList(lists["deny"]), jsonList(lists["ask"]), jsonList(lists["allow"]))
		c := &modelCase{host: claude.Host, home: filepath.Join(home, fmt.Sprint(i)), files: map[string]string{".claude/settings.json": js}}
		c.proj = filepath.Join(c.home, "proj")
		c.vars = map[string]string{"CLAUDE_PROJECT_DIR": c.proj}
		e := c.engine(t)
		for k := 0; k < 6; k++ {
			line := genLine(rng, func() string { return pick(rng, envs) + pick(rng, cmds) + pick(rng, redirs) })
			checkParity(t, "settings "+js, e, line, rs.original(line), rs.after)
		}
	}
}

// TestClaudeModelXse pins the transcribed wildcard matcher.
func TestClaudeModelXse(t *testing.T) {
	for _, c := range []struct {
		p, cmd string
		want   bool
	}{
		{"git *", "git", true}, {"git *", "git status", true}, {"git *", "gitx", false},
		{"git * main", "git main", false}, {"git * main", "git push main", true},
		{"git*", "gitx", true}, {"* status", "git status", true}, {`git \* main`, "git * main", true},
		{`git \* main`, "git x main", false}, {"git *", "git a\nb", true},
	} {
		if got := claudeXse(c.p, c.cmd); got != c.want {
			t.Errorf("Xse(%q, %q) = %v, want %v", c.p, c.cmd, got, c.want)
		}
	}
}

func jsonList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return "[" + strings.Join(q, ",") + "]"
}

// TestClaudeModelRegressions are the cases the property found, kept.
func TestClaudeModelRegressions(t *testing.T) {
	for i, c := range []struct {
		deny, ask, allow []string
		line             string
	}{
		{nil, nil, []string{"Bash(git  status)"}, "git status"},                     // exact rules are not space-folded
		{[]string{"Bash(gotk *)"}, nil, nil, "go vet"},                              // a deny rule on the rewrite
		{nil, nil, []string{"Bash(git*)"}, "NODE_ENV=x git diff 2>&1"},              // a safe assignment Claude strips
		{nil, []string{"Bash(FOO=1 git *)"}, []string{"Bash(*)"}, "FOO=1 git diff"}, // ask on the text
		{nil, nil, []string{"Bash(FOO=1 git *)"}, "FOO=1 git diff 2>&1"},            // allow on the text
		{nil, nil, []string{"Bash(git * log:*)"}, "git log main"},                   // a literal star
		{nil, []string{"Bash(git  status)"}, []string{"Bash(* status)"}, "git status 2>&1"},
		{nil, []string{"Bash(gotk *)"}, []string{"Bash(*)"}, "FOO=1 git log main 2>&1"},     // an ask on the rewrite
		{nil, []string{"Bash(git status 2>&1)"}, []string{"Bash(git*)"}, "git status 2>&1"}, // Claude removes the redirection
	} {
		var rs claudeRules
		for _, l := range []struct {
			src []string
			dst *[]claudeRule
		}{{c.deny, &rs.deny}, {c.ask, &rs.ask}, {c.allow, &rs.allow}} {
			for _, e := range l.src {
				r, _ := parseClaudeRule(e)
				*l.dst = append(*l.dst, r)
			}
		}
		js := fmt.Sprintf(`{"permissions":{"deny":%s,"ask":%s,"allow":%s}}`, jsonList(c.deny), jsonList(c.ask), jsonList(c.allow))
		mc := &modelCase{host: claude.Host, home: filepath.Join(t.TempDir(), fmt.Sprint(i)), files: map[string]string{".claude/settings.json": js}}
		mc.proj = filepath.Join(mc.home, "proj")
		mc.vars = map[string]string{"CLAUDE_PROJECT_DIR": mc.proj}
		checkParity(t, "settings "+js, mc.engine(t), c.line, rs.original(c.line), rs.after)
	}
}
