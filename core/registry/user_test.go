package registry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/tomlfilter"
)

// withUserFilters installs the filters of a global filters.toml holding
// src for the test.
func withUserFilters(t *testing.T, src string) {
	t.Helper()
	root := t.TempDir()
	vars := map[string]string{"XDG_CONFIG_HOME": filepath.Join(root, "c"), "XDG_DATA_HOME": filepath.Join(root, "d"), "XDG_CACHE_HOME": filepath.Join(root, "k")}
	env := tomlfilter.Env{Getenv: func(k string) string { return vars[k] }, Home: root, Cwd: root}
	os.MkdirAll(filepath.Join(root, "c", "gotk"), 0o755)
	if err := os.WriteFile(filepath.Join(root, "c", "gotk", "filters.toml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m := tomlfilter.LoadMatcher(env)
	if len(m.Warnings) > 0 {
		t.Fatalf("warnings: %v", m.Warnings)
	}
	UseUserFilters(m)
	t.Cleanup(func() { UseUserFilters(nil) })
}

// TestUserFilters: a user filter classifies its commands like a table row
// (launchers and bin paths included), comes before the table, and never
// makes a form the table refuses rewritable.
func TestUserFilters(t *testing.T) {
	withUserFilters(t, `schema_version = 1
[filters.deploy]
match_command = "^(\\./scripts/)?deploy(\\.sh)?( |$)"
max_lines = 20

[filters.mytool]
match_command = "^mytool\\b"
strip_lines_matching = ["^debug"]

[filters.status]
match_command = "^git status"

[filters.npm-any]
match_command = "^npm "

[filters.follow]
match_command = "^(tail|go|docker|kubectl) "
`)
	for cmd, want := range map[string]string{
		"deploy staging":            "filter.deploy",
		"./scripts/deploy.sh prod":  "filter.deploy",
		"mytool --all":              "filter.mytool",
		"npx mytool --all":          "filter.mytool",
		"/usr/bin/mytool x":         "filter.mytool",
		"git status":                "filter.status",
		"git log":                   "git.log",
		"npm audit":                 "filter.npm-any",
		"npm run build":             "filter.npm-any",
		"npm run dev":               "",
		"tail -f app.log":           "",
		"tail -n 5 app.log":         "filter.follow",
		"go run .":                  "",
		"docker compose up":         "",
		"kubectl port-forward x 80": "",
		"deployer":                  "",
		"./deploy.sh":               "",
	} {
		if got := classifyID(cmd); got != want {
			t.Errorf("%q: rule %q, want %q", cmd, got, want)
		}
	}
	// a word unknown before it runs: no user filter
	if m, ok := Classify([]string{"mytool", Unknown}); ok {
		t.Errorf("mytool $X: rule %s", m.Rule.ID)
	}
	m, _ := Classify(strings.Fields("npx mytool x"))
	if m.Tool != 1 || m.Rule.Category != User || m.Rule.Pipe != PipeNone || !strings.HasPrefix(m.Rule.Handler, UserHandlerPrefix) || !strings.HasSuffix(m.Rule.Handler, "filters.toml#mytool") {
		t.Errorf("npx mytool: %+v tool %d", m.Rule, m.Tool)
	}
	if IsReadOnly(strings.Fields("mytool x")) {
		t.Error("a user filter made a command read-only")
	}
}
