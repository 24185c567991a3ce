package filter

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestLongStatusMatchesGit: on temporary repositories in each state,
// git status's long format rebuilt from `git status --porcelain=v2 -b`
// (what recall prints and gain counts) is byte for byte what the real git
// status prints; where the porcelain does not carry what the long format
// shows (a detached HEAD, conflicts, an operation in progress, config that
// changes the format, another language), Plain says it cannot, and the
// runner runs git status as typed instead.
func TestLongStatusMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	for _, tc := range []struct {
		name   string
		setup  string   // sh, run in an empty directory holding a repository "r" (cd'ed into)
		dir    string   // where git status runs, under r
		args   []string // git status's options
		global []string // git's options before status
		twin   bool     // Plain must say it cannot
	}{
		{name: "clean", setup: `commit a`},
		{name: "no commits", setup: ``},
		{name: "no commits, staged", setup: `echo x > a; mkdir d; echo y > d/b; git add .; echo z > u`},
		{name: "no commits, untracked", setup: `echo x > a`},
		{name: "modified", setup: `commit a b; echo more >> a`},
		{name: "staged and modified", setup: `commit a b; echo more >> a; git add a; echo again >> a; echo n > new; git add new`},
		{name: "untracked", setup: `commit a; echo x > u1; mkdir dir; echo y > dir/f; mkdir empty`},
		{name: "renamed", setup: `commit a b; git mv a a2; git mv b b2; echo more >> b2`},
		{name: "deleted", setup: `commit a b c; git rm -q a; rm b`},
		{name: "typechange", setup: `commit a b; rm a; ln -s b a`},
		{name: "intent to add", setup: `commit a; echo x > n; git add -N n`},
		{name: "odd names", setup: `commit a; echo x > 'with space'; echo y > 'tab	name'; echo z > 'é'; echo w >> a; git add 'with space'`},
		{name: "subdirectory", setup: `mkdir -p s/t; commit a s/b s/t/c; echo x >> a; echo y >> s/b; echo z > s/t/new`, dir: "s"},
		{name: "untracked not listed", setup: `commit a; echo x >> a; git add a; echo u > u`, args: []string{"-uno"}},
		{name: "untracked not listed, clean", setup: `commit a; echo u > u`, args: []string{"--untracked-files=no"}},
		{name: "ignored", setup: `echo '*.log' > .gitignore; git add .gitignore; git commit -qm i; echo x > a.log; echo y > b`, args: []string{"--ignored"}},
		{name: "pathspec", setup: `commit a b; echo x >> a; echo y >> b`, args: []string{"--", "b"}},
		{name: "up to date", setup: `commit a; upstream`},
		{name: "ahead 1", setup: `commit a; upstream; commit b`},
		{name: "ahead 2", setup: `commit a; upstream; commit b c`},
		{name: "behind 1", setup: `commit a; upstream; behind 1`},
		{name: "behind 3", setup: `commit a; upstream; behind 3`},
		{name: "diverged 1 1", setup: `commit a; upstream; behind 1; commit b`},
		{name: "diverged 2 3", setup: `commit a; upstream; behind 3; commit b; commit c`},
		{name: "upstream gone", setup: `commit a; upstream; git update-ref -d refs/remotes/origin/main`},
		{name: "no ahead-behind", setup: `commit a; upstream; commit b`, args: []string{"--no-ahead-behind"}},
		{name: "stash", setup: `commit a; echo x >> a; git stash -q; echo y >> a; git stash -q`, args: []string{"--show-stash"}},
		{name: "harmless config", setup: `commit a; git config color.ui auto; git config core.autocrlf false; echo x >> a`},
		{name: "linked worktree", setup: `commit a; git worktree add -q ../wt; echo x >> ../wt/a`, dir: "../wt"},
		{name: "git -C", setup: `mkdir s; commit a s/b; echo x >> s/b`, global: []string{"-C", "s", "--no-optional-locks"}},
		{name: "branch", setup: `commit a; git checkout -q -b feature/x; echo x >> a`},

		{name: "detached", setup: `commit a b; git checkout -q --detach; echo x >> a`, twin: true},
		{name: "conflict", setup: `conflict`, twin: true},
		{name: "merge fixed", setup: `conflict; echo fixed > a; git add a`, twin: true},
		{name: "cherry-pick", setup: `commit a; git checkout -q -b side; echo s > a; git commit -qam s; git checkout -q main; echo m > a; git commit -qam m; git cherry-pick side >/dev/null 2>&1 || true`, twin: true},
		{name: "status.short", setup: `commit a; git config status.short true`, twin: true},
		{name: "no hints", setup: `commit a; echo x >> a; git config advice.statusHints false`, twin: true},
		{name: "include", setup: `commit a; git config include.path other`, twin: true},
		{name: "git -c", setup: `commit a`, global: []string{"-c", "status.short=false"}, twin: true},
		{name: "git --git-dir", setup: `commit a`, global: []string{"--git-dir=.git"}, twin: true},
		{name: "german", setup: `commit a; echo de > .lang`, twin: true},
		{name: "column", setup: `commit a; echo x > u`, args: []string{"--column"}, twin: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			env := map[string]string{
				"HOME": root, "LANG": "C", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
				"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
				"PATH": os.Getenv("PATH"),
			}
			envList := func() []string {
				var l []string
				for k, v := range env {
					l = append(l, k+"="+v)
				}
				return l
			}
			sh := exec.Command("sh", "-ec", statusHelpers+tc.setup)
			sh.Dir, sh.Env = root, envList()
			if out, err := sh.CombinedOutput(); err != nil {
				t.Fatalf("setup: %v\n%s", err, out)
			}
			repo := filepath.Join(root, "r")
			if _, err := os.Stat(filepath.Join(repo, ".lang")); err == nil {
				env["LANG"] = "de_DE.UTF-8"
			}
			dir := filepath.Join(repo, tc.dir)
			args, global := tc.args, tc.global
			git := func(extra ...string) []byte {
				cmd := exec.Command("git", append(append(append([]string{}, global...), "status"), append(extra, args...)...)...)
				cmd.Dir, cmd.Env = dir, envList()
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%s: %v", cmd, err)
				}
				return out
			}
			want := git()
			porcelain := git("--porcelain=v2", "-b")
			argv := append(append(append([]string{"git"}, global...), "status"), args...)
			in := Input{
				Argv: argv, RanArgv: gitStatus{}.Args(argv, 0), Stdout: porcelain,
				Getenv: func(k string) string { return env[k] }, Dir: dir,
			}
			got, ok := gitStatus{}.Plain(in)
			switch {
			case tc.twin && ok:
				t.Fatalf("Plain rebuilt a status it cannot vouch for:\n%s", got)
			case tc.twin:
			case !ok:
				t.Fatalf("Plain cannot rebuild:\n%s\nreal:\n%s", porcelain, want)
			case string(got) != string(want):
				t.Fatalf("rebuilt status differs from git's\n--- rebuilt\n%s--- git\n%s--- porcelain\n%s", got, want, porcelain)
			}
		})
	}
}

// statusHelpers are shell functions for the scenarios: commit FILES…
// (writes and commits them), upstream (a clone's origin/main tracks main),
// behind N (origin/main gains N commits), conflict (a merge stopped on a).
const statusHelpers = `
git init -q -b main r
cd r
commit() {
	for f in "$@"; do echo "$f $RANDOM" > "$f"; git add "$f"; done
	git commit -qm "c $*"
}
upstream() {
	git clone -q --bare . ../origin.git
	git remote add origin ../origin.git
	git fetch -q origin
	git branch -q --set-upstream-to=origin/main
}
behind() {
	git clone -q ../origin.git ../other
	for i in $(seq "$1"); do (cd ../other && echo "$i" > "o$i" && git add "o$i" && git commit -qm "o$i"); done
	(cd ../other && git push -q origin main)
	git fetch -q origin
}
conflict() {
	commit a
	git checkout -q -b side; echo side > a; git commit -qam side
	git checkout -q main; echo main > a; git commit -qam main
	git merge side >/dev/null 2>&1 || true
}
`
