package runner

import (
	"os"
	"path/filepath"
	"testing"
)

func TestProjectDir(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "a", "b")
	wt := filepath.Join(root, "worktree")
	for _, d := range []string{filepath.Join(repo, ".git"), deep, wt} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A worktree or submodule has a .git file.
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: elsewhere\n"), 0o644)
	plain := filepath.Join(root, "plain")
	os.MkdirAll(plain, 0o755)
	for dir, want := range map[string]string{deep: repo, repo: repo, wt: wt, plain: plain} {
		if got := projectDir(dir); got != want && !(dir == plain && got != plain && isAncestorRepo(got)) {
			t.Errorf("projectDir(%s) = %s, want %s", dir, got, want)
		}
	}
}

// isAncestorRepo allows the temp dir itself to sit inside a repository.
func isAncestorRepo(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"git", "status"}, "git status"},
		{[]string{"git", "commit", "-m", "it's done"}, `git commit -m 'it'\''s done'`},
		{[]string{"grep", "-r", "a b", "--include=*.go"}, `grep -r 'a b' '--include=*.go'`},
		{[]string{"echo", ""}, "echo ''"},
		{[]string{"ls", "-la", "./x/y_z@1.2:3,4+5%"}, "ls -la ./x/y_z@1.2:3,4+5%"},
	} {
		if got := commandLine(tc.argv); got != tc.want {
			t.Errorf("commandLine(%q) = %s, want %s", tc.argv, got, tc.want)
		}
	}
}
