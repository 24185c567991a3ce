package registry

import "strings"

// rules is the registry: one row per command gotk renders compactly. It is
// static data (no initialiser runs: acceptance tests are function
// literals that capture nothing, built when a row is tried), so a process
// pays for the rows it reads, not for the table.
// Order matters only among rows of the same program: the first row that
// matches wins. Columns: id, program, subcommands (nil: any), category,
// pipe safety, runner handler, extra acceptance test, read-only test
// (Claude Code would run it without asking).
var rules = [...]Rule{
	// ── tests ──────────────────────────────────────────────────────────────
	{ID: "go.test", Program: "go", Sub: []string{"test"}, Category: Tests, Handler: "go-test"},
	{ID: "cargo.test", Program: "cargo", Sub: []string{"test"}, Category: Tests, Handler: "cargo-test"},
	{ID: "cargo.nextest", Program: "cargo", Sub: []string{"nextest run"}, Category: Tests, Handler: "cargo-nextest", Accept: func(a []string) bool { return noFlag("--message-format")(a) }},
	{ID: "pytest", Program: "pytest", Category: Tests, Handler: "pytest", Accept: func(a []string) bool { return noFlag(pytestLooping...)(a) }},
	{ID: "pytest", Program: "py.test", Category: Tests, Handler: "pytest", Accept: func(a []string) bool { return noFlag(pytestLooping...)(a) }},
	{ID: "vitest", Program: "vitest", Category: Tests, Handler: "vitest", Accept: func(a []string) bool { return all(noSub("watch", "dev", "bench"), noFlag("-w", "--watch", "--ui"))(a) }},
	{ID: "jest", Program: "jest", Category: Tests, Handler: "jest", Accept: func(a []string) bool { return noFlag("--watch", "--watchAll")(a) }},
	{ID: "playwright.test", Program: "playwright", Sub: []string{"test"}, Category: Tests, Handler: "playwright", Accept: func(a []string) bool { return noFlag("--ui", "--debug")(a) }},

	{ID: "rspec", Program: "rspec", Category: Tests, Handler: "rspec"},
	{ID: "rake.test", Program: "rake", Sub: []string{"test"}, Category: Tests, Handler: "rake-test"},
	{ID: "rake.test", Program: "rails", Sub: []string{"test"}, Category: Tests, Handler: "rake-test"},
	{ID: "phpunit", Program: "phpunit", Category: Tests, Handler: "phpunit"},
	{ID: "phpunit", Program: "pest", Category: Tests, Handler: "phpunit", Accept: func(a []string) bool { return noFlag("--watch")(a) }},
	{ID: "phpunit", Program: "paratest", Category: Tests, Handler: "phpunit"},
	{ID: "ctest", Program: "ctest", Category: Tests, Handler: "ctest", Accept: func(a []string) bool { return noFlag("--repeat-until-fail")(a) }},
	{ID: "dotnet.test", Program: "dotnet", Sub: []string{"test"}, Category: Tests, Handler: "dotnet-test"},
	{ID: "swift", Program: "swift", Sub: []string{"test", "build"}, Category: Tests, Handler: "swift"},
	{ID: "deno.test", Program: "deno", Sub: []string{"test"}, Category: Tests, Handler: "deno", Accept: func(a []string) bool { return noFlag("--watch")(a) }},
	{ID: "node.test", Program: "node", Category: Tests, Handler: "node-test", Usage: "node --test [FILES]", Accept: nodeTest},

	// ── build ──────────────────────────────────────────────────────────────
	{ID: "go.build", Program: "go", Sub: []string{"build", "vet"}, Category: Build, Handler: "go-build"},
	{ID: "go.mod", Program: "go", Sub: []string{"mod tidy", "mod download", "mod verify", "get"}, Category: Packages, Handler: "go-mod", Accept: func(a []string) bool { return noFlag("-json")(a) }},
	{ID: "go.list", Program: "go", Sub: []string{"list", "mod graph"}, Category: Packages, Pipe: PipeProducer, Handler: "go-list", Accept: goListAccept},
	{ID: "cargo.build", Program: "cargo", Sub: []string{"build", "check", "clippy"}, Category: Build, Handler: "cargo-build"},
	{ID: "npm.run", Program: "npm", Sub: []string{"run", "run-script", "test", "t", "install", "i", "ci", "exec", "x"}, Category: Build, Handler: "npm", Accept: notLongRunning},
	{ID: "pnpm.run", Program: "pnpm", Sub: []string{"run", "test", "install", "i", "exec"}, Category: Build, Handler: "npm", Accept: notLongRunning},
	{ID: "yarn.run", Program: "yarn", Sub: []string{"run", "test", "install", "exec"}, Category: Build, Handler: "npm", Accept: notLongRunning},
	{ID: "yarn.run", Program: "yarn", Sub: []string{"workspace"}, Category: Build, Handler: "npm", Usage: "yarn workspace NAME test", Accept: yarnWorkspace},
	{ID: "bun.run", Program: "bun", Sub: []string{"run", "test", "install", "i"}, Category: Build, Handler: "npm", Accept: notLongRunning},
	{ID: "make", Program: "make", Category: Build, Handler: "make", Accept: func(a []string) bool {
		return all(noFlag("-p", "--print-data-base", "-n", "--dry-run", "--just-print"), noOperand(longRunningTargets...))(a)
	}},
	{ID: "dotnet.build", Program: "dotnet", Sub: []string{"build"}, Category: Build, Handler: "dotnet"},
	{ID: "esbuild", Program: "esbuild", Category: Build, Handler: "esbuild", Accept: func(a []string) bool { return noFlag("--watch", "--serve", "--servedir")(a) }},
	{ID: "tsc", Program: "tsc", Category: Build, Handler: "tsc", Accept: func(a []string) bool { return noFlag("-w", "--watch", "--init", "--showConfig")(a) }},
	{ID: "next.build", Program: "next", Sub: []string{"build"}, Category: Build, Handler: "next"},
	{ID: "mvn", Program: "mvn", Category: Build, Handler: "mvn", Accept: func(a []string) bool { return all(hasOperand, noOperand(mavenServers...))(a) }},
	{ID: "mvn", Program: "mvnw", Category: Build, Handler: "mvn", Accept: func(a []string) bool { return all(hasOperand, noOperand(mavenServers...))(a) }},
	{ID: "mvn", Program: "mvnd", Category: Build, Handler: "mvn", Accept: func(a []string) bool { return all(hasOperand, noOperand(mavenServers...))(a) }},
	{ID: "gradle", Program: "gradle", Category: Build, Handler: "gradle", Accept: func(a []string) bool {
		return all(hasOperand, noFlag("-t", "--continuous"), noOperand("bootRun", "run", "appRun"))(a)
	}},
	{ID: "gradle", Program: "gradlew", Category: Build, Handler: "gradle", Accept: func(a []string) bool {
		return all(hasOperand, noFlag("-t", "--continuous"), noOperand("bootRun", "run", "appRun"))(a)
	}},
	{ID: "sbt", Program: "sbt", Category: Build, Handler: "sbt", Accept: func(a []string) bool {
		return all(hasOperand, noOperand("run", "console", "shell", "~compile", "~test", "reStart"), noTilde)(a)
	}},
	{ID: "cc", Program: "gcc", Category: Build, Handler: "gcc", Accept: ccAccept},
	{ID: "cc", Program: "g++", Category: Build, Handler: "gcc", Accept: ccAccept},
	{ID: "cc", Program: "cc", Category: Build, Handler: "gcc", Accept: ccAccept},
	{ID: "cc", Program: "c++", Category: Build, Handler: "gcc", Accept: ccAccept},
	{ID: "cc", Program: "clang", Category: Build, Handler: "gcc", Accept: ccAccept},
	{ID: "cc", Program: "clang++", Category: Build, Handler: "gcc", Accept: ccAccept},
	{ID: "cc", Program: "rustc", Category: Build, Handler: "gcc", Accept: func(a []string) bool { return all(hasOperand, noFlag("-", "--print"))(a) }},
	{ID: "cmake", Program: "cmake", Category: Build, Handler: "cmake", Accept: func(a []string) bool { return all(hasOperand, noFlag("-E", "--system-information"))(a) }},
	{ID: "xcodebuild", Program: "xcodebuild", Category: Build, Handler: "swift"},
	{ID: "just", Program: "just", Category: Build, Handler: "just", Accept: noLongTarget},
	{ID: "just", Program: "task", Category: Build, Handler: "just", Accept: func(a []string) bool { return all(noLongTarget, noFlag("-w", "--watch"))(a) }},
	{ID: "just", Program: "mise", Sub: []string{"run", "r"}, Category: Build, Handler: "just", Accept: func(a []string) bool { return after(1, noLongTarget)(a) }},
	{ID: "nx", Program: "nx", Category: Build, Handler: "nx", Accept: func(a []string) bool { return all(hasOperand, runTask(noLongTarget), noFlag("--watch"))(a) }},
	{ID: "nx", Program: "turbo", Category: Build, Handler: "nx", Accept: func(a []string) bool { return all(hasOperand, runTask(noLongTarget), noFlag("--watch"))(a) }},
	{ID: "prisma", Program: "prisma", Sub: []string{"generate", "migrate", "db", "validate", "format", "version"}, Category: Build, Handler: "prisma", Accept: func(a []string) bool { return noFlag("--watch")(a) }},
	{ID: "mix", Program: "mix", Sub: []string{"compile", "format", "test"}, Category: Build, Handler: "mix", Accept: func(a []string) bool { return noFlag("--stale", "--listen-on-stdin")(a) }},
	{ID: "mix", Program: "pio", Sub: []string{"run"}, Category: Build, Handler: "mix", Accept: func(a []string) bool { return noOperand("monitor")(a) }},
	{ID: "mix", Program: "trunk", Sub: []string{"build"}, Category: Build, Handler: "mix", Accept: func(a []string) bool { return noFlag("--watch")(a) }},
	{ID: "mix", Program: "quarto", Sub: []string{"render"}, Category: Build, Handler: "mix"},
	{ID: "mix", Program: "shopify", Sub: []string{"theme push", "theme pull"}, Category: Build, Handler: "mix"},
	{ID: "php", Program: "php", Sub: []string{"-l"}, Category: Build, Handler: "php"},
	{ID: "php", Program: "php", Sub: []string{"artisan"}, Category: Build, Handler: "php", Accept: func(a []string) bool {
		return noOperand("serve", "tinker", "queue:work", "queue:listen", "schedule:work", "horizon", "octane:start", "reverb:start", "pail", "dev")(a)
	}},

	// ── version control ────────────────────────────────────────────────────
	{ID: "git.status", Program: "git", Sub: []string{"status"}, Category: VCS, Pipe: PipeProducer, Handler: "git-status", ReadOnly: func(a []string) bool { return gitRO(onlyFlags(statusFlags()))(a) }},
	{ID: "git.log", Program: "git", Sub: []string{"log"}, Category: VCS, Pipe: PipeProducer, Handler: "git-log", ReadOnly: func(a []string) bool { return gitRO(onlyFlags(historyFlags()))(a) }},
	{ID: "git.diff", Program: "git", Sub: []string{"diff", "show"}, Category: VCS, Pipe: PipeProducer, Handler: "git-diff", ReadOnly: func(a []string) bool { return gitRO(onlyFlags(historyFlags()))(a) }},
	{ID: "git.branch", Program: "git", Sub: []string{"branch"}, Category: VCS, Pipe: PipeProducer, Handler: "git-branch", ReadOnly: func(a []string) bool { return gitRO(branchListing)(a) }},
	{ID: "git.stash", Program: "git", Sub: []string{"stash"}, Category: VCS, Handler: "git-stash", ReadOnly: func(a []string) bool { return gitRO(stashListing)(a) }},
	{ID: "git.change", Program: "git", Sub: []string{"add", "commit", "push", "pull", "fetch", "checkout", "switch", "worktree"}, Category: VCS, Handler: "git-change", Accept: func(a []string) bool { return noFlag("-p", "--patch", "-i", "--interactive")(a) }},
	{ID: "git.blame", Program: "git", Sub: []string{"blame"}, Category: VCS, Pipe: PipeProducer, Handler: "git-blame", Accept: gitBlameAccept, ReadOnly: func(a []string) bool { return gitRO(claudeFlags(blameFlags, "git", false))(a) }},
	{ID: "git.grep", Program: "git", Sub: []string{"grep"}, Category: VCS, Pipe: PipeProducer, Handler: "grep", Accept: gitGrepAccept, ReadOnly: func(a []string) bool { return gitRO(onlyFlags(gitGrepFlags()))(a) }},
	{ID: "git.ls-files", Program: "git", Sub: []string{"ls-files"}, Category: VCS, Pipe: PipeProducer, Handler: "find", Accept: gitLsFilesAccept, ReadOnly: func(a []string) bool { return gitRO(claudeFlags(lsFilesFlags, "git", true))(a) }},
	{ID: "yadm.status", Program: "yadm", Sub: []string{"status"}, Category: VCS, Handler: "git-status"},
	{ID: "yadm.log", Program: "yadm", Sub: []string{"log"}, Category: VCS, Handler: "git-log"},
	{ID: "yadm.diff", Program: "yadm", Sub: []string{"diff", "show"}, Category: VCS, Handler: "git-diff"},
	{ID: "yadm.change", Program: "yadm", Sub: []string{"add", "commit", "push", "pull", "fetch"}, Category: VCS, Handler: "git-change"},
	{ID: "gh.json", Program: "gh", Sub: []string{"pr", "issue", "run", "repo", "release", "workflow", "search", "api"}, Category: VCS, Handler: "json", Accept: func(a []string) bool {
		return all(anyFlag("--json"), noFlag("--jq", "-q", "--template", "-t", "--web", "-w"), noOperand("watch", "create", "edit", "merge", "close", "delete"))(a)
	}},
	{ID: "gh.api", Program: "gh", Sub: []string{"api"}, Category: VCS, Handler: "json", Accept: func(a []string) bool {
		return noFlag("--jq", "-q", "--template", "-t", "--paginate", "-i", "--include", "--silent")(a)
	}},
	{ID: "gh", Program: "gh", Sub: []string{"pr", "issue", "run", "repo", "release", "workflow", "search", "status"}, Category: VCS, Handler: "gh", Accept: func(a []string) bool {
		return all(noFlag("--jq", "-q", "--template", "-t", "--web", "-w", "--watch"), noOperand("watch", "create", "edit", "merge", "close", "delete", "checkout", "clone", "fork"))(a)
	}},
	{ID: "glab", Program: "glab", Sub: []string{"mr", "issue", "ci", "pipeline", "release"}, Category: VCS, Handler: "glab", Accept: func(a []string) bool {
		return all(noFlag("--web", "-w", "--live"), noOperand("view", "create", "trace", "merge", "close", "delete", "checkout"))(a)
	}},
	{ID: "gt", Program: "gt", Sub: []string{"log", "ls", "status", "submit", "sync", "restack"}, Category: VCS, Handler: "gt", Accept: func(a []string) bool { return noFlag("-i", "--interactive")(a) }},
	{ID: "jj", Program: "jj", Sub: []string{"status", "st", "log", "diff", "show", "git", "new", "describe", "squash", "rebase"}, Category: VCS, Handler: "jj", Accept: func(a []string) bool { return noFlag("-i", "--interactive", "--tool", "--edit")(a) }},

	// ── linters and type checkers ──────────────────────────────────────────
	{ID: "eslint", Program: "eslint", Category: Lint, Pipe: PipeProducer, Handler: "eslint", Accept: func(a []string) bool { return noFlag("--init", "--fix-dry-run")(a) }},
	{ID: "biome", Program: "biome", Sub: []string{"check", "lint", "ci", "format"}, Category: Lint, Pipe: PipeProducer, Handler: "biome"},
	{ID: "ruff", Program: "ruff", Sub: []string{"check", "format"}, Category: Lint, Pipe: PipeProducer, Handler: "ruff", Accept: func(a []string) bool { return noFlag("-w", "--watch")(a) }},
	{ID: "golangci-lint", Program: "golangci-lint", Sub: []string{"run"}, Category: Lint, Pipe: PipeProducer, Handler: "golangci-lint"},
	{ID: "mypy", Program: "mypy", Category: Lint, Pipe: PipeProducer, Handler: "mypy"},
	{ID: "shellcheck", Program: "shellcheck", Category: Lint, Pipe: PipeProducer, Handler: "shellcheck"},
	{ID: "yamllint", Program: "yamllint", Category: Lint, Pipe: PipeProducer, Handler: "yamllint"},
	{ID: "hadolint", Program: "hadolint", Category: Lint, Pipe: PipeProducer, Handler: "hadolint"},
	{ID: "markdownlint", Program: "markdownlint", Category: Lint, Pipe: PipeProducer, Handler: "markdownlint"},
	{ID: "markdownlint", Program: "markdownlint-cli2", Category: Lint, Pipe: PipeProducer, Handler: "markdownlint"},
	{ID: "rubocop", Program: "rubocop", Category: Lint, Pipe: PipeProducer, Handler: "rubocop", Accept: func(a []string) bool {
		return noFlag("-a", "-A", "--autocorrect", "--autocorrect-all", "--auto-gen-config")(a)
	}},
	{ID: "pre-commit", Program: "pre-commit", Sub: []string{"run"}, Category: Lint, Handler: "pre-commit"},
	{ID: "sqlfluff", Program: "sqlfluff", Sub: []string{"lint"}, Category: Lint, Pipe: PipeProducer, Handler: "sqlfluff"},
	{ID: "oxlint", Program: "oxlint", Category: Lint, Pipe: PipeProducer, Handler: "oxlint", Accept: func(a []string) bool { return noFlag("--fix", "--format", "-f")(a) }},
	{ID: "basedpyright", Program: "basedpyright", Category: Lint, Pipe: PipeProducer, Handler: "basedpyright", Accept: func(a []string) bool { return noFlag("-w", "--watch", "--outputjson")(a) }},
	{ID: "basedpyright", Program: "pyright", Category: Lint, Pipe: PipeProducer, Handler: "basedpyright", Accept: func(a []string) bool { return noFlag("-w", "--watch", "--outputjson")(a) }},
	{ID: "basedpyright", Program: "ty", Sub: []string{"check"}, Category: Lint, Pipe: PipeProducer, Handler: "basedpyright", Accept: func(a []string) bool { return noFlag("-W", "--watch", "--output-format")(a) }},
	{ID: "phpstan", Program: "phpstan", Sub: []string{"analyse", "analyze"}, Category: Lint, Pipe: PipeProducer, Handler: "phpstan", Accept: func(a []string) bool { return noFlag("--error-format")(a) }},
	{ID: "phpstan", Program: "ecs", Category: Lint, Pipe: PipeProducer, Handler: "phpstan", Accept: func(a []string) bool { return noFlag("--output-format")(a) }},
	{ID: "phpstan", Program: "pint", Category: Lint, Pipe: PipeProducer, Handler: "phpstan", Accept: func(a []string) bool { return noFlag("--format")(a) }},
	{ID: "prettier.check", Program: "prettier", Category: Lint, Pipe: PipeProducer, Handler: "prettier", Usage: "prettier --check", Accept: func(a []string) bool {
		return all(anyFlag("--check", "-c", "--list-different", "-l"), noFlag("--write", "-w"))(a)
	}},

	{ID: "cargo.fmt", Program: "cargo", Sub: []string{"fmt"}, Category: Lint, Handler: "cargo-fmt", Usage: "cargo fmt --check", Accept: cargoFmtCheck},

	// ── package managers ───────────────────────────────────────────────────
	{ID: "pip", Program: "pip", Sub: []string{"list", "install", "show"}, Category: Packages, Pipe: PipeProducer, Handler: "pip"},
	{ID: "pip", Program: "pip3", Sub: []string{"list", "install", "show"}, Category: Packages, Pipe: PipeProducer, Handler: "pip"},
	{ID: "uv.pip", Program: "uv", Sub: []string{"pip list", "pip install", "pip show"}, Category: Packages, Pipe: PipeProducer, Handler: "pip"},
	{ID: "cargo.install", Program: "cargo", Sub: []string{"install"}, Category: Packages, Handler: "cargo-build"},
	{ID: "pnpm.list", Program: "pnpm", Sub: []string{"list", "ls"}, Category: Packages, Pipe: PipeProducer, Handler: "npm-list"},
	{ID: "npm.list", Program: "npm", Sub: []string{"list", "ls"}, Category: Packages, Pipe: PipeProducer, Handler: "npm-list"},
	{ID: "npm.outdated", Program: "npm", Sub: []string{"outdated"}, Category: Packages, Pipe: PipeProducer, Handler: "npm-outdated", Accept: func(a []string) bool { return noFlag("--json", "--parseable", "-p")(a) }},
	{ID: "npm.outdated", Program: "pnpm", Sub: []string{"outdated"}, Category: Packages, Pipe: PipeProducer, Handler: "npm-outdated", Accept: func(a []string) bool { return noFlag("--json", "--format")(a) }},
	{ID: "cargo.tree", Program: "cargo", Sub: []string{"tree"}, Category: Packages, Pipe: PipeProducer, Handler: "cargo-tree", Accept: func(a []string) bool { return noFlag("--format", "-f", "--prefix")(a) }},
	{ID: "dpkg.list", Program: "dpkg", Sub: []string{"-l", "--list"}, Category: Packages, Pipe: PipeProducer, Handler: "dpkg"},
	{ID: "dpkg.list", Program: "dpkg-query", Sub: []string{"-l", "--list"}, Category: Packages, Pipe: PipeProducer, Handler: "dpkg"},
	{ID: "dpkg.list", Program: "apt", Sub: []string{"list"}, Category: Packages, Pipe: PipeProducer, Handler: "dpkg"},
	{ID: "deno", Program: "deno", Sub: []string{"lint", "check", "task", "install", "compile"}, Category: Packages, Handler: "deno", Accept: func(a []string) bool { return all(noFlag("--watch"), noLongTarget)(a) }},
	{ID: "uv", Program: "uv", Sub: []string{"sync", "add", "remove", "lock", "venv", "tool install"}, Category: Packages, Handler: "uv"},
	{ID: "poetry", Program: "poetry", Sub: []string{"install", "lock", "update", "add", "remove", "sync"}, Category: Packages, Handler: "poetry"},
	{ID: "bundle", Program: "bundle", Sub: []string{"install", "update"}, Category: Packages, Handler: "bundle"},
	{ID: "bundle", Program: "composer", Sub: []string{"install", "update", "require"}, Category: Packages, Handler: "bundle", Accept: func(a []string) bool { return noFlag("--format")(a) }},
	{ID: "bundle", Program: "brew", Sub: []string{"install", "upgrade"}, Category: Packages, Handler: "bundle"},

	// ── files ──────────────────────────────────────────────────────────────
	{ID: "ls", Program: "ls", Category: Files, Pipe: PipeProducer, Handler: "ls", ReadOnly: yes},
	{ID: "find", Program: "find", Category: Files, Pipe: PipeProducer, Handler: "find", Accept: func(a []string) bool {
		return noFlag("-print0", "-printf", "-fprintf", "-ls", "-fls", "-exec", "-execdir", "-ok", "-okdir")(a)
	}, ReadOnly: func(a []string) bool {
		return noFlag("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls", "-files0-from")(a)
	}},
	{ID: "grep", Program: "grep", Category: Files, Pipe: PipeFinal, Handler: "grep", Accept: func(a []string) bool { return noFlag("-Z", "--null", "-z", "--null-data")(a) }, ReadOnly: func(a []string) bool { return claudeFlags(grepFlags, "grep", true)(a) }},
	{ID: "rg", Program: "rg", Category: Files, Pipe: PipeFinal, Handler: "grep", Accept: func(a []string) bool { return noFlag("-0", "--null", "--json")(a) }, ReadOnly: func(a []string) bool { return claudeFlags(rgFlags, "rg", true)(a) }},
	{ID: "cat", Program: "cat", Category: Files, Handler: "read", Accept: catPlain, ReadOnly: yes},
	{ID: "head", Program: "head", Category: Files, Handler: "read", Accept: hasOperand, ReadOnly: yes},
	{ID: "tail", Program: "tail", Category: Files, Handler: "read", Accept: func(a []string) bool { return all(hasOperand, noFlag("-f", "-F", "--follow", "--retry", "--pid"))(a) }, ReadOnly: yes},
	{ID: "tree", Program: "tree", Category: Files, Pipe: PipeProducer, Handler: "tree", Accept: func(a []string) bool { return noFlag("-o", "-J", "-X", "-H")(a) }, ReadOnly: func(a []string) bool { return claudeFlags(treeFlags, "tree", true)(a) }},
	// wc and du --files0-from=F read names from F, yet Claude Code runs
	// them without asking (measured in 2.1.328, e2e readonly-writing-flags):
	// read-only as Claude counts it.
	{ID: "wc", Program: "wc", Category: Files, Handler: "wc", Accept: hasOperand, ReadOnly: yes},
	{ID: "diff", Program: "diff", Category: Files, Pipe: PipeProducer, Handler: "diff", ReadOnly: yes},
	{ID: "du", Program: "du", Category: Files, Handler: "du", Accept: func(a []string) bool { return noFlag("-0", "--null", "--files0-from")(a) }, ReadOnly: yes},
	{ID: "df", Program: "df", Category: Files, Handler: "df", ReadOnly: yes},
	{ID: "stat", Program: "stat", Category: Files, Handler: "stat", Accept: func(a []string) bool { return all(hasOperand, noFlag("-c", "--format", "--printf"))(a) }, ReadOnly: yes},
	{ID: "ast-grep", Program: "ast-grep", Sub: []string{"run", "scan"}, Category: Files, Handler: "ast-grep", Accept: func(a []string) bool {
		return noFlag("--json", "-i", "--interactive", "-U", "--update-all", "--watch")(a)
	}},

	// ── infrastructure ─────────────────────────────────────────────────────
	{ID: "docker.compose", Program: "docker", Sub: []string{"compose ps", "compose logs"}, Category: Infra, Handler: "docker-compose", Accept: func(a []string) bool { return noFlag("-f", "--follow")(a) }},
	{ID: "docker.compose", Program: "docker", Sub: []string{"compose up"}, Category: Infra, Handler: "docker-compose", Usage: "docker compose up -d", Accept: func(a []string) bool { return composeUpEnds()(a) }},
	{ID: "docker.compose", Program: "docker-compose", Sub: []string{"ps", "logs"}, Category: Infra, Handler: "docker-compose", Accept: func(a []string) bool { return noFlag("-f", "--follow")(a) }},
	{ID: "docker.compose", Program: "docker-compose", Sub: []string{"up"}, Category: Infra, Handler: "docker-compose", Usage: "docker-compose up -d", Accept: func(a []string) bool { return composeUpEnds()(a) }},
	{ID: "docker.ps", Program: "docker", Sub: []string{"ps", "container ls", "container list"}, Category: Infra, Handler: "docker-ps"},
	{ID: "docker.build", Program: "docker-compose", Sub: []string{"build"}, Category: Build, Handler: "docker-build"},
	{ID: "docker.run", Program: "docker", Sub: []string{"run", "container run"}, Category: Infra, Handler: "docker-run", Usage: "docker run --rm", Accept: func(a []string) bool {
		return all(noFlag("-i", "-t", "--interactive", "--tty"), anyFlag("--rm", "-d", "--detach"))(a)
	}},
	{ID: "docker.run", Program: "docker", Sub: []string{"exec", "container exec"}, Category: Infra, Handler: "docker-run", Accept: func(a []string) bool { return noFlag("-i", "-t", "--interactive", "--tty")(a) }},
	{ID: "docker.images", Program: "docker", Sub: []string{"images", "image ls", "image list"}, Category: Infra, Handler: "docker-images"},
	{ID: "docker.logs", Program: "docker", Sub: []string{"logs"}, Category: Infra, Handler: "docker-logs", Accept: func(a []string) bool { return noFlag("-f", "--follow")(a) }},
	{ID: "docker.build", Program: "docker", Sub: []string{"build", "compose build", "buildx build"}, Category: Build, Handler: "docker-build"},
	{ID: "kubectl.get", Program: "kubectl", Sub: []string{"get"}, Category: Infra, Handler: "kubectl-get", Accept: func(a []string) bool { return all(noFlag("-w", "--watch", "--watch-only"), kubectlOutput)(a) }},
	{ID: "kubectl.logs", Program: "kubectl", Sub: []string{"logs"}, Category: Infra, Handler: "kubectl-logs", Accept: func(a []string) bool { return noFlag("-f", "--follow")(a) }},
	{ID: "kubectl.describe", Program: "kubectl", Sub: []string{"describe"}, Category: Infra, Handler: "kubectl-describe"},
	{ID: "helm", Program: "helm", Sub: []string{"list", "ls", "status", "history", "lint"}, Category: Infra, Handler: "helm"},
	{ID: "helm.template", Program: "helm", Sub: []string{"template"}, Category: Infra, Handler: "helm-template", Accept: func(a []string) bool { return noFlag("--output-dir")(a) }},
	{ID: "kubectl.apply", Program: "kubectl", Sub: []string{"apply"}, Category: Infra, Handler: "kubectl-apply", Accept: func(a []string) bool {
		return all(noFlag("-o", "--output"), after(1, noSub("edit-last-applied", "view-last-applied", "set-last-applied")))(a)
	}},
	{ID: "terraform.validate", Program: "terraform", Sub: []string{"validate"}, Category: Infra, Handler: "terraform-validate", Accept: func(a []string) bool { return noFlag("-json")(a) }},
	{ID: "terraform.plan", Program: "terraform", Sub: []string{"plan"}, Category: Infra, Handler: "terraform-plan", Accept: func(a []string) bool { return noFlag("-out")(a) }},
	{ID: "aws", Program: "aws", Category: Infra, Handler: "aws", Accept: func(a []string) bool { return all(hasOperand, noFlag("--debug"))(a) }},
	{ID: "oc.get", Program: "oc", Sub: []string{"get"}, Category: Infra, Handler: "kubectl-get", Accept: func(a []string) bool { return all(noFlag("-w", "--watch", "--watch-only"), kubectlOutput)(a) }},
	{ID: "oc.logs", Program: "oc", Sub: []string{"logs"}, Category: Infra, Handler: "kubectl-logs", Accept: func(a []string) bool { return noFlag("-f", "--follow")(a) }},
	{ID: "oc.describe", Program: "oc", Sub: []string{"describe"}, Category: Infra, Handler: "kubectl-describe"},
	{ID: "tofu.plan", Program: "tofu", Sub: []string{"plan"}, Category: Infra, Handler: "terraform-plan", Accept: func(a []string) bool { return noFlag("-out")(a) }},
	{ID: "tofu.validate", Program: "tofu", Sub: []string{"validate"}, Category: Infra, Handler: "terraform-validate", Accept: func(a []string) bool { return noFlag("-json")(a) }},
	{ID: "pulumi", Program: "pulumi", Sub: []string{"preview", "up", "destroy", "refresh", "stack"}, Category: Infra, Handler: "pulumi", Accept: func(a []string) bool { return noFlag("--watch", "-w", "--json", "-j")(a) }},
	{ID: "ansible-playbook", Program: "ansible-playbook", Category: Infra, Handler: "ansible-playbook", Accept: func(a []string) bool {
		return all(hasOperand, noFlag("-k", "-K", "--ask-pass", "--ask-become-pass", "--ask-vault-pass", "-J", "--step"))(a)
	}},
	{ID: "psql", Program: "psql", Category: Infra, Handler: "psql", Usage: "psql -c", Accept: func(a []string) bool {
		return all(anyFlag("-c", "--command", "-f", "--file", "-l", "--list"), noFlag("-o", "--output", "-H", "--html"))(a)
	}},
	{ID: "liquibase", Program: "liquibase", Category: Infra, Handler: "liquibase", Accept: hasOperand},
	{ID: "liquibase", Program: "sops", Category: Infra, Handler: "liquibase", Usage: "sops -d", Accept: func(a []string) bool {
		return all(anyFlag("-d", "--decrypt"), noFlag("--output", "-i", "--in-place"))(a)
	}},
	{ID: "systemctl", Program: "systemctl", Sub: []string{"status"}, Category: Infra, Handler: "systemctl"},
	{ID: "systemctl", Program: "ps", Category: Infra, Handler: "ps"},
	{ID: "systemctl", Program: "iptables", Category: Infra, Handler: "systemctl", Usage: "iptables -L", Accept: func(a []string) bool {
		return anyFlag("-L", "--list", "-S", "--list-rules", "-nL", "-vL", "-nvL", "-vnL")(a)
	}},
	{ID: "systemctl", Program: "fail2ban-client", Sub: []string{"status"}, Category: Infra, Handler: "systemctl"},

	// ── cloud ──────────────────────────────────────────────────────────────
	{ID: "gcloud.json", Program: "gcloud", Category: Cloud, Handler: "json", Accept: func(a []string) bool {
		return all(hasFormatJSON, noOperand("login", "init", "ssh", "interactive", "tail", "serve"))(a)
	}},
	{ID: "gcloud", Program: "gcloud", Category: Cloud, Handler: "gcloud", Accept: func(a []string) bool {
		return all(hasOperand, noOperand("login", "init", "ssh", "interactive", "tail", "serve", "stream-logs"), noFlag("--format"))(a)
	}},
	{ID: "az", Program: "az", Category: Cloud, Handler: "json", Accept: func(a []string) bool {
		return all(hasOperand, noOperand("login", "ssh", "interactive", "tail", "up"), noFlag("--query", "-o", "--output"))(a)
	}},
	{ID: "az", Program: "az", Category: Cloud, Handler: "az", Accept: func(a []string) bool {
		return all(hasOperand, noOperand("login", "ssh", "interactive", "tail", "up"), anyFlag("-o", "--output"))(a)
	}},
	{ID: "skopeo.inspect", Program: "skopeo", Sub: []string{"inspect"}, Category: Cloud, Handler: "json", Accept: func(a []string) bool { return noFlag("--format", "-f", "--raw")(a) }},
	{ID: "skopeo", Program: "skopeo", Sub: []string{"copy", "sync", "list-tags", "delete"}, Category: Cloud, Handler: "skopeo"},

	// ── other ──────────────────────────────────────────────────────────────
	{ID: "curl", Program: "curl", Category: Other, Handler: "curl", Accept: func(a []string) bool {
		return all(hasOperand, noFlag("-o", "-O", "--output", "--remote-name", "--remote-name-all", "-N", "--no-buffer", "-w", "--write-out", "-D", "--dump-header", "-v", "--verbose", "--trace", "--trace-ascii"))(a)
	}},
	{ID: "wget", Program: "wget", Category: Other, Handler: "wget", Accept: func(a []string) bool {
		return all(hasOperand, noFlag("-b", "--background", "-o", "--output-file", "-a", "--append-output"))(a)
	}},
	{ID: "jq", Program: "jq", Category: Other, Handler: "json", Accept: func(a []string) bool {
		return all(hasOperand, noFlag("-r", "--raw-output", "-j", "--join-output", "-a", "--ascii-output", "--raw-output0", "-s", "--slurp", "--seq", "--stream", "--tab", "--indent", "-C", "--color-output", "-S", "--sort-keys", "-e", "--exit-status"))(a)
	}},
	{ID: "ping", Program: "ping", Category: Other, Handler: "ping", Usage: "ping -c", Accept: func(a []string) bool { return anyFlag("-c", "--count")(a) }},
	{ID: "rsync", Program: "rsync", Category: Other, Handler: "rsync", Accept: func(a []string) bool { return all(hasOperand, noFlag("--daemon", "--progress", "-P", "--info"))(a) }},
	{ID: "ollama", Program: "ollama", Sub: []string{"pull", "list", "ps", "show"}, Category: Other, Handler: "ollama"},
	{ID: "ollama", Program: "jira", Sub: []string{"issue list", "sprint list", "epic list", "board list"}, Category: Other, Handler: "ollama", Usage: "jira issue list --plain", Accept: func(a []string) bool { return anyFlag("--plain")(a) }},
}

// Long-running forms — dev servers, watchers, followers, REPLs — are never
// rewritten: gotk shows output when a command ends, and these end when the
// user stops them. Most are refused by their rows above (tail -f, docker
// logs -f, npm run dev, tsc -w…) or have no row (go run, cargo run,
// docker compose up, kubectl port-forward); TestLongRunningNeverRewritten
// lists them all.

// longRunningTargets are make targets that conventionally never exit.
var longRunningTargets = []string{"serve", "server", "run", "watch", "dev", "start", "up", "live", "preview"}

// composeUpEnds takes docker compose up only when it ends: detached (-d)
// or waiting for health (--wait), never attached or watching.
func composeUpEnds() func([]string) bool {
	return all(anyFlag("-d", "--detach", "--wait"), noFlag("--attach", "--attach-dependencies", "-w", "--watch", "--abort-on-container-exit", "--exit-code-from"))
}

// mavenServers are Maven goals that run a server until stopped.
var mavenServers = []string{"spring-boot:run", "jetty:run", "quarkus:dev", "exec:java", "exec:exec", "tomcat7:run", "liberty:dev", "liberty:run", "wildfly:run"}

// noLongTarget refuses a task runner's long-running targets (just dev,
// nx run web:serve, turbo watch…).
func noLongTarget(args []string) bool {
	for _, o := range operands(args) {
		if o == Unknown {
			return false
		}
		for _, t := range append(longRunningTargets, "develop", "storybook") {
			if o == t || strings.HasSuffix(o, ":"+t) {
				return false
			}
		}
	}
	return true
}

// after applies pred to the arguments after the first n (a subcommand's
// own arguments).
func after(n int, pred func([]string) bool) func([]string) bool {
	return func(args []string) bool {
		if len(args) < n {
			return pred(nil)
		}
		return pred(args[n:])
	}
}

// runTask applies pred to what follows a leading `run` (nx run web:build,
// turbo run build), else to all the arguments.
func runTask(pred func([]string) bool) func([]string) bool {
	return func(args []string) bool {
		if len(args) > 0 && args[0] == "run" {
			return pred(args[1:])
		}
		return pred(args)
	}
}

// noTilde refuses sbt's watch prefix (~test).
func noTilde(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "~") || a == Unknown {
			return false
		}
	}
	return true
}

// ccAccept: a compile whose output is diagnostics — not preprocessing,
// assembly or dependency output to stdout, not reading stdin.
func ccAccept(args []string) bool {
	return hasOperand(args) && noFlag("-E", "-M", "-MM", "-dM", "-", "-dumpmachine", "-dumpversion", "-dumpspecs", "-print-search-dirs", "-print-file-name", "-print-prog-name", "-###", "--help", "--version")(args)
}

// hasFormatJSON: the user asked for JSON (--format=json, --format json).
func hasFormatJSON(args []string) bool {
	for i, a := range args {
		if a == "--format=json" || (a == "--format" && i+1 < len(args) && args[i+1] == "json") {
			return true
		}
	}
	return false
}

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
