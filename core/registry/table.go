package registry

// table is the registry: one row per command gotk renders compactly.
// Order matters only among rows of the same program: the first row that
// matches wins. Columns: id, program, subcommands (nil: any), category,
// pipe safety, runner handler, extra acceptance test, read-only test
// (Claude Code would run it without asking).
var table = []Rule{
	// ── tests ──────────────────────────────────────────────────────────────
	{ID: "go.test", Program: "go", Sub: subs("test"), Category: Tests, Handler: "go-test"},
	{ID: "cargo.test", Program: "cargo", Sub: subs("test"), Category: Tests, Handler: "cargo-test"},
	{ID: "pytest", Program: "pytest", Category: Tests, Handler: "pytest", Accept: noFlag(pytestLooping...)},
	{ID: "pytest", Program: "py.test", Category: Tests, Handler: "pytest", Accept: noFlag(pytestLooping...)},
	{ID: "vitest", Program: "vitest", Category: Tests, Handler: "vitest", Accept: all(noSub("watch", "dev", "bench"), noFlag("-w", "--watch", "--ui"))},
	{ID: "jest", Program: "jest", Category: Tests, Handler: "jest", Accept: noFlag("--watch", "--watchAll")},
	{ID: "playwright.test", Program: "playwright", Sub: subs("test"), Category: Tests, Handler: "playwright", Accept: noFlag("--ui", "--debug")},

	// ── build ──────────────────────────────────────────────────────────────
	{ID: "go.build", Program: "go", Sub: subs("build", "vet"), Category: Build, Handler: "go-build"},
	{ID: "cargo.build", Program: "cargo", Sub: subs("build", "check", "clippy"), Category: Build, Handler: "cargo-build"},
	{ID: "npm.run", Program: "npm", Sub: subs("run", "run-script", "test", "t", "install", "i", "ci", "exec", "x"), Category: Build, Handler: "npm", Accept: notLongRunning},
	{ID: "pnpm.run", Program: "pnpm", Sub: subs("run", "test", "install", "i", "exec"), Category: Build, Handler: "npm", Accept: notLongRunning},
	{ID: "yarn.run", Program: "yarn", Sub: subs("run", "test", "install", "exec"), Category: Build, Handler: "npm", Accept: notLongRunning},
	{ID: "bun.run", Program: "bun", Sub: subs("run", "test", "install", "i"), Category: Build, Handler: "npm", Accept: notLongRunning},
	{ID: "make", Program: "make", Category: Build, Handler: "make", Accept: all(noFlag("-p", "--print-data-base", "-n", "--dry-run", "--just-print"), noOperand(longRunningTargets...))},
	{ID: "dotnet.build", Program: "dotnet", Sub: subs("build"), Category: Build, Handler: "dotnet"},
	{ID: "tsc", Program: "tsc", Category: Build, Handler: "tsc", Accept: noFlag("-w", "--watch", "--init", "--showConfig")},
	{ID: "next.build", Program: "next", Sub: subs("build"), Category: Build, Handler: "next"},

	// ── version control ────────────────────────────────────────────────────
	{ID: "git.status", Program: "git", Sub: subs("status"), Category: VCS, Pipe: PipeProducer, Handler: "git-status", ReadOnly: gitRO(onlyFlags(statusFlags))},
	{ID: "git.log", Program: "git", Sub: subs("log"), Category: VCS, Pipe: PipeProducer, Handler: "git-log", ReadOnly: gitRO(onlyFlags(historyFlags))},
	{ID: "git.diff", Program: "git", Sub: subs("diff", "show"), Category: VCS, Pipe: PipeProducer, Handler: "git-diff", ReadOnly: gitRO(onlyFlags(historyFlags))},
	{ID: "git.branch", Program: "git", Sub: subs("branch"), Category: VCS, Pipe: PipeProducer, Handler: "git-branch", ReadOnly: gitRO(branchListing)},
	{ID: "git.stash", Program: "git", Sub: subs("stash"), Category: VCS, Handler: "git-stash", ReadOnly: gitRO(stashListing)},
	{ID: "git.change", Program: "git", Sub: subs("add", "commit", "push", "pull", "fetch"), Category: VCS, Handler: "git-change"},

	// ── linters and type checkers ──────────────────────────────────────────
	{ID: "eslint", Program: "eslint", Category: Lint, Pipe: PipeProducer, Handler: "eslint", Accept: noFlag("--init", "--fix-dry-run")},
	{ID: "biome", Program: "biome", Sub: subs("check", "lint", "ci", "format"), Category: Lint, Pipe: PipeProducer, Handler: "biome"},
	{ID: "ruff", Program: "ruff", Sub: subs("check", "format"), Category: Lint, Pipe: PipeProducer, Handler: "ruff", Accept: noFlag("-w", "--watch")},
	{ID: "golangci-lint", Program: "golangci-lint", Sub: subs("run"), Category: Lint, Pipe: PipeProducer, Handler: "golangci-lint"},
	{ID: "mypy", Program: "mypy", Category: Lint, Pipe: PipeProducer, Handler: "mypy"},
	{ID: "shellcheck", Program: "shellcheck", Category: Lint, Pipe: PipeProducer, Handler: "shellcheck"},
	{ID: "prettier.check", Program: "prettier", Category: Lint, Pipe: PipeProducer, Handler: "prettier", Usage: "prettier --check", Accept: all(anyFlag("--check", "-c", "--list-different", "-l"), noFlag("--write", "-w"))},

	// ── package managers ───────────────────────────────────────────────────
	{ID: "pip", Program: "pip", Sub: subs("list", "install", "show"), Category: Packages, Pipe: PipeProducer, Handler: "pip"},
	{ID: "pip", Program: "pip3", Sub: subs("list", "install", "show"), Category: Packages, Pipe: PipeProducer, Handler: "pip"},
	{ID: "uv.pip", Program: "uv", Sub: subs("pip list", "pip install", "pip show"), Category: Packages, Pipe: PipeProducer, Handler: "pip"},
	{ID: "cargo.install", Program: "cargo", Sub: subs("install"), Category: Packages, Handler: "cargo-build"},
	{ID: "pnpm.list", Program: "pnpm", Sub: subs("list", "ls"), Category: Packages, Pipe: PipeProducer, Handler: "npm-list"},
	{ID: "npm.list", Program: "npm", Sub: subs("list", "ls"), Category: Packages, Pipe: PipeProducer, Handler: "npm-list"},

	// ── files ──────────────────────────────────────────────────────────────
	{ID: "ls", Program: "ls", Category: Files, Pipe: PipeProducer, Handler: "ls", ReadOnly: yes},
	{ID: "find", Program: "find", Category: Files, Pipe: PipeProducer, Handler: "find", Accept: noFlag("-print0", "-printf", "-fprintf", "-ls", "-fls", "-exec", "-execdir", "-ok", "-okdir"), ReadOnly: noFlag("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls")},
	{ID: "grep", Program: "grep", Category: Files, Pipe: PipeFinal, Handler: "grep", Accept: noFlag("-Z", "--null", "-z", "--null-data"), ReadOnly: yes},
	{ID: "rg", Program: "rg", Category: Files, Pipe: PipeFinal, Handler: "grep", Accept: noFlag("-0", "--null", "--json"), ReadOnly: noFlag("--pre", "--files", "-z", "--search-zip")},
	{ID: "cat", Program: "cat", Category: Files, Handler: "read", Accept: catPlain, ReadOnly: yes},
	{ID: "head", Program: "head", Category: Files, Handler: "read", Accept: hasOperand, ReadOnly: yes},
	{ID: "tail", Program: "tail", Category: Files, Handler: "read", Accept: all(hasOperand, noFlag("-f", "-F", "--follow", "--retry", "--pid")), ReadOnly: yes},
	{ID: "tree", Program: "tree", Category: Files, Pipe: PipeProducer, Handler: "tree", Accept: noFlag("-o", "-J", "-X", "-H"), ReadOnly: noFlag("-o", "-R")},
	{ID: "wc", Program: "wc", Category: Files, Handler: "wc", Accept: hasOperand, ReadOnly: yes},
	{ID: "diff", Program: "diff", Category: Files, Pipe: PipeProducer, Handler: "diff", ReadOnly: yes},

	// ── infrastructure ─────────────────────────────────────────────────────
	{ID: "docker.ps", Program: "docker", Sub: subs("ps", "container ls", "container list"), Category: Infra, Handler: "docker-ps"},
	{ID: "docker.images", Program: "docker", Sub: subs("images", "image ls", "image list"), Category: Infra, Handler: "docker-images"},
	{ID: "docker.logs", Program: "docker", Sub: subs("logs", "compose logs"), Category: Infra, Handler: "docker-logs", Accept: noFlag("-f", "--follow")},
	{ID: "docker.build", Program: "docker", Sub: subs("build", "compose build", "buildx build"), Category: Infra, Handler: "docker-build"},
	{ID: "kubectl.get", Program: "kubectl", Sub: subs("get"), Category: Infra, Handler: "kubectl-get", Accept: all(noFlag("-w", "--watch", "--watch-only"), kubectlOutput)},
	{ID: "kubectl.logs", Program: "kubectl", Sub: subs("logs"), Category: Infra, Handler: "kubectl-logs", Accept: noFlag("-f", "--follow")},
	{ID: "kubectl.describe", Program: "kubectl", Sub: subs("describe"), Category: Infra, Handler: "kubectl-describe"},
	{ID: "helm", Program: "helm", Sub: subs("list", "ls", "status", "history", "lint"), Category: Infra, Handler: "helm"},
	{ID: "terraform.plan", Program: "terraform", Sub: subs("plan"), Category: Infra, Handler: "terraform-plan", Accept: noFlag("-out")},
	{ID: "aws", Program: "aws", Category: Infra, Handler: "aws", Accept: all(hasOperand, noFlag("--debug"))},
}

// Long-running forms — dev servers, watchers, followers, REPLs — are never
// rewritten: gotk shows output when a command ends, and these end when the
// user stops them. Most are refused by their rows above (tail -f, docker
// logs -f, npm run dev, tsc -w…) or have no row (go run, cargo run,
// docker compose up, kubectl port-forward); TestLongRunningNeverRewritten
// lists them all.

// longRunningTargets are make targets that conventionally never exit.
var longRunningTargets = []string{"serve", "server", "run", "watch", "dev", "start", "up", "live", "preview"}

// pytestLooping are pytest-xdist's looping modes (re-run on every change).
var pytestLooping = []string{"-f", "--looponfail"}

// noOperand refuses a command with any of names among its operands (make
// targets can come in any order, after options and VAR=value words).
func noOperand(names ...string) func([]string) bool {
	return func(args []string) bool {
		for _, o := range operands(args) {
			if o == Unknown {
				return false
			}
			for _, n := range names {
				if o == n {
					return false
				}
			}
		}
		return true
	}
}
