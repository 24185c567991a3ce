package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/hosts/claude"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/registry"
	"github.com/gotk-dev/gotk/core/shell"
	"github.com/gotk-dev/gotk/e2e/fakemodel"
)

// Claude Code's own read-only command set, measured. Without any hook and
// without any permission rule, in `claude -p`'s default permission mode,
// Claude either runs a Bash command without asking or refuses it ("This
// command requires approval" / "you haven't granted it yet"): -p has nobody
// to ask. Which commands it runs is the read-only set gotk must mirror
// (registry.IsReadOnly) so that its hook answers "allow" exactly where
// Claude would have run the original.
//
// The test runs a table of commands in a few Claude runs (the fake model
// scripts many calls per run), logs a report (a markdown table), and then
// asserts only for the commands gotk's registry has a row for:
// registry.IsReadOnly must agree with what Claude did. A Claude version that
// changes its read-only set then fails here loudly.

// roProbe is one command to measure.
type roProbe struct {
	cmd  string
	note string // why it is in the table
}

// roBatch is one Claude run: its calls run in order in one project. Claude
// keeps its working directory between calls, and some calls change the
// project when they run, so those come last, the most destructive at the
// very end.
type roBatch struct {
	name   string
	probes []roProbe
}

// roTmp in a command stands for the run's TMPDIR, so that a write outside
// the project stays inside the run's files if Claude runs it.
const roTmp = "{tmp}"

var roBatches = []roBatch{
	{name: "files-and-misc", probes: []roProbe{
		{"echo hi", "brief"},
		{"pwd", "brief"},
		{"true", "brief"},
		{"false", "control: exits 1"},
		{"ls", "brief"},
		{"ls -la", "brief"},
		{"ls -R", "registry ls"},
		{"ls *.go", "glob"},
		{"cat f", "brief"},
		{"cat -n f", "registry cat"},
		{"cat -A f", "registry cat (not rewritten)"},
		{"head -5 f", "brief"},
		{"head -n 5 f", "registry head"},
		{"tail -3 f", "brief"},
		{"tail -n 3 f", "registry tail"},
		{"wc -l f", "brief"},
		{"wc f", "registry wc"},
		{"grep -n x f", "brief"},
		{"grep -r x .", "registry grep"},
		{"rg x", "brief"},
		{"rg --files", "registry rg"},
		{"rg --pre cat x", "registry rg: --pre runs a program"},
		{"find . -name '*.go'", "brief"},
		{"find . -type f", "registry find"},
		{`find . -name f -exec cat {} \;`, "registry find: -exec"},
		{"tree", "brief"},
		{"tree -L 1", "registry tree"},
		{"diff a b", "brief"},
		{"diff -u a b", "registry diff"},
		{"sort f", "brief"},
		{"uniq f", "brief"},
		{"which git", "brief"},
		{"date", "brief"},
		{"whoami", "brief"},
		{"env", "brief"},
		{"printenv", "brief"},
		{"stat f", "brief"},
		{"file f", "brief"},
		{"du -sh .", "brief"},
		{"df -h", "brief"},
		{"go version", "brief"},
		{"go env GOPATH", "brief"},
		{"npm -v", "brief"},
		{"node -v", "brief"},
		{"basename /a/b", "extra"},
		{"realpath f", "extra"},
		{"uname -a", "extra"},
		{"id", "extra"},
		{"cut -c1-3 f", "extra"},
		{"sed -n 1p f", "extra"},
		{"awk '{print $1}' f", "extra"},
		{"jq --version", "extra"},
		{"type git", "extra"},
		{"command -v git", "extra"},
		{"printf 'a\\n'", "extra"},
		{"echo -e 'a\\nb'", "extra"},
		{"sort -r f", "extra: sort option"},
		{"uniq -c f", "extra: uniq option"},
		{"rg -n x f", "registry rg"},
		{"rg -l x", "registry rg"},
		{"rg -i x", "registry rg"},
		{"rg -z x", "registry rg: runs decompressors"},
		{"grep -R x .", "registry grep"},
		{"head -c 5 f", "registry head"},
		{"find . -name f -fls found.txt", "registry find: -fls writes"},
		{"find . -name f -fprintf found.txt '%p'", "registry find: -fprintf writes"},
		{"find . -name f -execdir cat {} +", "registry find: -execdir"},
		{"find . -name f -print0", "registry find"},
		{"find . -name f -ls", "registry find"},
		{"tree -R", "registry tree: -R"},
		{"tree -H .", "registry tree: HTML to stdout"},
		{"tree -J", "registry tree"},
		{"diff -r sub sub", "registry diff"},
	}},
	{name: "git-and-registry", probes: []roProbe{
		{"git status", "brief"},
		{"git status --porcelain", "registry git.status"},
		{"git status -s", "registry git.status"},
		{"git log -3", "brief"},
		{"git log --oneline -3", "registry git.log"},
		{"git log -p -1", "registry git.log"},
		{"git log --ext-diff -1", "registry git.log: --ext-diff"},
		{"git diff", "brief"},
		{"git diff --stat", "registry git.diff"},
		{"git diff --ext-diff", "registry git.diff: --ext-diff"},
		{"git show HEAD", "brief"},
		{"git show --stat HEAD", "registry git.diff (show)"},
		{"git branch", "brief"},
		{"git branch -a", "registry git.branch"},
		{"git branch --list", "registry git.branch"},
		{"git branch -v", "registry git.branch"},
		{"git branch --show-current", "registry git.branch"},
		{"git stash list", "brief"},
		{"git stash show", "registry git.stash (no stash: errors, but runs or not)"},
		{"git -C . status", "brief: git global -C"},
		{"git -c core.pager=cat log -1", "brief: git global -c"},
		{"git --no-pager log -1", "registry: git global flag"},
		{"git -P log -1", "registry: git global flag"},
		{"/usr/bin/git status", "registry: program by absolute path"},
		{"git rev-parse HEAD", "git, no registry row"},
		{"git ls-files", "registry git.ls-files"},
		{"git ls-files -o --exclude-standard", "registry git.ls-files"},
		{"git blame main.go", "registry git.blame"},
		{"git blame -L 1,2 main.go", "registry git.blame"},
		{"git grep x", "registry git.grep"},
		{"git grep -n x", "registry git.grep"},
		{"git grep --line-number x", "registry git.grep"},
		{"git grep -i x", "registry git.grep"},
		{"git grep --ignore-case x", "registry git.grep"},
		{"git grep -l x", "registry git.grep"},
		{"git grep --files-with-matches x", "registry git.grep"},
		{"git grep -c x", "registry git.grep"},
		{"git grep --count x", "registry git.grep"},
		{"git grep -w x", "registry git.grep"},
		{"git grep --word-regexp x", "registry git.grep"},
		{"git grep -e x", "registry git.grep"},
		{"git grep -E 'x|y'", "registry git.grep"},
		{"git grep --extended-regexp x", "registry git.grep"},
		{"git grep -F x", "registry git.grep"},
		{"git grep --fixed-strings x", "registry git.grep"},
		{"git grep --cached x", "registry git.grep"},
		{"git grep -h x", "registry git.grep"},
		{"git grep -I x", "registry git.grep"},
		{"git grep -v x", "registry git.grep"},
		{"git grep -n x HEAD", "registry git.grep: a revision"},
		{"git grep -O x", "registry git.grep: -O opens a pager"},
		{"git grep --no-index x", "registry git.grep"},
		{"git grep -A 1 x", "registry git.grep"},
		{"go list ./...", "registry go.list"},
		{"go list -m all", "registry go.list"},
		{"go mod graph", "registry go.list"},
		{"cargo tree", "registry cargo.tree"},
		{"npm outdated", "registry npm.outdated"},
		{"pnpm outdated", "registry npm.outdated"},
		{"dpkg -l", "registry dpkg.list"},
		{"dpkg-query -l", "registry dpkg.list"},
		{"apt list --installed", "registry dpkg.list"},
		{"git remote -v", "git, no registry row"},
		{"git config --get user.name", "git, no registry row"},
		{"git tag", "git, no registry row"},
		{"git status --ignored", "registry git.status"},
		{"git status -uno", "registry git.status"},
		{"git status --porcelain=v2 --branch", "registry git.status"},
		{"git log --stat -1", "registry git.log"},
		{"git log --format=%H -1", "registry git.log"},
		{"git log --graph --all --oneline", "registry git.log"},
		{"git log -S x", "registry git.log"},
		{"git log --follow main.go", "registry git.log"},
		{"git log --textconv -1 -p", "registry git.log: --textconv"},
		{"git diff --cached", "registry git.diff"},
		{"git diff HEAD~1", "registry git.diff"},
		{"git diff --name-only", "registry git.diff"},
		{"git diff --no-index a b", "registry git.diff: --no-index"},
		{"git diff --textconv", "registry git.diff: --textconv"},
		{"git show HEAD:main.go", "registry git.diff (show)"},
		{"git show --name-only HEAD", "registry git.diff (show)"},
		{"git branch -r", "registry git.branch"},
		{"git branch -vv", "registry git.branch"},
		{"git branch --contains HEAD", "registry git.branch"},
		{"git branch --merged", "registry git.branch"},
		{"git branch --list 'm*'", "registry git.branch"},
		{"git branch --sort=-committerdate", "registry git.branch"},
		{"git stash show -p", "registry git.stash"},
		{"git --no-pager status", "registry: git global flag"},
		{"git -C sub log -1", "registry: git global -C"},
		{"npm ls", "registry npm.list (ReadOnly nil)"},
		{"go vet ./...", "registry go.build (ReadOnly nil)"},
	}},
	{name: "compound-and-wrappers", probes: []roProbe{
		{"git status && echo done", "brief: compound"},
		{"git log | head -3", "brief: pipe"},
		{"ls | wc -l", "brief: pipe"},
		{"ls && git status", "compound of two read-only"},
		{"git status; ls", "list"},
		{"git status || true", "or-list"},
		{"git status && go version", "compound, go version"},
		{"git status && go env GOPATH", "compound, go env"},
		{"cat f | sort", "pipe"},
		{"git log | cat", "pipe"},
		{"sort f | uniq", "pipe"},
		{"git status 2>&1", "fd redirect"},
		{"ls 2>/dev/null", "redirect to /dev/null"},
		{"git status > /dev/null", "redirect to /dev/null"},
		{"(ls)", "subshell"},
		{"ls $(pwd)", "command substitution"},
		{"echo $HOME", "variable expansion"},
		{"FOO=1 git status", "brief: assignment prefix"},
		{"FOO=1 ls", "assignment prefix"},
		{"timeout 5 git status", "brief: wrapper"},
		{"time git status", "wrapper"},
		{"nice git status", "wrapper"},
		{"env FOO=1 git status", "wrapper env"},
		{"command git status", "wrapper command"},
		{"timeout 5 ls", "wrapper"},
		{"nohup git status", "wrapper"},
		{"stdbuf -o0 git status", "wrapper"},
		{"command ls", "wrapper command"},
		{"env git status", "wrapper env, no assignment"},
		{"time ls", "wrapper (bash keyword)"},
		{"git status && true", "compound"},
		{"echo a && echo b", "compound"},
		{"pwd && ls", "compound"},
		{"git status | grep x", "pipe"},
		{"ls | sort", "pipe"},
		{"ls | uniq", "pipe"},
		{"git log | tail -3", "pipe"},
		{"git log | grep x", "pipe"},
		{"cat f | head -2", "pipe"},
		{"ls; false", "list"},
		{"echo f | xargs cat", "xargs"},
		{"bash -c 'git status'", "shell -c"},
		{"sh -c ls", "shell -c"},
		{"echo hi > out.txt", "control: redirect into a file"},
	}},
	{name: "flags-follow-up", probes: []roProbe{
		{"git status -u", "registry git.status"},
		{"git status -unormal", "registry git.status"},
		{"git status --untracked-files=no", "registry git.status"},
		{"git status -b", "registry git.status"},
		{"git status --branch", "registry git.status"},
		{"git status --porcelain=v1", "registry git.status"},
		{"git status --porcelain=v2", "registry git.status"},
		{"git status --short --branch", "registry git.status"},
		{"git status .", "registry git.status: pathspec"},
		{"git status -- main.go", "registry git.status: pathspec"},
		{"git log --no-ext-diff -1", "registry git.log"},
		{"git log --decorate -1", "registry git.log"},
		{"git log -n 2", "registry git.log"},
		{"git log main", "registry git.log: revision"},
		{"git log -- main.go", "registry git.log: pathspec"},
		{"git log --name-status -1", "registry git.log"},
		{"git log --pretty=format:%s -2", "registry git.log"},
		{"git log --since=1.week", "registry git.log"},
		{"git log --author=e2e", "registry git.log"},
		{"git diff --no-ext-diff", "registry git.diff"},
		{"git diff --color=never", "registry git.diff"},
		{"git diff -U1", "registry git.diff"},
		{"git diff HEAD -- main.go", "registry git.diff"},
		{"git diff --word-diff", "registry git.diff"},
		{"git show -s HEAD", "registry git.diff (show)"},
		{"git show --format=%H -s", "registry git.diff (show)"},
		{"git branch --merged main", "registry git.branch"},
		{"git branch --no-merged", "registry git.branch"},
		{"git branch --points-at HEAD", "registry git.branch"},
		{"git branch -l 'm*'", "registry git.branch"},
		{"git branch --format=%(refname)", "registry git.branch"},
		{"git stash list --oneline", "registry git.stash"},
		{"git stash show --stat", "registry git.stash"},
		{"rg --files-with-matches x", "registry rg"},
		{"rg --type go x", "registry rg"},
		{"rg -g '*.go' x", "registry rg"},
		{"rg -c x", "registry rg"},
		{"rg --hidden x", "registry rg"},
		{"rg --search-zip x", "registry rg"},
		{"rg --files sub", "registry rg"},
		{"rg -uu x", "registry rg"},
		{"grep -rn x sub", "registry grep"},
		{"grep -f f f", "registry grep: patterns from a file"},
		{"ls -la sub", "registry ls"},
		{"ls /etc", "registry ls: outside the project"},
		{"cat /etc/hostname", "registry cat: outside the project"},
		{"head -1 /etc/passwd", "registry head: outside the project"},
		{"tail -n +2 f", "registry tail"},
		{"wc -c f a b", "registry wc"},
		{"diff -q a b", "registry diff"},
		{"diff a /etc/hostname", "registry diff: outside the project"},
		{"find sub -maxdepth 1", "registry find"},
		{"find . -newer f", "registry find"},
		{"find / -maxdepth 1 -name etc", "registry find: outside the project"},
		{"tree -a sub", "registry tree"},
		{"tree -d", "registry tree"},
		{"tree --noreport", "registry tree"},
		{"cd sub", "cd alone (Claude keeps the cwd: last)"},
	}},
	// Stash and branch options that write, run programs or change the
	// config (a hostile review's finds), and abbreviated long options,
	// which git accepts. Order matters: each may change the project.
	{name: "stash-and-branch-options", probes: []roProbe{
		{"git stash show --ext-diff", "registry git.stash: --ext-diff runs a program"},
		{"git stash list -p --ext-diff", "registry git.stash: --ext-diff"},
		{"git stash show --textconv", "registry git.stash: --textconv"},
		{"git stash list -p", "registry git.stash"},
		{"git stash show --name-only", "registry git.stash"},
		{"git stash list --format=%gd", "registry git.stash"},
		{"git stash list --outp=stash.log", "registry git.stash: --output abbreviated"},
		{"git stash list --output=stash2.log", "registry git.stash: --output writes"},
		{"git stash show --output=stash.diff", "registry git.stash: --output writes"},
		{"git branch --unset-upst", "registry git.branch: --unset-upstream abbreviated"},
		{"git branch --set-upstream-t=main", "registry git.branch: --set-upstream-to abbreviated"},
		{"git branch --del nosuch", "registry git.branch: --delete abbreviated"},
		{"git branch --cont HEAD", "registry git.branch: --contains abbreviated"},
		{"git branch --sho", "registry git.branch: --show-current abbreviated"},
		{"rg --max-columns=80 x", "registry rg: an option outside Claude's table"},
		{"rg -A3 x", "registry rg: -A with its count glued"},
		{"grep --include=*.go -r x .", "registry grep"},
		{"grep --line-buffered x f", "registry grep"},
		{"grep --exclude-dir -r x", "registry grep: a string option without its value"},
		{"tree -L 2 -a", "registry tree"},
		{"tree --du", "registry tree"},
		{"tree -E", "registry tree: an option outside Claude's table"},
		{"git blame -L 1,1 main.go", "registry git.blame"},
		{"git blame --reverse HEAD main.go", "registry git.blame: an option outside Claude's table"},
		{"git ls-files --exclude-standard -o", "registry git.ls-files"},
		{"git ls-files --with-tree=HEAD", "registry git.ls-files: an option outside Claude's table"},
		{"git rev-parse --local-env-vars", "git rev-parse: an option outside Claude's table"},
		{"git rev-parse --short HEAD", "git rev-parse"},
		{"which -a git", "which"},
		{"file -b f", "file"},
		{"date +%s", "date: a format operand"},
	}},
	// Order matters: each may change the project when it runs.
	{name: "writes-and-state", probes: []roProbe{
		{"git log --output=" + roTmp + "/x", "brief (git log --output=/tmp/x, in the run's TMPDIR)"},
		{"git log --output=out.log", "registry git.log: --output"},
		{"git diff --output=out.diff", "registry git.diff: --output"},
		{"git show --output=show.diff HEAD", "registry git.diff: --output"},
		{"tree -o tree.txt", "registry tree: -o"},
		{"find . -name f -fprint found.txt", "registry find: -fprint"},
		{"touch t", "control: writes"},
		{"sed -i s/x/y/ f", "writes"},
		{"git branch newname", "brief: creates a branch"},
		{"git branch -d newname", "registry git.branch: delete"},
		{"git branch -c main copy", "registry git.branch: copy"},
		{"git branch -m main other", "registry git.branch: move"},
		{"git stash", "brief: pushes a stash"},
		{"cd sub && ls", "brief: cd (Claude keeps the cwd: last but one)"},
		{"find . -delete", "brief: deletes (last)"},
	}},
}

// roRow is one measured command.
type roRow struct {
	roProbe
	batch   string
	outcome Outcome
	result  string
	// gotk's view today.
	regRow   string // registry row id consulted by IsReadOnly, "" if none
	simple   bool   // one plain simple command: IsReadOnly applies to it
	isRO     bool   // registry.IsReadOnly(argv)
	gotkPerm string // decision.Decide(...).Permission: allow | default
}

func TestClaudeReadOnly(t *testing.T) {
	RequireEnabled(t)
	var claude *Agent
	for _, a := range SelectedAgents() {
		if a.Name == "claude" {
			claude = a
		}
	}
	if claude == nil {
		t.Skipf("claude is not among %s", os.Getenv(EnvAgents))
	}

	var rows []roRow
	for _, b := range roBatches {
		var cmds []string
		e := NewEnv(t, claude, fakemodel.Script{}) // the script is set below, once Tmp is known
		for _, p := range b.probes {
			cmds = append(cmds, strings.ReplaceAll(p.cmd, roTmp, e.Tmp))
		}
		e.Model.Close()
		e.Model = fakemodel.New(fakemodel.Script{Commands: cmds})
		t.Cleanup(e.Model.Close)
		claude.setup(e) // point Claude at the new model
		roProject(e)
		res := e.Run()
		denied, err := claudeDenials(res.Stdout)
		if err != nil {
			t.Errorf("batch %s: Claude's JSON output: %v", b.name, err)
		}
		for i, p := range b.probes {
			text := res.ToolResult(i)
			r := roRow{roProbe: p, batch: b.name, outcome: claudeOutcome(text), result: text}
			// Two oracles: the tool result's wording, and the
			// permission_denials Claude lists in its JSON output.
			if text != "" && denied[i] != (r.outcome == Refused) {
				t.Errorf("%q: the tool result says %s, but permission_denials %s it: %q",
					p.cmd, r.outcome, map[bool]string{true: "lists", false: "does not list"}[denied[i]], tail(text, 300))
			}
			gotkView(t, &r)
			rows = append(rows, r)
		}
		if len(res.ToolResults) < len(b.probes) {
			t.Errorf("batch %s: %d of %d tool results came back (%v)", b.name, len(res.ToolResults), len(b.probes), res.Err)
		}
	}

	t.Logf("Claude Code 2.1.328, `claude -p`, default permission mode, no rules, no hook:\n%s", roReport(rows))

	// The facts, as assertions, for what the registry classifies.
	for _, r := range rows {
		if !r.simple || r.regRow == "" {
			continue
		}
		switch r.outcome {
		case Ran, Refused:
		default:
			t.Errorf("%q (registry %s): Claude's outcome is %s, want ran or refused: %q", r.cmd, r.regRow, r.outcome, tail(r.result, 200))
			continue
		}
		ran := r.outcome == Ran
		if strings.Contains(r.note, "outside the project") {
			// Claude refuses reads outside its working directories: argv
			// alone cannot tell, so the decision (which knows the cwd)
			// must not allow what Claude refused.
			if !ran && r.gotkPerm == "allow" {
				t.Errorf("READ-ONLY SET: %q reads outside the project: Claude refused it, but gotk's decision for Claude allows it", r.cmd)
			}
			continue
		}
		if r.isRO != ran {
			t.Errorf("READ-ONLY SET: %q (registry row %s): registry.IsReadOnly = %v, but Claude %s it without a rule",
				r.cmd, r.regRow, r.isRO, map[bool]string{true: "ran", false: "refused"}[ran])
		}
	}
}

// claudeRefusal are the refusals of Claude Code 2.1.328's read-only check
// that Classify's patterns do not know: each says the command was not run
// for want of approval.
var claudeRefusal = regexp.MustCompile(`(?i)cannot be auto-allowed|require approval|can't be checked before it runs|was blocked\. For security|bash rejects the line`)

// claudeOutcome is Classify, plus the refusals only the read-only check
// words.
func claudeOutcome(text string) Outcome {
	if o := Classify("claude", text); o != Ran {
		return o
	}
	if claudeRefusal.MatchString(text) {
		return Refused
	}
	return Ran
}

// claudeDenials reads the scripted calls Claude refused from the
// permission_denials of its `--output-format json` result (call IDs
// toolu_e2e_N are scripted call N-1).
func claudeDenials(stdout string) (map[int]bool, error) {
	var out struct {
		Denials []struct {
			ToolUseID string `json:"tool_use_id"`
		} `json:"permission_denials"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(stdout)), &out); err != nil {
		return nil, err
	}
	m := map[int]bool{}
	for _, d := range out.Denials {
		var n int
		if _, err := fmt.Sscanf(d.ToolUseID, "toolu_e2e_%d", &n); err == nil && n > 0 {
			m[n-1] = true
		}
	}
	return m, nil
}

// roProject adds the files the table's commands read.
func roProject(e *Env) {
	e.WriteFile(filepath.Join(e.Project, "f"), "x one\nline two\nx three\nline four\nline five\nline six\nline six\n")
	e.WriteFile(filepath.Join(e.Project, "a"), "1\n2\n3\n")
	e.WriteFile(filepath.Join(e.Project, "b"), "1\n2\n4\n")
	e.WriteFile(filepath.Join(e.Project, "sub", "s.txt"), "in sub\n")
	goModule(e)
}

// gotkView fills in what gotk's core says about r's command today: the
// registry row IsReadOnly consults (for a plain simple command), IsReadOnly
// itself, and the permission the decision engine computes for Claude with
// no rules and the read-only auto-allow on.
func gotkView(t *testing.T, r *roRow) {
	t.Helper()
	home := t.TempDir()
	eng := decision.New(claude.Host, permission.Env{
		Getenv: func(string) string { return "" }, Home: home, Cwd: filepath.Join(home, "project"), ManagedDir: filepath.Join(home, "managed"),
	})
	proj := filepath.Join(home, "project")
	d := eng.Decide(decision.Request{Command: r.cmd, Cwd: proj, ReadOnlyAutoAllow: true})
	r.gotkPerm = d.Permission.String()

	s, err := shell.Parse(r.cmd)
	if err != nil || len(s.Commands) != 1 || len(s.Unsafe) > 0 {
		return
	}
	c := s.Commands[0]
	// Not a plain simple command: `time git status`, `(ls)`, `! ls`.
	if strings.TrimSpace(r.cmd) != r.cmd[c.Start:c.End] {
		return
	}
	// Redirects (2>&1, >/dev/null) follow the last word inside the span.
	redirected := len(c.Words) > 0 && strings.TrimSpace(r.cmd[c.Words[len(c.Words)-1].End:c.End]) != ""
	if len(c.Assigns) > 0 || redirected || c.PipeLen > 1 || c.Opaque {
		return
	}
	argv := make([]string, len(c.Words))
	for i, w := range c.Words {
		if !w.Literal {
			return
		}
		argv[i] = w.Value
	}
	r.simple = true
	r.isRO = registry.IsReadOnly(argv)
	r.regRow = registryRow(argv)
}

// registryRow is the id of the registry row whose program and subcommand
// argv names (the row IsReadOnly consults, acceptance tests aside), or "".
// The program may be spelled by a path into a known bin directory.
func registryRow(argv []string) string {
	prog, ok := registry.ProgramName(argv[0])
	if !ok {
		return ""
	}
	ops := argv[1:]
	if prog == "git" { // git's global options come before the subcommand
		for len(ops) > 0 && strings.HasPrefix(ops[0], "-") {
			switch ops[0] {
			case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env":
				ops = ops[min(2, len(ops)):]
			default:
				ops = ops[1:]
			}
		}
	}
	for _, rule := range registry.Rules() {
		if rule.Program != prog {
			continue
		}
		if rule.Sub == nil {
			// A row over the whole program covers only what it accepts:
			// node's row is `node --test`, not `node -v`.
			if rule.Accept != nil && !rule.Accept(ops) {
				continue
			}
			return rule.ID
		}
		for _, sub := range rule.Sub {
			w := strings.Fields(sub)
			if len(w) <= len(ops) && strings.Join(ops[:len(w)], " ") == sub {
				return rule.ID
			}
		}
	}
	return ""
}

// roReport is the measured table in markdown.
func roReport(rows []roRow) string {
	var b strings.Builder
	b.WriteString("| command | Claude | registry row | IsReadOnly | gotk permission today | verdict | Claude's tool result (start) |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		claude := "ran"
		switch r.outcome {
		case Ran:
		case Refused:
			claude = "**refused**"
		default:
			claude = string(r.outcome)
		}
		row, ro := "–", "–"
		if r.simple {
			ro = fmt.Sprint(r.isRO)
			if r.regRow != "" {
				row = r.regRow
			}
		}
		verdict := "agrees"
		gotkAllows := r.gotkPerm == "allow"
		switch {
		case r.outcome == Ran && !gotkAllows:
			verdict = "narrower (gotk asks)"
		case r.outcome == Refused && gotkAllows:
			verdict = "**WIDER (gotk allows)**"
		case r.outcome != Ran && r.outcome != Refused:
			verdict = "?"
		}
		res := strings.Join(strings.Fields(r.result), " ")
		if len(res) > 90 {
			res = res[:90] + "…"
		}
		res = strings.ReplaceAll(res, "|", `\|`)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s |\n",
			strings.ReplaceAll(r.cmd, "|", `\|`), claude, row, ro, r.gotkPerm, verdict, res)
	}
	b.WriteString("\nRefusals other than \"This command requires approval\", in full:\n")
	for _, r := range rows {
		if r.outcome != Ran && strings.TrimSpace(r.result) != "This command requires approval" {
			fmt.Fprintf(&b, "- `%s`: %q\n", r.cmd, r.result)
		}
	}
	return b.String()
}
