package registry

import "strings"

// buildTable builds the registry: one row per command gotk renders compactly
// (built on first use, not at package init: see table).
// Order matters only among rows of the same program: the first row that
// matches wins. Columns: id, program, subcommands (nil: any), category,
// pipe safety, runner handler, extra acceptance test, read-only test
// (Claude Code would run it without asking).
func buildTable() []Rule {
	return []Rule{
		// ── tests ──────────────────────────────────────────────────────────────
		{ID: "go.test", Program: "go", Sub: subs("test"), Category: Tests, Handler: "go-test"},
		{ID: "cargo.test", Program: "cargo", Sub: subs("test"), Category: Tests, Handler: "cargo-test"},
		{ID: "pytest", Program: "pytest", Category: Tests, Handler: "pytest", Accept: noFlag(pytestLooping...)},
		{ID: "pytest", Program: "py.test", Category: Tests, Handler: "pytest", Accept: noFlag(pytestLooping...)},
		{ID: "vitest", Program: "vitest", Category: Tests, Handler: "vitest", Accept: all(noSub("watch", "dev", "bench"), noFlag("-w", "--watch", "--ui"))},
		{ID: "jest", Program: "jest", Category: Tests, Handler: "jest", Accept: noFlag("--watch", "--watchAll")},
		{ID: "playwright.test", Program: "playwright", Sub: subs("test"), Category: Tests, Handler: "playwright", Accept: noFlag("--ui", "--debug")},

		{ID: "rspec", Program: "rspec", Category: Tests, Handler: "rspec"},
		{ID: "rake.test", Program: "rake", Sub: subs("test"), Category: Tests, Handler: "rake-test"},
		{ID: "rake.test", Program: "rails", Sub: subs("test"), Category: Tests, Handler: "rake-test"},
		{ID: "phpunit", Program: "phpunit", Category: Tests, Handler: "phpunit"},
		{ID: "phpunit", Program: "pest", Category: Tests, Handler: "phpunit", Accept: noFlag("--watch")},
		{ID: "phpunit", Program: "paratest", Category: Tests, Handler: "phpunit"},
		{ID: "ctest", Program: "ctest", Category: Tests, Handler: "ctest", Accept: noFlag("--repeat-until-fail")},
		{ID: "dotnet.test", Program: "dotnet", Sub: subs("test"), Category: Tests, Handler: "dotnet-test"},
		{ID: "swift", Program: "swift", Sub: subs("test", "build"), Category: Tests, Handler: "swift"},
		{ID: "deno.test", Program: "deno", Sub: subs("test"), Category: Tests, Handler: "deno", Accept: noFlag("--watch")},

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
		{ID: "mvn", Program: "mvn", Category: Build, Handler: "mvn", Accept: all(hasOperand, noOperand(mavenServers...))},
		{ID: "mvn", Program: "mvnw", Category: Build, Handler: "mvn", Accept: all(hasOperand, noOperand(mavenServers...))},
		{ID: "mvn", Program: "mvnd", Category: Build, Handler: "mvn", Accept: all(hasOperand, noOperand(mavenServers...))},
		{ID: "gradle", Program: "gradle", Category: Build, Handler: "gradle", Accept: all(hasOperand, noFlag("-t", "--continuous"), noOperand("bootRun", "run", "appRun"))},
		{ID: "gradle", Program: "gradlew", Category: Build, Handler: "gradle", Accept: all(hasOperand, noFlag("-t", "--continuous"), noOperand("bootRun", "run", "appRun"))},
		{ID: "sbt", Program: "sbt", Category: Build, Handler: "sbt", Accept: all(hasOperand, noOperand("run", "console", "shell", "~compile", "~test", "reStart"), noTilde)},
		{ID: "cc", Program: "gcc", Category: Build, Handler: "gcc", Accept: ccAccept},
		{ID: "cc", Program: "g++", Category: Build, Handler: "gcc", Accept: ccAccept},
		{ID: "cc", Program: "cc", Category: Build, Handler: "gcc", Accept: ccAccept},
		{ID: "cc", Program: "c++", Category: Build, Handler: "gcc", Accept: ccAccept},
		{ID: "cc", Program: "clang", Category: Build, Handler: "gcc", Accept: ccAccept},
		{ID: "cc", Program: "clang++", Category: Build, Handler: "gcc", Accept: ccAccept},
		{ID: "cc", Program: "rustc", Category: Build, Handler: "gcc", Accept: all(hasOperand, noFlag("-", "--print"))},
		{ID: "cmake", Program: "cmake", Category: Build, Handler: "cmake", Accept: all(hasOperand, noFlag("-E", "--system-information"))},
		{ID: "xcodebuild", Program: "xcodebuild", Category: Build, Handler: "swift"},
		{ID: "just", Program: "just", Category: Build, Handler: "just", Accept: noLongTarget},
		{ID: "just", Program: "task", Category: Build, Handler: "just", Accept: all(noLongTarget, noFlag("-w", "--watch"))},
		{ID: "just", Program: "mise", Sub: subs("run", "r"), Category: Build, Handler: "just", Accept: after(1, noLongTarget)},
		{ID: "nx", Program: "nx", Category: Build, Handler: "nx", Accept: all(hasOperand, runTask(noLongTarget), noFlag("--watch"))},
		{ID: "nx", Program: "turbo", Category: Build, Handler: "nx", Accept: all(hasOperand, runTask(noLongTarget), noFlag("--watch"))},
		{ID: "prisma", Program: "prisma", Sub: subs("generate", "migrate", "db", "validate", "format", "version"), Category: Build, Handler: "prisma", Accept: noFlag("--watch")},
		{ID: "mix", Program: "mix", Sub: subs("compile", "format", "test"), Category: Build, Handler: "mix", Accept: noFlag("--stale", "--listen-on-stdin")},
		{ID: "mix", Program: "pio", Sub: subs("run"), Category: Build, Handler: "mix", Accept: noOperand("monitor")},
		{ID: "mix", Program: "trunk", Sub: subs("build"), Category: Build, Handler: "mix", Accept: noFlag("--watch")},
		{ID: "mix", Program: "quarto", Sub: subs("render"), Category: Build, Handler: "mix"},
		{ID: "mix", Program: "shopify", Sub: subs("theme push", "theme pull"), Category: Build, Handler: "mix"},
		{ID: "php", Program: "php", Sub: subs("-l"), Category: Build, Handler: "php"},
		{ID: "php", Program: "php", Sub: subs("artisan"), Category: Build, Handler: "php", Accept: noOperand("serve", "tinker", "queue:work", "queue:listen", "schedule:work", "horizon", "octane:start", "reverb:start", "pail", "dev")},

		// ── version control ────────────────────────────────────────────────────
		{ID: "git.status", Program: "git", Sub: subs("status"), Category: VCS, Pipe: PipeProducer, Handler: "git-status", ReadOnly: gitRO(onlyFlags(statusFlags()))},
		{ID: "git.log", Program: "git", Sub: subs("log"), Category: VCS, Pipe: PipeProducer, Handler: "git-log", ReadOnly: gitRO(onlyFlags(historyFlags()))},
		{ID: "git.diff", Program: "git", Sub: subs("diff", "show"), Category: VCS, Pipe: PipeProducer, Handler: "git-diff", ReadOnly: gitRO(onlyFlags(historyFlags()))},
		{ID: "git.branch", Program: "git", Sub: subs("branch"), Category: VCS, Pipe: PipeProducer, Handler: "git-branch", ReadOnly: gitRO(branchListing)},
		{ID: "git.stash", Program: "git", Sub: subs("stash"), Category: VCS, Handler: "git-stash", ReadOnly: gitRO(stashListing)},
		{ID: "git.change", Program: "git", Sub: subs("add", "commit", "push", "pull", "fetch", "checkout", "switch", "worktree"), Category: VCS, Handler: "git-change", Accept: noFlag("-p", "--patch", "-i", "--interactive")},
		{ID: "yadm.status", Program: "yadm", Sub: subs("status"), Category: VCS, Handler: "git-status"},
		{ID: "yadm.log", Program: "yadm", Sub: subs("log"), Category: VCS, Handler: "git-log"},
		{ID: "yadm.diff", Program: "yadm", Sub: subs("diff", "show"), Category: VCS, Handler: "git-diff"},
		{ID: "yadm.change", Program: "yadm", Sub: subs("add", "commit", "push", "pull", "fetch"), Category: VCS, Handler: "git-change"},
		{ID: "gh.json", Program: "gh", Sub: subs("pr", "issue", "run", "repo", "release", "workflow", "search", "api"), Category: VCS, Handler: "json", Accept: all(anyFlag("--json"), noFlag("--jq", "-q", "--template", "-t", "--web", "-w"), noOperand("watch", "create", "edit", "merge", "close", "delete"))},
		{ID: "gh.api", Program: "gh", Sub: subs("api"), Category: VCS, Handler: "json", Accept: noFlag("--jq", "-q", "--template", "-t", "--paginate", "-i", "--include", "--silent")},
		{ID: "gh", Program: "gh", Sub: subs("pr", "issue", "run", "repo", "release", "workflow", "search", "status"), Category: VCS, Handler: "gh", Accept: all(noFlag("--jq", "-q", "--template", "-t", "--web", "-w", "--watch"), noOperand("watch", "create", "edit", "merge", "close", "delete", "checkout", "clone", "fork"))},
		{ID: "glab", Program: "glab", Sub: subs("mr", "issue", "ci", "pipeline", "release"), Category: VCS, Handler: "glab", Accept: all(noFlag("--web", "-w", "--live"), noOperand("view", "create", "trace", "merge", "close", "delete", "checkout"))},
		{ID: "gt", Program: "gt", Sub: subs("log", "ls", "status", "submit", "sync", "restack"), Category: VCS, Handler: "gt", Accept: noFlag("-i", "--interactive")},
		{ID: "jj", Program: "jj", Sub: subs("status", "st", "log", "diff", "show", "git", "new", "describe", "squash", "rebase"), Category: VCS, Handler: "jj", Accept: noFlag("-i", "--interactive", "--tool", "--edit")},

		// ── linters and type checkers ──────────────────────────────────────────
		{ID: "eslint", Program: "eslint", Category: Lint, Pipe: PipeProducer, Handler: "eslint", Accept: noFlag("--init", "--fix-dry-run")},
		{ID: "biome", Program: "biome", Sub: subs("check", "lint", "ci", "format"), Category: Lint, Pipe: PipeProducer, Handler: "biome"},
		{ID: "ruff", Program: "ruff", Sub: subs("check", "format"), Category: Lint, Pipe: PipeProducer, Handler: "ruff", Accept: noFlag("-w", "--watch")},
		{ID: "golangci-lint", Program: "golangci-lint", Sub: subs("run"), Category: Lint, Pipe: PipeProducer, Handler: "golangci-lint"},
		{ID: "mypy", Program: "mypy", Category: Lint, Pipe: PipeProducer, Handler: "mypy"},
		{ID: "shellcheck", Program: "shellcheck", Category: Lint, Pipe: PipeProducer, Handler: "shellcheck"},
		{ID: "yamllint", Program: "yamllint", Category: Lint, Pipe: PipeProducer, Handler: "yamllint"},
		{ID: "hadolint", Program: "hadolint", Category: Lint, Pipe: PipeProducer, Handler: "hadolint"},
		{ID: "markdownlint", Program: "markdownlint", Category: Lint, Pipe: PipeProducer, Handler: "markdownlint"},
		{ID: "markdownlint", Program: "markdownlint-cli2", Category: Lint, Pipe: PipeProducer, Handler: "markdownlint"},
		{ID: "rubocop", Program: "rubocop", Category: Lint, Pipe: PipeProducer, Handler: "rubocop", Accept: noFlag("-a", "-A", "--autocorrect", "--autocorrect-all", "--auto-gen-config")},
		{ID: "pre-commit", Program: "pre-commit", Sub: subs("run"), Category: Lint, Handler: "pre-commit"},
		{ID: "sqlfluff", Program: "sqlfluff", Sub: subs("lint"), Category: Lint, Pipe: PipeProducer, Handler: "sqlfluff"},
		{ID: "oxlint", Program: "oxlint", Category: Lint, Pipe: PipeProducer, Handler: "oxlint", Accept: noFlag("--fix", "--format", "-f")},
		{ID: "basedpyright", Program: "basedpyright", Category: Lint, Pipe: PipeProducer, Handler: "basedpyright", Accept: noFlag("-w", "--watch", "--outputjson")},
		{ID: "basedpyright", Program: "pyright", Category: Lint, Pipe: PipeProducer, Handler: "basedpyright", Accept: noFlag("-w", "--watch", "--outputjson")},
		{ID: "basedpyright", Program: "ty", Sub: subs("check"), Category: Lint, Pipe: PipeProducer, Handler: "basedpyright", Accept: noFlag("-W", "--watch", "--output-format")},
		{ID: "phpstan", Program: "phpstan", Sub: subs("analyse", "analyze"), Category: Lint, Pipe: PipeProducer, Handler: "phpstan", Accept: noFlag("--error-format")},
		{ID: "phpstan", Program: "ecs", Category: Lint, Pipe: PipeProducer, Handler: "phpstan", Accept: noFlag("--output-format")},
		{ID: "phpstan", Program: "pint", Category: Lint, Pipe: PipeProducer, Handler: "phpstan", Accept: noFlag("--format")},
		{ID: "prettier.check", Program: "prettier", Category: Lint, Pipe: PipeProducer, Handler: "prettier", Usage: "prettier --check", Accept: all(anyFlag("--check", "-c", "--list-different", "-l"), noFlag("--write", "-w"))},

		// ── package managers ───────────────────────────────────────────────────
		{ID: "pip", Program: "pip", Sub: subs("list", "install", "show"), Category: Packages, Pipe: PipeProducer, Handler: "pip"},
		{ID: "pip", Program: "pip3", Sub: subs("list", "install", "show"), Category: Packages, Pipe: PipeProducer, Handler: "pip"},
		{ID: "uv.pip", Program: "uv", Sub: subs("pip list", "pip install", "pip show"), Category: Packages, Pipe: PipeProducer, Handler: "pip"},
		{ID: "cargo.install", Program: "cargo", Sub: subs("install"), Category: Packages, Handler: "cargo-build"},
		{ID: "pnpm.list", Program: "pnpm", Sub: subs("list", "ls"), Category: Packages, Pipe: PipeProducer, Handler: "npm-list"},
		{ID: "npm.list", Program: "npm", Sub: subs("list", "ls"), Category: Packages, Pipe: PipeProducer, Handler: "npm-list"},
		{ID: "deno", Program: "deno", Sub: subs("lint", "check", "task", "install", "compile"), Category: Packages, Handler: "deno", Accept: all(noFlag("--watch"), noLongTarget)},
		{ID: "uv", Program: "uv", Sub: subs("sync", "add", "remove", "lock", "venv", "tool install"), Category: Packages, Handler: "uv"},
		{ID: "poetry", Program: "poetry", Sub: subs("install", "lock", "update", "add", "remove", "sync"), Category: Packages, Handler: "poetry"},
		{ID: "bundle", Program: "bundle", Sub: subs("install", "update"), Category: Packages, Handler: "bundle"},
		{ID: "bundle", Program: "composer", Sub: subs("install", "update", "require"), Category: Packages, Handler: "bundle", Accept: noFlag("--format")},
		{ID: "bundle", Program: "brew", Sub: subs("install", "upgrade"), Category: Packages, Handler: "bundle"},

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
		{ID: "du", Program: "du", Category: Files, Handler: "du", Accept: noFlag("-0", "--null", "--files0-from"), ReadOnly: yes},
		{ID: "df", Program: "df", Category: Files, Handler: "df", ReadOnly: yes},
		{ID: "stat", Program: "stat", Category: Files, Handler: "stat", Accept: all(hasOperand, noFlag("-c", "--format", "--printf")), ReadOnly: yes},
		{ID: "ast-grep", Program: "ast-grep", Sub: subs("run", "scan"), Category: Files, Handler: "ast-grep", Accept: noFlag("--json", "-i", "--interactive", "-U", "--update-all", "--watch")},

		// ── infrastructure ─────────────────────────────────────────────────────
		{ID: "docker.compose", Program: "docker", Sub: subs("compose ps", "compose logs"), Category: Infra, Handler: "docker-compose", Accept: noFlag("-f", "--follow")},
		{ID: "docker.compose", Program: "docker", Sub: subs("compose up"), Category: Infra, Handler: "docker-compose", Usage: "docker compose up -d", Accept: composeUpEnds()},
		{ID: "docker.compose", Program: "docker-compose", Sub: subs("ps", "logs"), Category: Infra, Handler: "docker-compose", Accept: noFlag("-f", "--follow")},
		{ID: "docker.compose", Program: "docker-compose", Sub: subs("up"), Category: Infra, Handler: "docker-compose", Usage: "docker-compose up -d", Accept: composeUpEnds()},
		{ID: "docker.ps", Program: "docker", Sub: subs("ps", "container ls", "container list"), Category: Infra, Handler: "docker-ps"},
		{ID: "docker.build", Program: "docker-compose", Sub: subs("build"), Category: Infra, Handler: "docker-build"},
		{ID: "docker.run", Program: "docker", Sub: subs("run", "container run"), Category: Infra, Handler: "docker-run", Usage: "docker run --rm", Accept: all(noFlag("-i", "-t", "--interactive", "--tty"), anyFlag("--rm", "-d", "--detach"))},
		{ID: "docker.run", Program: "docker", Sub: subs("exec", "container exec"), Category: Infra, Handler: "docker-run", Accept: noFlag("-i", "-t", "--interactive", "--tty")},
		{ID: "docker.images", Program: "docker", Sub: subs("images", "image ls", "image list"), Category: Infra, Handler: "docker-images"},
		{ID: "docker.logs", Program: "docker", Sub: subs("logs"), Category: Infra, Handler: "docker-logs", Accept: noFlag("-f", "--follow")},
		{ID: "docker.build", Program: "docker", Sub: subs("build", "compose build", "buildx build"), Category: Infra, Handler: "docker-build"},
		{ID: "kubectl.get", Program: "kubectl", Sub: subs("get"), Category: Infra, Handler: "kubectl-get", Accept: all(noFlag("-w", "--watch", "--watch-only"), kubectlOutput)},
		{ID: "kubectl.logs", Program: "kubectl", Sub: subs("logs"), Category: Infra, Handler: "kubectl-logs", Accept: noFlag("-f", "--follow")},
		{ID: "kubectl.describe", Program: "kubectl", Sub: subs("describe"), Category: Infra, Handler: "kubectl-describe"},
		{ID: "helm", Program: "helm", Sub: subs("list", "ls", "status", "history", "lint"), Category: Infra, Handler: "helm"},
		{ID: "terraform.plan", Program: "terraform", Sub: subs("plan"), Category: Infra, Handler: "terraform-plan", Accept: noFlag("-out")},
		{ID: "aws", Program: "aws", Category: Infra, Handler: "aws", Accept: all(hasOperand, noFlag("--debug"))},
		{ID: "oc.get", Program: "oc", Sub: subs("get"), Category: Infra, Handler: "kubectl-get", Accept: all(noFlag("-w", "--watch", "--watch-only"), kubectlOutput)},
		{ID: "oc.logs", Program: "oc", Sub: subs("logs"), Category: Infra, Handler: "kubectl-logs", Accept: noFlag("-f", "--follow")},
		{ID: "oc.describe", Program: "oc", Sub: subs("describe"), Category: Infra, Handler: "kubectl-describe"},
		{ID: "tofu.plan", Program: "tofu", Sub: subs("plan"), Category: Infra, Handler: "terraform-plan", Accept: noFlag("-out")},
		{ID: "pulumi", Program: "pulumi", Sub: subs("preview", "up", "destroy", "refresh", "stack"), Category: Infra, Handler: "pulumi", Accept: noFlag("--watch", "-w", "--json", "-j")},
		{ID: "ansible-playbook", Program: "ansible-playbook", Category: Infra, Handler: "ansible-playbook", Accept: all(hasOperand, noFlag("-k", "-K", "--ask-pass", "--ask-become-pass", "--ask-vault-pass", "-J", "--step"))},
		{ID: "psql", Program: "psql", Category: Infra, Handler: "psql", Usage: "psql -c", Accept: all(anyFlag("-c", "--command", "-f", "--file", "-l", "--list"), noFlag("-o", "--output", "-H", "--html"))},
		{ID: "liquibase", Program: "liquibase", Category: Infra, Handler: "liquibase", Accept: hasOperand},
		{ID: "liquibase", Program: "sops", Category: Infra, Handler: "liquibase", Usage: "sops -d", Accept: all(anyFlag("-d", "--decrypt"), noFlag("--output", "-i", "--in-place"))},
		{ID: "systemctl", Program: "systemctl", Sub: subs("status"), Category: Infra, Handler: "systemctl"},
		{ID: "systemctl", Program: "ps", Category: Infra, Handler: "systemctl"},
		{ID: "systemctl", Program: "iptables", Category: Infra, Handler: "systemctl", Usage: "iptables -L", Accept: anyFlag("-L", "--list", "-S", "--list-rules", "-nL", "-vL", "-nvL", "-vnL")},
		{ID: "systemctl", Program: "fail2ban-client", Sub: subs("status"), Category: Infra, Handler: "systemctl"},

		// ── cloud ──────────────────────────────────────────────────────────────
		{ID: "gcloud.json", Program: "gcloud", Category: Cloud, Handler: "json", Accept: all(hasFormatJSON, noOperand("login", "init", "ssh", "interactive", "tail", "serve"))},
		{ID: "gcloud", Program: "gcloud", Category: Cloud, Handler: "gcloud", Accept: all(hasOperand, noOperand("login", "init", "ssh", "interactive", "tail", "serve", "stream-logs"), noFlag("--format"))},
		{ID: "az", Program: "az", Category: Cloud, Handler: "json", Accept: all(hasOperand, noOperand("login", "ssh", "interactive", "tail", "up"), noFlag("--query", "-o", "--output"))},
		{ID: "az", Program: "az", Category: Cloud, Handler: "az", Accept: all(hasOperand, noOperand("login", "ssh", "interactive", "tail", "up"), anyFlag("-o", "--output"))},
		{ID: "skopeo.inspect", Program: "skopeo", Sub: subs("inspect"), Category: Cloud, Handler: "json", Accept: noFlag("--format", "-f", "--raw")},
		{ID: "skopeo", Program: "skopeo", Sub: subs("copy", "sync", "list-tags", "delete"), Category: Cloud, Handler: "skopeo"},

		// ── other ──────────────────────────────────────────────────────────────
		{ID: "curl", Program: "curl", Category: Other, Handler: "curl", Accept: all(hasOperand, noFlag("-o", "-O", "--output", "--remote-name", "--remote-name-all", "-N", "--no-buffer", "-w", "--write-out", "-D", "--dump-header", "-v", "--verbose", "--trace", "--trace-ascii"))},
		{ID: "wget", Program: "wget", Category: Other, Handler: "wget", Accept: all(hasOperand, noFlag("-b", "--background", "-o", "--output-file", "-a", "--append-output"))},
		{ID: "jq", Program: "jq", Category: Other, Handler: "json", Accept: all(hasOperand, noFlag("-r", "--raw-output", "-j", "--join-output", "-a", "--ascii-output", "--raw-output0", "-s", "--slurp", "--seq", "--stream", "--tab", "--indent", "-C", "--color-output", "-S", "--sort-keys", "-e", "--exit-status"))},
		{ID: "ping", Program: "ping", Category: Other, Handler: "ping", Usage: "ping -c", Accept: anyFlag("-c", "--count")},
		{ID: "rsync", Program: "rsync", Category: Other, Handler: "rsync", Accept: all(hasOperand, noFlag("--daemon", "--progress", "-P", "--info"))},
		{ID: "ollama", Program: "ollama", Sub: subs("pull", "list", "ps", "show"), Category: Other, Handler: "ollama"},
		{ID: "ollama", Program: "jira", Sub: subs("issue list", "sprint list", "epic list", "board list"), Category: Other, Handler: "ollama", Usage: "jira issue list --plain", Accept: anyFlag("--plain")},
	}
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
