package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPath(t *testing.T) {
	env := func(m map[string]string) Env { return Env{Getenv: func(k string) string { return m[k] }, Home: "/h"} }
	cases := []struct {
		vars map[string]string
		want string
	}{
		{nil, filepath.Join("/h", ".config", "gotk", "config.toml")},
		{map[string]string{"XDG_CONFIG_HOME": "/x"}, filepath.Join("/x", "gotk", "config.toml")},
		{map[string]string{"XDG_CONFIG_HOME": "/x", "GOTK_CONFIG": "/c.toml"}, "/c.toml"},
	}
	for _, c := range cases {
		if got := Path(env(c.vars)); got != c.want {
			t.Errorf("Path(%v) = %q, want %q", c.vars, got, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	c, warn := Parse("c.toml", []byte("\ufeff[hooks]\nexclude_commands = [\"git push\"]\ntransparent_prefixes = [\"direnv exec .\", \"  \"]\n"))
	if warn != "" || len(c.Hooks.ExcludeCommands) != 1 || len(c.Hooks.Prefixes()) != 1 || strings.Join(c.Hooks.Prefixes()[0], " ") != "direnv exec ." {
		t.Errorf("Parse: %+v %q", c, warn)
	}
	_, warn = Parse("c.toml", []byte("[hooks]\nexclude_commands = [\n"))
	if !strings.HasPrefix(warn, "gotk: c.toml:") || !strings.HasSuffix(warn, "; using defaults") || strings.Contains(warn, "\n") {
		t.Errorf("broken file warning: %q", warn)
	}
	_, warn = Parse("c.toml", []byte("[hooks]\nexclude_command = [\"x\"]\n"))
	if !strings.Contains(warn, `unknown key "hooks.exclude_command"`) {
		t.Errorf("typo warning: %q", warn)
	}
	if _, warn = Parse("c.toml", []byte("[future]\nx = 1\n")); warn != "" {
		t.Errorf("unknown table should be quiet: %q", warn)
	}
}

func TestLoadMissingAndUnreadable(t *testing.T) {
	dir := t.TempDir()
	env := Env{Getenv: func(k string) string {
		if k == "GOTK_CONFIG" {
			return filepath.Join(dir, "none.toml")
		}
		return ""
	}}
	if _, warn := Load(env); warn != "" {
		t.Errorf("missing file: %q", warn)
	}
	os.Mkdir(filepath.Join(dir, "none.toml"), 0o755) // a directory: unreadable as a file
	if _, warn := Load(env); !strings.Contains(warn, "none.toml") {
		t.Errorf("unreadable file: %q", warn)
	}
}

func TestExcludes(t *testing.T) {
	ex, warn := CompileExcludes([]string{"git push", "^ls( |$)", "", "^", "^(bad"})
	if len(warn) != 3 {
		t.Errorf("warnings: %q", warn)
	}
	for form, want := range map[string]bool{"git push": true, "git push -f": true, "git pushx": false, "ls": true, "ls -la": true, "lsof": false, "git status": false} {
		if got := ex.Match(form) != ""; got != want {
			t.Errorf("Match(%q) = %v, want %v", form, got, want)
		}
	}
}
