package hosts

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/gotk-dev/gotk/core/host"
	"github.com/gotk-dev/gotk/core/hosts/claude"
	"github.com/gotk-dev/gotk/core/hosts/copilot"
	"github.com/gotk-dev/gotk/core/hosts/droid"
	"github.com/gotk-dev/gotk/core/hosts/gemini"
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
	s := host.ReadSession(claude.Host, procs, 100)
	want := host.Session{Found: true, Mode: "plan", Rules: permission.Session{
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
	if s := host.ReadSession(claude.Host, procs, 100); !s.Found || s.Mode != "bypassPermissions" {
		t.Errorf("node cli.js: %+v", s)
	}
	// no claude above (a launcher gotk does not know): its flags may deny
	// unseen, so the session is unsure
	if s := host.ReadSession(claude.Host, fakeProcs{100: {[]string{"hook"}, 1}}, 100); s.Found || !s.Unreadable {
		t.Errorf("no claude: %+v", s)
	}
	// a process table gotk cannot read: unreadable
	if s := host.ReadSession(claude.Host, fakeProcs{100: {[]string{"hook"}, 90}}, 100); !s.Unreadable {
		t.Errorf("unreadable parent: %+v", s)
	}
	// a program merely named like an argument is not claude
	if s := host.ReadSession(claude.Host, fakeProcs{100: {[]string{"vim", "claude"}, 1}}, 100); s.Found {
		t.Errorf("vim claude: %+v", s)
	}
}

func TestReadSessionCopilot(t *testing.T) {
	procs := fakeProcs{
		100: {[]string{"gotk-hook-copilot"}, 80},
		80:  {[]string{"node", "/x/node_modules/@github/copilot/index.js", "--allow-all-tools", "--deny-tool", "shell(rm)"}, 1},
	}
	s := host.ReadSession(copilot.Host, procs, 100)
	if !s.Found || !s.AllowAll || len(s.Rules.Deny) != 1 {
		t.Errorf("copilot: %+v", s)
	}
}

func TestSplitTools(t *testing.T) {
	got := claude.SplitTools("Bash(git log:*) Edit,Read, Bash(npm run test:*)")
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
	p := host.ProcFS{Root: "/proc"}
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
	if got, err := (host.ProcFS{Root: dir}).Parent(7); err != nil || got != 42 {
		t.Errorf("Parent = %d, %v", got, err)
	}
	_ = strconv.Itoa
}

// TestReadSessionLaunchers: every way the Claude Agent SDK (and npm, and
// the native installer) starts Claude Code is found and its flags read; a
// launcher gotk does not know is unsure (no allow) for a host whose flags
// can deny, never "no flags".
func TestReadSessionLaunchers(t *testing.T) {
	deny := "--disallowedTools=Bash(git status),Read"
	for _, c := range []struct {
		name string
		argv []string
		host *host.Def
		want string // "found", "unsure", "none"
	}{
		{"sdk cli.js", []string{"node", "/app/node_modules/@anthropic-ai/claude-agent-sdk/cli.js", "--output-format", "stream-json", deny}, claude.Host, "found"},
		{"sdk cli.js, node options", []string{"/usr/bin/node", "--max-old-space-size=4096", "--no-warnings", "/app/node_modules/@anthropic-ai/claude-agent-sdk/cli.js", deny}, claude.Host, "found"},
		{"sdk cli.js under bun", []string{"bun", "/app/node_modules/@anthropic-ai/claude-agent-sdk/cli.js", deny}, claude.Host, "found"},
		{"sdk native binary", []string{"/app/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude", "--output-format", "stream-json", deny}, claude.Host, "found"},
		{"python sdk bundled", []string{"/venv/lib/python3.12/site-packages/claude_agent_sdk/_bundled/claude", deny}, claude.Host, "found"},
		{"windows exe", []string{"claude.exe", deny}, claude.Host, "found"},
		{"unknown launcher", []string{"/opt/agent/bin/my-agent", deny}, claude.Host, "unsure"},
		{"node, unknown script", []string{"node", "/opt/agent/run.js", deny}, claude.Host, "unsure"},
		{"node option value hides the script", []string{"node", "--require", "/x/preload.js", "/app/node_modules/@anthropic-ai/claude-agent-sdk/cli.js", deny}, claude.Host, "unsure"},
		{"droid unknown launcher", []string{"/opt/factory/agent"}, droid.Host, "unsure"},
		{"copilot not found: no allow flag seen", []string{"/opt/code/code-helper"}, copilot.Host, "none"},
	} {
		procs := fakeProcs{100: {[]string{"gotk-hook"}, 90}, 90: {c.argv, 1}}
		s := host.ReadSession(c.host, procs, 100)
		got := "none"
		switch {
		case s.Found && !s.Unreadable:
			got = "found"
		case s.Unreadable:
			got = "unsure"
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s (%+v)", c.name, got, c.want, s)
			continue
		}
		if got == "found" && c.host == claude.Host && !reflect.DeepEqual(s.Rules.Deny, []string{"Bash(git status)", "Read"}) {
			t.Errorf("%s: deny %q", c.name, s.Rules.Deny)
		}
	}
}

// TestReadSessionSDKOutOfBand: the Agent SDK's ways of passing rules
// outside the command line (over stdin at initialize, a prewarmed process
// claimed later, inline managed settings, another checkout's project
// settings) leave the session unsure.
func TestReadSessionSDKOutOfBand(t *testing.T) {
	sdk := "/app/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude"
	for _, extra := range [][]string{
		{"--await-initialize", "--initialize-fields=settings,disallowedTools"},
		{"--await-initialize", "--managed-settings-in-initialize"},
		{"--await-claim"},
		{"--managed-settings", `{"permissions":{"deny":["Bash"]}}`},
		{"--project-config-root=/src/main"},
	} {
		argv := append([]string{sdk, "--output-format", "stream-json"}, extra...)
		s := host.ReadSession(claude.Host, fakeProcs{100: {[]string{"hook"}, 90}, 90: {argv, 1}}, 100)
		if !s.Found || !s.Unreadable {
			t.Errorf("%q: %+v, want found and unsure", extra, s)
		}
	}
	// plain SDK flags alone are read, not unsure
	argv := []string{sdk, "--output-format", "stream-json", "--permission-mode=acceptEdits", "--setting-sources=", "--settings", `{"permissions":{}}`}
	s := host.ReadSession(claude.Host, fakeProcs{100: {[]string{"hook"}, 90}, 90: {argv, 1}}, 100)
	if !s.Found || s.Unreadable || s.Mode != "acceptEdits" || s.Rules.Sources == nil || len(s.Rules.Sources) != 0 || len(s.Rules.Settings) != 1 {
		t.Errorf("plain sdk flags: %+v", s)
	}
}

func TestReadSessionDroid(t *testing.T) {
	procs := fakeProcs{
		100: {[]string{"gotk-hook-droid"}, 90},
		90:  {[]string{"/bin/sh", "-c", "gotk-hook-droid"}, 80},
		80:  {[]string{"/x/node_modules/@factory/cli-linux-x64/bin/droid", "exec", "--settings", "/r.json", "--skip-permissions-unsafe", "hi"}, 1},
	}
	s := host.ReadSession(droid.Host, procs, 100)
	if !s.Found || !s.AllowAll || !reflect.DeepEqual(s.Rules.Settings, []string{"/r.json"}) {
		t.Errorf("droid: %+v", s)
	}
	procs[80] = struct {
		argv   []string
		parent int
	}{[]string{"droid", "exec", "--", "--skip-permissions-unsafe"}, 1}
	if s := host.ReadSession(droid.Host, procs, 100); !s.Found || s.AllowAll {
		t.Errorf("droid, the flag after --: %+v", s)
	}
}

// TestReadSessionGemini: Gemini CLI's --allowed-tools, --policy and
// --admin-policy (one value a time, comma-separated, camel case too), read
// from node relaunching the CLI's bundle with its own options; not found,
// its flags may deny unseen.
func TestReadSessionGemini(t *testing.T) {
	procs := fakeProcs{
		100: {[]string{"gotk-hook-gemini"}, 90},
		90: {[]string{"/usr/bin/node", "--max-old-space-size=8192", "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js",
			"--allowed-tools", "run_shell_command(go vet), run_shell_command(make)", "--allowedTools=ShellTool(ls)",
			"--policy", "team.toml,~/p", "-p", "--policy is a word here", "--adminPolicy=/etc/x"}, 80},
		80: {[]string{"/usr/bin/node", "/usr/local/bin/gemini", "--allowed-tools", "run_shell_command(go vet), run_shell_command(make)"}, 1},
	}
	s := host.ReadSession(gemini.Host, procs, 100)
	want := host.Session{Found: true, Rules: permission.Session{
		Allow:         []string{"run_shell_command(go vet)", "run_shell_command(make)", "ShellTool(ls)"},
		Policies:      []string{"team.toml", "~/p"},
		AdminPolicies: []string{"/etc/x"},
	}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got  %+v\nwant %+v", s, want)
	}
	// the script's own name, and an empty --policy (it replaces the
	// settings' policyPaths with none)
	procs[90] = struct {
		argv   []string
		parent int
	}{[]string{"node", "/usr/local/bin/gemini", "--policy="}, 1}
	if s := host.ReadSession(gemini.Host, procs, 100); !s.Found || s.Rules.Policies == nil || len(s.Rules.Policies) != 0 {
		t.Errorf("--policy=: %+v", s)
	}
	if s := host.ReadSession(gemini.Host, fakeProcs{100: {[]string{"hook"}, 1}}, 100); s.Found || !s.Unreadable {
		t.Errorf("no gemini: %+v", s)
	}
}

// TestProbeRunsUnderItsAgent: a hook that reads its session from the
// agent process above it never allows without one, so `gotk verify` must
// probe it beneath a process its host recognises (Gemini's probe ran with
// no parent and verify failed a working hook).
func TestProbeRunsUnderItsAgent(t *testing.T) {
	for _, d := range All {
		if d.Flags == nil || d.Probe == nil || !d.Probe.Rewrites {
			continue
		}
		if d.Probe.Under == "" || !d.Flags.Is([]string{d.Probe.Under}) {
			t.Errorf("%s: probe runs under %q, which its host does not take for its agent", d.Name, d.Probe.Under)
		}
	}
}
