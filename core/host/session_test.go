package host

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/gotk-dev/gotk/core/permission"
)

// fakeProcs is a process table: pid → argv and parent.
type fakeProcs map[int]struct {
	argv   []string
	parent int
}

func (f fakeProcs) Argv(pid int) ([]string, error) {
	p, ok := f[pid]
	if !ok {
		return nil, errors.New("no such process")
	}
	return p.argv, nil
}

func (f fakeProcs) Parent(pid int) (int, error) {
	p, ok := f[pid]
	if !ok {
		return 0, errors.New("no such process")
	}
	return p.parent, nil
}

func TestReadSessionClaude(t *testing.T) {
	procs := fakeProcs{
		100: {[]string{"gotk-hook-claude"}, 90},
		90:  {[]string{"/bin/sh", "-c", "gotk-hook-claude"}, 80},
		80: {[]string{"/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe", "-p", "--disallowedTools", "Bash(git log:*)", "Edit",
			"--allowed-tools=Bash(make:*),Read", "--add-dir", "/data", "/more", "--settings", `{"permissions":{}}`,
			"--setting-sources", "user,local", "--permission-mode", "plan", "hello"}, 1},
	}
	s := ReadSession(permission.Claude, procs, 100)
	want := Session{Found: true, Mode: "plan", Rules: permission.Session{
		Deny:     []string{"Bash(git log:*)", "Edit"},
		Allow:    []string{"Bash(make:*)", "Read"},
		Dirs:     []string{"/data", "/more"},
		Settings: []string{`{"permissions":{}}`},
		Sources:  []string{"user", "local"},
	}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got  %+v\nwant %+v", s, want)
	}
	// node running the CLI script, and the bypass flag
	procs[80] = struct {
		argv   []string
		parent int
	}{[]string{"node", "/home/u/.npm/lib/node_modules/@anthropic-ai/claude-code/cli.js", "--dangerously-skip-permissions"}, 1}
	if s := ReadSession(permission.Claude, procs, 100); !s.Found || s.Mode != "bypassPermissions" {
		t.Errorf("node cli.js: %+v", s)
	}
	// no claude above: no session, not unreadable
	if s := ReadSession(permission.Claude, fakeProcs{100: {[]string{"hook"}, 1}}, 100); s.Found || s.Unreadable {
		t.Errorf("no claude: %+v", s)
	}
	// a process table gotk cannot read: unreadable
	if s := ReadSession(permission.Claude, fakeProcs{100: {[]string{"hook"}, 90}}, 100); !s.Unreadable {
		t.Errorf("unreadable parent: %+v", s)
	}
	// a program merely named like an argument is not claude
	if s := ReadSession(permission.Claude, fakeProcs{100: {[]string{"vim", "claude"}, 1}}, 100); s.Found {
		t.Errorf("vim claude: %+v", s)
	}
}

func TestReadSessionCopilot(t *testing.T) {
	procs := fakeProcs{
		100: {[]string{"gotk-hook-copilot"}, 80},
		80:  {[]string{"node", "/x/node_modules/@github/copilot/index.js", "--allow-all-tools", "--deny-tool", "shell(rm)"}, 1},
	}
	s := ReadSession(Copilot, procs, 100)
	if !s.Found || !s.AllowAll || len(s.Rules.Deny) != 1 {
		t.Errorf("copilot: %+v", s)
	}
}

func TestSplitTools(t *testing.T) {
	got := SplitTools("Bash(git log:*) Edit,Read, Bash(npm run test:*)")
	want := []string{"Bash(git log:*)", "Edit", "Read", "Bash(npm run test:*)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
}

// TestProcFS reads this test's own ancestry through the real /proc.
func TestProcFS(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	p := ProcFS{Root: "/proc"}
	argv, err := p.Argv(os.Getpid())
	if err != nil || len(argv) == 0 || filepath.Base(argv[0]) != filepath.Base(os.Args[0]) {
		t.Fatalf("Argv(self) = %q, %v", argv, err)
	}
	ppid, err := p.Parent(os.Getpid())
	if err != nil || ppid != os.Getppid() {
		t.Fatalf("Parent(self) = %d, %v; want %d", ppid, err, os.Getppid())
	}
	// a command name with spaces and parens does not confuse Parent
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "7"), 0o755)
	os.WriteFile(filepath.Join(dir, "7", "stat"), []byte("7 (a) b (c)) S 42 7 7 0"), 0o644)
	if got, err := (ProcFS{Root: dir}).Parent(7); err != nil || got != 42 {
		t.Errorf("Parent = %d, %v", got, err)
	}
	_ = strconv.Itoa
}
