package registry

import "testing"

func TestCommandName(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"git", "status", "-s"}, "git status"},
		{[]string{"git", "-C", "sub", "status"}, "git status"},
		{[]string{"go", "test", "./..."}, "go test"},
		{[]string{"npx", "tsc", "--noEmit"}, "tsc"},
		{[]string{"python", "-m", "pytest", "-q"}, "pytest"},
		{[]string{"/usr/bin/ls", "-la"}, "ls"},
		{[]string{"docker", "compose", "logs", "web"}, "docker compose logs"},
		{[]string{"./bin/frobnicate", "x"}, "frobnicate"},
		{nil, ""},
	} {
		if got := CommandName(c.argv); got != c.want {
			t.Errorf("CommandName(%q) = %q, want %q", c.argv, got, c.want)
		}
	}
}
