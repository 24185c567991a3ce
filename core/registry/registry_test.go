package registry

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

func classifyID(cmd string) string {
	m, ok := Classify(strings.Fields(cmd))
	if !ok {
		return ""
	}
	return m.Rule.ID
}

// TestClassify: every rule, positive and negative.
func TestClassify(t *testing.T) {
	cases := map[string]string{
		// tests
		"go test ./...":             "go.test",
		"go -C sub test -run X":     "go.test",
		"cargo test":                "cargo.test",
		"cargo +nightly test --lib": "cargo.test",
		"pytest -q tests/":          "pytest",
		"python -m pytest -x":       "pytest",
		"python3 -m pytest":         "pytest",
		"uv run pytest":             "pytest",
		"vitest run":                "vitest",
		"vitest":                    "vitest",
		"npx vitest run src":        "vitest",
		"vitest --watch":            "",
		"vitest watch":              "",
		"jest --ci":                 "jest",
		"jest --watch":              "",
		"npx playwright test":       "playwright.test",
		"playwright install":        "",
		// build
		"go build ./...":                     "go.build",
		"go vet ./...":                       "go.build",
		"go run .":                           "",
		"go mod tidy":                        "go.mod",
		"go mod tidy -json":                  "",
		"go mod graph":                       "go.list",
		"go list ./...":                      "go.list",
		"go list -m all":                     "go.list",
		"go list -f {{.Dir}} ./...":          "",
		"go list -json ./...":                "",
		"go list -m -json all":               "",
		"git blame main.go":                  "git.blame",
		"git -C x blame -L 1,9 a.go":         "git.blame",
		"git blame --porcelain a.go":         "",
		"git blame -s a.go":                  "",
		"git grep -n TODO":                   "git.grep",
		"git grep -p TODO":                   "",
		"git grep -z TODO":                   "",
		"git ls-files":                       "git.ls-files",
		"git ls-files -o --exclude-standard": "git.ls-files",
		"git ls-files -s":                    "",
		"git ls-files -z":                    "",
		"git ls-files --format=%(path)":      "",
		"cargo tree":                         "cargo.tree",
		"cargo tree -e normal -i serde":      "cargo.tree",
		"cargo tree --prefix none":           "",
		"npm outdated":                       "npm.outdated",
		"npm outdated --json":                "",
		"pnpm outdated":                      "npm.outdated",
		"dpkg -l":                            "dpkg.list",
		"dpkg -L bash":                       "",
		"dpkg -i x.deb":                      "",
		"apt list --installed":               "dpkg.list",
		"apt install jq":                     "",
		"cargo fmt --check":                  "cargo.fmt",
		"cargo fmt -- --check":               "cargo.fmt",
		"cargo fmt":                          "",
		"cargo fmt --check --emit=json":      "",
		"cargo nextest run":                  "cargo.nextest",
		"cargo +nightly nextest run -p a":    "cargo.nextest",
		"cargo nextest list":                 "",
		"yarn workspace web test":            "yarn.run",
		"yarn workspace web run build":       "yarn.run",
		"yarn workspace web run dev":         "",
		"yarn workspace web start":           "",
		"yarn workspace web add lodash":      "",
		"yarn workspace --cwd test":          "",
		"cargo build --release":              "cargo.build",
		"cargo clippy -- -D warnings":        "cargo.build",
		"cargo run":                          "",
		"npm run build":                      "npm.run",
		"npm test":                           "npm.run",
		"npm install":                        "npm.run",
		"npm ci":                             "npm.run",
		"npm run dev":                        "",
		"npm start":                          "",
		"npm publish":                        "",
		"pnpm install":                       "pnpm.run",
		"pnpm -r run build":                  "pnpm.run",
		"pnpm exec tsc":                      "tsc",
		"yarn run build":                     "yarn.run",
		"yarn exec tsc -p .":                 "tsc",
		"bun install":                        "bun.run",
		"bun run dev":                        "",
		"make":                               "make",
		"make -j4 all":                       "make",
		"make -n":                            "",
		"dotnet build":                       "dotnet.build",
		"dotnet run":                         "",
		"tsc --noEmit":                       "tsc",
		"npx tsc":                            "tsc",
		"npx -y tsc -p .":                    "tsc",
		"npm exec -- tsc":                    "tsc",
		"node_modules/.bin/tsc":              "tsc",
		"./node_modules/.bin/tsc -b":         "tsc",
		"tsc -w":                             "",
		"tsc --watch":                        "",
		"next build":                         "next.build",
		"npx next build":                     "next.build",
		"next dev":                           "",
		// vcs
		"git status":                         "git.status",
		"git -C /x -c a=b --no-pager status": "git.status",
		"git --git-dir=/x/.git status":       "git.status",
		"git log --oneline -5":               "git.log",
		"git diff HEAD~1":                    "git.diff",
		"git show HEAD":                      "git.diff",
		"git branch -a":                      "git.branch",
		"git stash list":                     "git.stash",
		"git add -A":                         "git.change",
		"git commit -m x":                    "git.change",
		"git push":                           "git.change",
		"git pull":                           "git.change",
		"git fetch":                          "git.change",
		"git checkout main":                  "git.change",
		"git rebase -i":                      "",
		"git --frobnicate status":            "",
		"/usr/bin/git status":                "git.status",
		"/tmp/evil/git status":               "",
		"./git status":                       "",
		// lint
		"eslint .":                "eslint",
		"npx eslint src":          "eslint",
		"biome check .":           "biome",
		"biome migrate":           "",
		"ruff check .":            "ruff",
		"ruff format --check":     "ruff",
		"ruff rule F401":          "",
		"golangci-lint run ./...": "golangci-lint",
		"golangci-lint linters":   "",
		"mypy src":                "mypy",
		"python -m mypy .":        "mypy",
		"prettier --check .":      "prettier.check",
		"prettier -c src":         "prettier.check",
		"prettier --write .":      "",
		"prettier src":            "",
		// packages
		"pip list":                         "pip",
		"pip3 install -r requirements.txt": "pip",
		"pip show requests":                "pip",
		"pip uninstall x":                  "",
		"uv pip list":                      "uv.pip",
		"uv pip install x":                 "uv.pip",
		"cargo install ripgrep":            "cargo.install",
		"pnpm list":                        "pnpm.list",
		"pnpm ls --depth 0":                "pnpm.list",
		"npm ls":                           "npm.list",
		// files
		"ls":                     "ls",
		"ls -la src":             "ls",
		"find . -name '*.go'":    "find",
		"find . -print0":         "",
		"grep -rn TODO .":        "grep",
		"grep -Z x f":            "",
		"rg -n foo":              "rg",
		"rg --json foo":          "",
		"cat a.go":               "cat",
		"cat -n a.go b.go":       "cat",
		"cat":                    "",
		"cat -A f":               "",
		"cat -":                  "",
		"head -n 20 f":           "head",
		"head":                   "",
		"tail -5 f":              "tail",
		"tail -f log":            "",
		"tail -F log":            "",
		"tail --follow=name log": "",
		"tail -fn 5 log":         "",
		"tree -L 2":              "tree",
		"tree -o out.txt":        "",
		"wc -l f":                "wc",
		"wc -l":                  "",
		"diff a b":               "diff",
		// infra
		"docker ps -a":                                "docker.ps",
		"docker container ls":                         "docker.ps",
		"docker images":                               "docker.images",
		"docker logs app":                             "docker.logs",
		"docker logs -f app":                          "",
		"docker logs --follow app":                    "",
		"docker build -t x .":                         "docker.build",
		"docker compose build":                        "docker.build",
		"docker compose ps":                           "docker.compose",
		"docker compose up -d":                        "docker.compose",
		"docker compose up --wait web":                "docker.compose",
		"docker compose up":                           "",
		"docker compose up -d --watch":                "",
		"docker compose logs web":                     "docker.compose",
		"docker compose logs -f web":                  "",
		"docker-compose up -d":                        "docker.compose",
		"docker-compose ps":                           "docker.compose",
		"docker run x":                                "",
		"docker --context prod ps":                    "docker.ps",
		"kubectl get pods":                            "kubectl.get",
		"kubectl -n kube-system get pods":             "kubectl.get",
		"kubectl get pods -w":                         "",
		"kubectl logs pod":                            "kubectl.logs",
		"kubectl logs -f pod":                         "",
		"kubectl describe pod x":                      "kubectl.describe",
		"kubectl apply -f x":                          "kubectl.apply",
		"kubectl apply -f x -o yaml":                  "",
		"kubectl apply -f x --dry-run=client -o json": "",
		"helm template ./chart":                       "helm.template",
		"helm template x ./c --output-dir out":        "",
		"terraform validate":                          "terraform.validate",
		"terraform validate -json":                    "",
		"tofu validate":                               "tofu.validate",
		"helm list":                                   "helm",
		"helm install x y":                            "",
		"terraform plan":                              "terraform.plan",
		"terraform -chdir=infra plan":                 "terraform.plan",
		"terraform plan -out=tf.plan":                 "",
		"terraform apply":                             "",
		"aws s3 ls":                                   "aws",
		"aws":                                         "",
		// never
		"sudo git status": "",
		"cd /tmp":         "",
		"echo hi":         "",
		"sed -n 1p f":     "",
		"awk 1 f":         "",
		"sort f":          "",
		"gotk git status": "",
		"rtk git status":  "",
		"":                "",
	}
	for cmd, want := range cases {
		if got := classifyID(cmd); got != want {
			t.Errorf("Classify(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestUnknownWordsAreRefused(t *testing.T) {
	// `tail $F log` with F=-f must not be rewritten: Unknown counts as any flag.
	if _, ok := Classify([]string{"tail", Unknown, "log"}); ok {
		t.Error("tail with an unknown word was classified")
	}
	if _, ok := Classify([]string{"git", Unknown}); ok {
		t.Error("git with an unknown subcommand was classified")
	}
	if m, ok := Classify([]string{"git", "log", Unknown}); !ok || m.Rule.ID != "git.log" {
		t.Error("git log $REV should still be git.log")
	}
	if IsReadOnly([]string{"find", ".", Unknown}) {
		t.Error("find with an unknown word must not be read-only")
	}
}

func TestReadOnly(t *testing.T) {
	ro := []string{
		"git status", "git status -s -b", "git status --porcelain", "git status --untracked-files=no -- main.go", "git log -5",
		"git log --oneline -n 2 --since=2.weeks -Sfoo -- a.go", "git diff --cached --stat", "git show HEAD:main.go",
		"git branch --contains HEAD", "git branch --merged main", "echo hi", "pwd", "cd sub", "sort -r f", "git rev-parse HEAD",
		"git remote -v", "git tag", "date", "find . -print0", "git diff", "git show HEAD", "git branch", "git branch -a -v",
		"git branch --list 'feat*'", "git stash list", "git stash show -p", "ls -la", "cat f", "head -5", "tail -n 3 f",
		"git stash list --oneline", "git stash list -n 3", "git stash show --stat", "git stash show --name-only stash@{1}",
		"git branch -r", "git branch -vv", "git branch --show-current", "git branch --sort=-committerdate", "git branch --points-at HEAD",
		"git branch --no-merged", "git branch -l 'm*'",
		"grep --include=*.go -r x .", "grep -A3 x f", "rg -A3 x", "rg -uu x", "tree -L 2 -a", "git blame -L 1,5 a.go", "git blame -- a.go",
		"git ls-files --exclude-standard -o", "git ls-files -- sub",
		"date", "date +%s", "date -u +%F", "date -d yesterday +%F", "which -a git", "file -b f", "git rev-parse --short HEAD", "git rev-parse --show-toplevel",
		"grep -rn x .", "rg foo", "wc -l", "tree", "find . -name x", "diff a b",
		// kept read-only when they gained rows: git blame and ls-files, any flags
		"git blame a.go", "git blame --porcelain a.go", "git ls-files", "git ls-files -s", "git grep -n x", "git grep -e x -i HEAD", "git grep --no-index x", "git grep -A 1 x",
	}
	notRO := []string{
		"git -c core.pager=evil log", "git --config-env=a=b status", "git log --output=f", "git diff --ext-diff",
		"git branch new", "git branch -D old", "git branch -m a b", "git stash", "git stash pop", "git add .",
		"git commit -m x", "git push", "find . -delete", "find . -exec rm {} ;", "find . -fprint f", "rg --pre cat x",
		"tree -o f", "npm test", "go test", "/usr/bin/git status", "docker ps",
		// measured refusals in Claude Code 2.1.328 (e2e/claude_readonly_test.go)
		"git -C x status", "git --no-pager log -1", "git -P log", "git status -uno", "git status --porcelain=v2",
		"git diff --color=never", "git diff -U1", "git log --textconv", "rg --files", "rg -z x", "find . -fls f",
		"find . -fprintf f %p", "env", "printenv", "uniq f", "awk 1 f", "go version", "npm -v", "sort -o out f",
		"git remote add x y", "git tag v1", "git -C x blame a.go", "git grep -O x", "git grep -I x", "go list ./...", "cargo tree",
		"dpkg -l", "apt list --installed", "npm outdated",
		// stash and branch options that write, run programs or change the
		// config, and abbreviated long options (git takes them; Claude asks)
		"git stash list --output=f", "git stash show --output=f", "git stash list --outp=f", "git stash show --ext-diff",
		"git stash list -p --ext-diff", "git stash show --textconv", "git stash list -p", "git stash list --format=%gd",
		"git branch --unset-upst", "git branch --set-upstream-t=origin/main", "git branch --edit-desc", "git branch --del x",
		"git branch --sho", "git branch --cont HEAD", "git branch --recurse-submodules x", "git branch -av",
		// options missing from Claude's tables for grep, rg, tree, git blame and ls-files
		"rg --max-columns=80 x", "rg --hostname-bin=./p x", "rg --replace=y x", "grep --exclude-dir -r x", "tree -R", "tree --output=f",
		"git blame --contents=f a.go", "git blame --reverse a.go", "git ls-files --with-tree=HEAD", "grep -A x f",
		"date 0101", "date -s now", "which --read-alias git", "file -C", "file -f names", "file -m magic f", "git rev-parse --local-env-vars",
	}
	for _, c := range ro {
		if !IsReadOnly(strings.Fields(c)) {
			t.Errorf("IsReadOnly(%q) = false, want true", c)
		}
	}
	for _, c := range notRO {
		if IsReadOnly(strings.Fields(c)) {
			t.Errorf("IsReadOnly(%q) = true, want false", c)
		}
	}
}

// TestTable checks the table's own invariants.
func TestTable(t *testing.T) {
	cats := map[Category]bool{Tests: true, Build: true, VCS: true, Lint: true, Packages: true, Files: true, Infra: true, Cloud: true, Other: true}
	for _, r := range Rules() {
		if r.ID == "" || r.Program == "" || r.Handler == "" || !cats[r.Category] {
			t.Errorf("incomplete rule %+v", r)
		}
		if strings.Contains(r.Program, "/") {
			t.Errorf("rule %s: program must be a bare name", r.ID)
		}
	}
	for _, c := range []Category{Tests, Build, VCS, Lint, Packages, Files, Infra} {
		found := false
		for _, r := range Rules() {
			found = found || r.Category == c
		}
		if !found {
			t.Errorf("no rule in category %s", c)
		}
	}
}

func TestLauncherTool(t *testing.T) {
	m, ok := Classify(strings.Fields("npx -y tsc -p ."))
	if !ok || m.Tool != 2 {
		t.Fatalf("npx -y tsc: tool %d ok %v", m.Tool, ok)
	}
	m, ok = Classify(strings.Fields("python3 -m pytest -q"))
	if !ok || m.Tool != 2 {
		t.Fatalf("python3 -m pytest: tool %d ok %v", m.Tool, ok)
	}
}

func BenchmarkClassify(b *testing.B) {
	argv := strings.Fields("git -C /repo log --oneline -20")
	for i := 0; i < b.N; i++ {
		Classify(argv)
	}
}

// TestRulesFile: plugins/rules/gotk.md is exactly RulesText (regenerate with
// `go test ./registry -update-rules` from core/), and RulesText lists exactly
// the commands the table rewrites.
func TestRulesFile(t *testing.T) {
	const path = "../../plugins/rules/gotk.md"
	text := RulesText()
	if *updateRules {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./registry -update-rules)", err)
	}
	if string(got) != text {
		t.Errorf("%s is stale: run `go test ./registry -update-rules` in core/", path)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(strings.SplitN(text, "\n- ", 2)[1], -1) {
		listed[m[1]] = true
	}
	for _, cmds := range Commands() {
		for _, c := range cmds {
			if !listed[c] {
				t.Errorf("rules text does not list %q", c)
			}
			if _, ok := Classify(strings.Fields(c + " x")); !ok && c != "cat" {
				if _, ok := Classify(strings.Fields(c)); !ok {
					t.Errorf("listed command %q is not rewritten", c)
				}
			}
			delete(listed, c)
		}
	}
}

var updateRules = flag.Bool("update-rules", false, "rewrite plugins/rules/gotk.md")
