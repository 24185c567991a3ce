package permission_test

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hosts/vibe"
)

// vibeModel is Mistral Vibe's bash permission, transcribed from
// mistralai/mistral-vibe@06ad8a6 vibe/core/tools/builtins/bash.py
// (_extract_commands, _matches_pattern, _resolve_guardrail_permission,
// _is_unconditionally_allowed): each command of the line is its words
// (assignments left out, " <redirect>" added when redirected); any
// command a denylist entry starts (word boundary) or a one-word
// denylist_standalone entry names is refused; the line runs when no
// command's first word is sensitive and the tool's permission is "always"
// or every command is on the allowlist; otherwise Vibe asks. A list the
// file sets replaces Vibe's default one.
type vibeModel struct {
	allow, deny, standalone, sensitive []string
	always                             bool
}

var vibeAssign = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=\S*\s+`)

func (m vibeModel) parts(line string) []string {
	var out []string
	for _, s := range splitLine(line) {
		redirected := strings.Contains(s, ">")
		s = strings.TrimSpace(regexp.MustCompile(`\s*\d*>&?\s*\S+`).ReplaceAllString(s, ""))
		for vibeAssign.MatchString(s) {
			s = s[len(vibeAssign.FindString(s)):]
		}
		if redirected {
			s += " <redirect>"
		}
		out = append(out, s)
	}
	return out
}

func vibePrefix(c, p string) bool { return c == p || strings.HasPrefix(c, p+" ") }

func (m vibeModel) outcome(line string) outcome {
	parts := m.parts(line)
	for _, p := range parts {
		for _, d := range m.deny {
			if vibePrefix(p, d) {
				return outDeny
			}
		}
		if f := strings.Fields(p); len(f) == 1 && (contains(m.standalone, f[0]) || contains(m.standalone, filepath.Base(f[0]))) {
			return outDeny
		}
	}
	all := true
	for _, p := range parts {
		if f := strings.Fields(p); len(f) > 0 && contains(m.sensitive, f[0]) {
			return outAsk
		}
		ok := false
		for _, a := range m.allow {
			ok = ok || vibePrefix(p, a)
		}
		all = all && ok
	}
	if m.always || all {
		return outRun
	}
	return outAsk
}

// after: Vibe's hook answer carries no decision; Vibe decides on the
// rewritten command.
func (m vibeModel) after(rewritten string, _ decision.Verdict) outcome { return m.outcome(rewritten) }

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

var vibeDefaults = vibeModel{
	allow: []string{"cd", "echo", "git diff", "git log", "git status", "tree", "whoami", "basename", "cat", "comm", "cut", "date",
		"diff", "dirname", "du", "file", "find", "fmt", "fold", "grep", "head", "join", "less", "ls", "md5sum", "more", "nl",
		"od", "paste", "pwd", "readlink", "sha1sum", "sha256sum", "shasum", "sort", "stat", "sum", "tac", "tail", "tr",
		"uname", "uniq", "wc", "which"},
	deny: []string{"gdb", "pdb", "passwd", "nano", "vim", "vi", "emacs", "bash -i", "sh -i", "zsh -i", "fish -i", "dash -i",
		"screen", "tmux"},
	standalone: []string{"python", "python3", "ipython", "bash", "sh", "nohup", "vi", "vim", "emacs", "nano", "su"},
	sensitive:  []string{"sudo"},
}

// TestVibeModelProperty holds gotk's decision for Vibe against the model
// above over generated [tools.bash] tables and lines.
func TestVibeModelProperty(t *testing.T) {
	entries := []string{"git", "git status", "git push", "gotk", "gotk git", "ls", "go test", "git log -3", "git status <redirect>"}
	cmds := []string{"git status", "git status -s", "git log -3", "git push origin main", "git diff", "ls -la", "go test", "go vet"}
	envs := []string{"", "", "", "FOO=1 "}
	redirs := []string{"", "", "", " 2>&1"}
	rng := rand.New(rand.NewSource(13))
	home := t.TempDir()
	q := func(xs []string) string { return jsonList(xs) }
	for i := 0; i < 300; i++ {
		m := vibeDefaults
		var toml []string
		gen := func(key string, dst *[]string) {
			if rng.Intn(2) == 0 {
				return
			}
			var l []string
			for n := rng.Intn(3); n > 0; n-- {
				l = append(l, pick(rng, entries))
			}
			*dst = l
			toml = append(toml, key+" = "+q(l))
		}
		gen("allowlist", &m.allow)
		gen("denylist", &m.deny)
		gen("sensitive_patterns", &m.sensitive)
		if rng.Intn(4) == 0 {
			m.always = true
			toml = append(toml, `permission = "always"`)
		}
		cfg := "[tools.bash]\n" + strings.Join(toml, "\n") + "\n"
		c := &modelCase{host: vibe.Host, home: filepath.Join(home, fmt.Sprint(i)), files: map[string]string{".vibe/config.toml": cfg}}
		c.proj = filepath.Join(c.home, "proj")
		e := c.engine(t)
		for k := 0; k < 6; k++ {
			line := genLine(rng, func() string { return pick(rng, envs) + pick(rng, cmds) + pick(rng, redirs) })
			checkParity(t, cfg, e, line, m.outcome(line), m.after)
		}
	}
}

// TestVibeModelRegressions are the cases the property found, kept.
func TestVibeModelRegressions(t *testing.T) {
	for i, c := range []struct {
		cfg  string
		m    vibeModel
		line string
	}{
		// Vibe's default allowlist runs git diff; it would ask about gotk git diff
		{"", vibeDefaults, "git diff"},
		// an allowlist naming gotk runs the rewrite of what it asks about
		{`allowlist = ["gotk"]`, vibeModel{allow: []string{"gotk"}, deny: vibeDefaults.deny, standalone: vibeDefaults.standalone, sensitive: vibeDefaults.sensitive}, "go test 2>&1"},
		// a sensitive gotk asks about every rewrite, even under "always"
		{"permission = \"always\"\nsensitive_patterns = [\"gotk\"]", vibeModel{always: true, allow: vibeDefaults.allow, deny: vibeDefaults.deny, standalone: vibeDefaults.standalone, sensitive: []string{"gotk"}}, "git status -s"},
		// Vibe adds " <redirect>" to a redirected command's words
		{`denylist = ["git status <redirect>"]`, vibeModel{allow: vibeDefaults.allow, deny: []string{"git status <redirect>"}, standalone: vibeDefaults.standalone, sensitive: vibeDefaults.sensitive}, "FOO=1 git status 2>&1"},
		{`allowlist = ["git status <redirect>"]`, vibeModel{allow: []string{"git status <redirect>"}, deny: vibeDefaults.deny, standalone: vibeDefaults.standalone, sensitive: vibeDefaults.sensitive}, "git status 2>&1"},
	} {
		cfg := "[tools.bash]\n" + c.cfg + "\n"
		mc := &modelCase{host: vibe.Host, home: filepath.Join(t.TempDir(), fmt.Sprint(i)), files: map[string]string{".vibe/config.toml": cfg}}
		mc.proj = filepath.Join(mc.home, "proj")
		checkParity(t, cfg, mc.engine(t), c.line, c.m.outcome(c.line), c.m.after)
	}
}
