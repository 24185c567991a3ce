// Package permissiontest holds what the tests of each host's rule reader
// (core/hosts/<name>) share: rule files written into a temporary home, an
// Env over them, and checks of the verdicts.
package permissiontest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
)

// Write writes a file, making its folders.
func Write(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Env is an environment with home, working directory cwd and variables
// vars; managed settings are read from home/managed.
func Env(home, cwd string, vars map[string]string) permission.Env {
	return permission.Env{Getenv: func(k string) string { return vars[k] }, Home: home, Cwd: cwd, ManagedDir: filepath.Join(home, "managed")}
}

// Seg is cmd as one segment: every form and the allow form.
func Seg(cmd string) permission.Segment {
	return permission.Segment{Forms: []string{cmd}, AllowForm: cmd}
}

// CheckAll requires each command's verdict under r.
func CheckAll(t testing.TB, r *permission.Rules, want map[string]permission.Verdict) {
	t.Helper()
	for cmd, v := range want {
		if got := r.Check(Seg(cmd)).Verdict; got != v {
			t.Errorf("%s %q: %v, want %v", r.Host, cmd, got, v)
		}
	}
}
