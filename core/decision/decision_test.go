package decision

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/hosts/claude"

	"github.com/gotk-dev/gotk/core/config"
	"github.com/gotk-dev/gotk/core/permission"
)

// newEngine returns a Claude engine over a fresh home whose user settings
// hold settings (JSON, may be "").
func newEngine(t testing.TB, settings string, cfg config.Config) *Engine {
	t.Helper()
	home := t.TempDir()
	if settings != "" {
		p := filepath.Join(home, ".claude", "settings.json")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &Engine{
		Host:   claude.Host,
		Env:    permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: home, ManagedDir: filepath.Join(home, "managed")},
		Config: cfg,
	}
}

type tc struct {
	cmd     string
	verdict Verdict
	out     string // rewritten command; "" = same as cmd
}

func run(t *testing.T, e *Engine, req Request, cases []tc) {
	t.Helper()
	req.Explain = true // the verdict even where nothing is rewritten
	for _, c := range cases {
		req.Command = c.cmd
		d := e.Decide(req)
		want := c.out
		if want == "" {
			want = c.cmd
		}
		if d.Verdict != c.verdict || d.Command != want {
			t.Errorf("%q:\n   got %v %q (%s)\n  want %v %q", c.cmd, d.Verdict, d.Command, d.Reason, c.verdict, want)
		}
	}
}

// TestSafety: constructs that are never rewritten, and the bytes around
// rewrites that must survive.
func TestSafety(t *testing.T) {
	e := newEngine(t, "", config.Config{})
	run(t, e, Request{}, []tc{
		{"git status", AskRewrite, "gotk git status"},
		{"git log > out.txt", Passthrough, ""},
		{"git log >> out.txt", Passthrough, ""},
		{"git log &> out.txt", Passthrough, ""},
		{"git log >| out.txt", Passthrough, ""},
		{"git status && git log > f", Passthrough, ""},
		{"git status 2>&1", AskRewrite, "gotk git status 2>&1"},
		{"git status >&2", AskRewrite, "gotk git status >&2"},
		{"git status 2>/dev/null", AskRewrite, "gotk git status 2>/dev/null"},
		{"git status >/dev/null 2>&1", AskRewrite, "gotk git status >/dev/null 2>&1"},
		{"git status &>/dev/null", AskRewrite, "gotk git status &>/dev/null"},
		// output discarded, errors kept; the streams swapped: gotk may
		// carry on one stream what the program wrote on the other
		{"git status >/dev/null", Passthrough, ""},
		{"git status 2>&1 >/dev/null", Passthrough, ""},
		{"git diff 3>&1 1>&2 2>&3", Passthrough, ""},
		{"go test ./... 2>&1 >/dev/null | tail -30", Passthrough, ""},
		{"go test ./... 1>&2 | tail -3", Passthrough, ""},
		{"{ go test ./...; } >/dev/null", Passthrough, ""},
		{"git log $(git rev-parse HEAD)", Passthrough, ""},
		{"git log `git rev-parse HEAD`", Passthrough, ""},
		{"diff <(ls a) <(ls b)", Passthrough, ""},
		{"cat <<EOF\nhello\nEOF", Passthrough, ""},
		{"git log -$((1+2))", Passthrough, ""},
		{"grep x <<< \"$v\"", Passthrough, ""},
		{"echo '$(not a substitution)' && git status", AskRewrite, "echo '$(not a substitution)' && gotk git status"},
		// bytes around rewrites survive
		{"git  status\t--short ;  git log -3  # recent\n", AskRewrite, "gotk git  status\t--short ;  gotk git log -3  # recent\n"},
		{`git commit -m "fix: a && b"`, AskRewrite, `gotk git commit -m "fix: a && b"`},
		{"git status&&git log", AskRewrite, "gotk git status&&gotk git log"},
		{"case $1 in\n  a) git status;;\n  b) ls -la;;\nesac", AskRewrite, "case $1 in\n  a) gotk git status;;\n  b) gotk ls -la;;\nesac"},
		{"case git in git) echo;; esac", Passthrough, ""},
		{"for f in git status; do echo $f; done", Passthrough, ""},
		{"if git diff --quiet; then git status; else make; fi", AskRewrite, "if gotk git diff --quiet; then gotk git status; else gotk make; fi"},
		{"while true; do go test ./...; done", AskRewrite, "while true; do gotk go test ./...; done"},
		{"[[ -f go.mod ]] && go build ./...", AskRewrite, "[[ -f go.mod ]] && gotk go build ./..."},
		{"(( 2 > 1 )) || ls", AskRewrite, "(( 2 > 1 )) || gotk ls"},
		// n's value is evaluated: n='PATH=0' assigns PATH
		{"(( n > 1 )) || ls", Passthrough, ""},
		{"(cd sub && go test ./...)", AskRewrite, "(cd sub && gotk go test ./...)"},
		{"cd sub && npm test", AskRewrite, "cd sub && gotk npm test"},
		{"go test ./... &\nwait", AskRewrite, "gotk go test ./... &\nwait"},
		{"git status \\\n  --short", AskRewrite, "gotk git status \\\n  --short"},
		// wrappers and assignments: insertion at the program word
		{"FOO=1 BAR='a b' go test ./...", AskRewrite, "FOO=1 BAR='a b' gotk go test ./..."},
		{"timeout 60 go test ./...", AskRewrite, "timeout 60 gotk go test ./..."},
		{"env -u GOFLAGS CGO_ENABLED=0 go build .", AskRewrite, "env -u GOFLAGS CGO_ENABLED=0 gotk go build ."},
		{"nice -n 10 nohup make", AskRewrite, "nice -n 10 nohup gotk make"},
		{"time go test", AskRewrite, "time gotk go test"},
		{"command git status", AskRewrite, "command gotk git status"},
		{"exec git status", AskRewrite, "exec gotk git status"},
		{"\"git\" status", AskRewrite, "gotk \"git\" status"},
		// never rewritten
		{"gotk git status", Passthrough, ""},
		{"rtk git status", Passthrough, ""},
		{"/usr/local/bin/gotk git status", Passthrough, ""},
		{"sudo git status", Passthrough, ""},
		{"cd /tmp", Passthrough, ""},
		{"echo hi", Passthrough, ""},
		{"sed -i s/a/b/ f", Passthrough, ""},
		{"GOTK_DISABLED=1 git status", Passthrough, ""},
		{"RTK_DISABLED=1 git status && git log", AskRewrite, "RTK_DISABLED=1 git status && gotk git log"},
		{"./scripts/git status", Passthrough, ""},
		{"$GIT status", Passthrough, ""},
		{"env -S 'git status'", Passthrough, ""},
		{"", Passthrough, ""},
		{"   \n\t", Passthrough, ""},
		{"git status &&", Passthrough, ""},
		{"if then", Passthrough, ""},
	})
}

// TestPipes documents and pins the pipeline rule (see pipeRefusal).
func TestPipes(t *testing.T) {
	e := newEngine(t, "", config.Config{})
	run(t, e, Request{}, []tc{
		{"grep x f | wc -l", Passthrough, ""},
		{"git log | head -20", AskRewrite, "gotk --head 20 git log | head -20"},
		{"git log | head -n 5 | cat", AskRewrite, "gotk --head 5 git log | head -n 5 | cat"},
		{"git log | tail -5", AskRewrite, "gotk --tail 5 git log | tail -5"},
		{"git log | head file", Passthrough, ""},
		{"find . | xargs grep y", Passthrough, ""},
		{"ps aux | grep z", AskRewrite, "ps aux | gotk grep z"},
		{"cargo test | grep FAILED", AskRewrite, "cargo test | gotk grep FAILED"},
		{"cargo test | grep -f pats.txt", Passthrough, ""},
		{"cargo test | grep -if pats.txt", Passthrough, ""},
		{"cargo test | rg --file=p", Passthrough, ""},
		{"git log | grep feat | wc -l", Passthrough, ""},
		{"git diff | grep -c '^+'", AskRewrite, "git diff | gotk grep -c '^+'"},
		{"ls | sort", Passthrough, ""},
		{"go test ./... | head", AskRewrite, "gotk --head 10 go test ./... | head"},
		{"git log |& head", AskRewrite, "gotk --head 10 git log |& head"},
		{"{ git status; git log; } | head", Passthrough, ""},
		{"git status | { read x; echo $x; }", Passthrough, ""},
		{"git status | less", AskRewrite, "gotk git status | less"},
		{"git status | FOO=1 head", Passthrough, ""},
		{"git status && git log | head -3", AskRewrite, "gotk git status && gotk --head 3 git log | head -3"},
		{"echo $(git status | head)", Passthrough, ""},
	})
}

func TestExcludeAndPrefixes(t *testing.T) {
	e := newEngine(t, "", config.Config{Hooks: config.Hooks{
		ExcludeCommands:     []string{"git push", "^ls( |$)", "pytest"},
		TransparentPrefixes: []string{"direnv exec .", "with-env"},
	}})
	run(t, e, Request{}, []tc{
		{"git push origin", Passthrough, ""},
		{"git pushx", Passthrough, ""},
		{"git status", AskRewrite, "gotk git status"},
		{"ls -la", Passthrough, ""},
		{"ls && git status", AskRewrite, "ls && gotk git status"},
		{"python -m pytest", Passthrough, ""},
		{"direnv exec . go test ./...", AskRewrite, "direnv exec . gotk go test ./..."},
		{"with-env timeout 5 git status", AskRewrite, "with-env timeout 5 gotk git status"},
		{"direnv exec", Passthrough, ""},
	})
}

// TestPermissionParity: gotk allows exactly where Claude would have run the
// original without asking.
func TestPermissionParity(t *testing.T) {
	e := newEngine(t, `{"permissions":{
		"allow":["Bash(npm test)","Bash(go test *)","Bash(git push:*)"],
		"ask":["Bash(git push --force *)"],
		"deny":["Bash(git commit)","Bash(curl *)"]}}`, config.Config{})
	claude := Request{ReadOnlyAutoAllow: true}
	run(t, e, claude, []tc{
		{"npm test", AllowRewrite, "gotk npm test"},
		{"npm test -- -u", AskRewrite, "gotk npm test -- -u"}, // allow rules without * are exact
		{"go test ./...", AllowRewrite, "gotk go test ./..."},
		{"git status", AllowRewrite, "gotk git status"}, // read-only
		{"git log | head -5", AllowRewrite, "gotk --head 5 git log | head -5"},
		{"git status && rm -rf x", AskRewrite, "gotk git status && rm -rf x"},
		{"git status && go test ./...", AllowRewrite, "gotk git status && gotk go test ./..."},
		{"git push --force origin", AskRewrite, "gotk git push --force origin"}, // ask beats allow
		{"git commit -m x", Deny, ""},                                           // deny without * still covers longer commands
		{"git status; curl -s evil", Deny, ""},
		{"echo $(curl x)", Deny, ""},
		{"timeout 5 go test ./...", AllowRewrite, "timeout 5 gotk go test ./..."},
		{"FOO=1 go test ./...", AskRewrite, "FOO=1 gotk go test ./..."},
		{"FOO=1 git status", AskRewrite, "FOO=1 gotk git status"},
		{"env git status", AskRewrite, "env gotk git status"},
		{"git -c core.pager=x log", AskRewrite, "gotk git -c core.pager=x log"},
		{"git status -uno", AskRewrite, "gotk git status -uno"},
		{"find . -name '*.go'", AllowRewrite, "gotk find . -name '*.go'"},
		{"find . -name x -delete", AskRewrite, "gotk find . -name x -delete"}, // not read-only: Claude would ask
	})
	// Claude's read-only set as measured in Claude Code 2.1.328
	// (e2e/claude_readonly_test.go): only inside the working directory,
	// not in a subshell, not behind time/nice/nohup, not with git global
	// options; compounds of read-only parts stay read-only.
	run(t, e, claude, []tc{
		{"cat notes.txt", AllowRewrite, "gotk cat notes.txt"},
		{"cat /etc/hostname", AskRewrite, "gotk cat /etc/hostname"},
		{"ls ../elsewhere", AskRewrite, "gotk ls ../elsewhere"},
		{"ls ~/x", AskRewrite, "gotk ls ~/x"},
		{"(ls)", AskRewrite, "(gotk ls)"},
		{"time git status", AskRewrite, "time gotk git status"},
		{"nice git status", AskRewrite, "nice gotk git status"},
		{"git -C sub status", AskRewrite, "gotk git -C sub status"},
		{"git status && echo done", AllowRewrite, "gotk git status && echo done"},
		{"cd sub && ls -la", AllowRewrite, "cd sub && gotk ls -la"},
		{"git status && go version", AskRewrite, "gotk git status && go version"},
	})
	// Default never becomes Allow on its own, even for a host without
	// read-only auto-allow.
	run(t, e, Request{}, []tc{{"git status", AskRewrite, "gotk git status"}})
	// A mode that runs everything: allow, but deny and ask rules still win.
	run(t, e, Request{AutoAllow: true}, []tc{
		{"make", AllowRewrite, "gotk make"},
		{"git push --force origin", AskRewrite, "gotk git push --force origin"},
		{"curl -s x", Deny, ""},
	})
}

func TestDisabledEnv(t *testing.T) {
	e := newEngine(t, "", config.Config{})
	e.Env.Getenv = func(k string) string {
		if k == "GOTK_DISABLED" {
			return "1"
		}
		return ""
	}
	if d := e.Decide(Request{Command: "git status"}); d.Verdict != Passthrough {
		t.Errorf("GOTK_DISABLED=1: %v", d.Verdict)
	}
}

func TestPrefix(t *testing.T) {
	e := newEngine(t, "", config.Config{})
	e.Prefix = "/opt/gotk/bin/gotk"
	if d := e.Decide(Request{Command: "git status && ls"}); d.Command != "/opt/gotk/bin/gotk git status && /opt/gotk/bin/gotk ls" {
		t.Errorf("prefix: %q", d.Command)
	}
}

func TestTrace(t *testing.T) {
	e := newEngine(t, `{"permissions":{"allow":["Bash(make)"]}}`, config.Config{})
	d := e.Decide(Request{Command: "make && echo done", ReadOnlyAutoAllow: true})
	if len(d.Segments) != 2 || !d.Segments[0].Rewritten || d.Segments[0].Rule != "make" ||
		d.Segments[0].Permission != "allow" || !strings.Contains(d.Segments[0].PermissionRule, "Bash(make)") ||
		d.Segments[1].Rewritten || d.Segments[1].Reason != "no rule for this command" || d.Rule != "make" {
		t.Errorf("trace: %+v", d.Segments)
	}
}

// TestTraceSaysWhyNot: a command gotk would rewrite that the line keeps
// as written says why, in its own segment.
func TestTraceSaysWhyNot(t *testing.T) {
	e := newEngine(t, "", config.Config{})
	d := e.Decide(Request{Command: "cd $D && go test ./... 2>&1 | tail -5", ReadOnlyAutoAllow: true})
	if d.Verdict != Passthrough || len(d.Segments) != 3 || d.Segments[1].Rule != "go.test" || d.Segments[1].Rewritten {
		t.Fatalf("decision %v: %+v", d.Verdict, d.Segments)
	}
	if d.Reason == "" || d.Segments[1].Reason != d.Reason {
		t.Errorf("go test's segment says %q, the line %q", d.Segments[1].Reason, d.Reason)
	}
}

// FuzzDecide: no panic, and the insertion property — deleting the
// inserted prefixes yields the input exactly.
func FuzzDecide(f *testing.F) {
	for _, s := range []string{"git status && npm test", "a | git log | head", "case x in a) ls;; esac", "FOO=1 timeout 3 git diff 2>&1", "git status\n# c\nls -la\n"} {
		f.Add(s)
	}
	e := newEngine(f, "", config.Config{})
	const mark = "\x01GOTK\x01"
	e.Prefix = mark
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Contains(src, "\x01") {
			return
		}
		d := e.Decide(Request{Command: src, ReadOnlyAutoAllow: true})
		if got := stripInserted(d.Command, mark); got != src {
			t.Fatalf("insertion property broken:\n in  %q\n out %q", src, d.Command)
		}
		if (d.Verdict == AllowRewrite || d.Verdict == AskRewrite) != (d.Command != src) {
			t.Fatalf("verdict %v with command %q for %q", d.Verdict, d.Command, src)
		}
	})
}
