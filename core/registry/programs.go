package registry

// tablePrograms are the programs the table has rows for, sorted: static
// data (no work at package init), checked against the table by
// TestTablePrograms, which prints the list to paste when a row is added.
var tablePrograms = [...]string{
	"ansible-playbook", "apt", "ast-grep", "aws", "az", "basedpyright", "biome", "brew",
	"bun", "bundle", "c++", "cargo", "cat", "cc", "clang", "clang++",
	"cmake", "composer", "ctest", "curl", "deno", "df", "diff", "docker",
	"docker-compose", "dotnet", "dpkg", "dpkg-query", "du", "ecs", "esbuild", "eslint",
	"fail2ban-client", "find", "g++", "gcc", "gcloud", "gh", "git", "glab",
	"go", "golangci-lint", "gradle", "gradlew", "grep", "gt", "hadolint", "head",
	"helm", "iptables", "jest", "jira", "jj", "jq", "just", "kubectl",
	"liquibase", "ls", "make", "markdownlint", "markdownlint-cli2", "mise", "mix", "mvn",
	"mvnd", "mvnw", "mypy", "next", "node", "npm", "nx", "oc",
	"ollama", "oxlint", "paratest", "pest", "php", "phpstan", "phpunit", "ping",
	"pint", "pio", "pip", "pip3", "playwright", "pnpm", "poetry", "pre-commit",
	"prettier", "prisma", "ps", "psql", "pulumi", "py.test", "pyright", "pytest",
	"quarto", "rails", "rake", "rg", "rspec", "rsync", "rubocop", "ruff",
	"rustc", "sbt", "shellcheck", "shopify", "skopeo", "sops", "sqlfluff", "stat",
	"swift", "systemctl", "tail", "task", "terraform", "tofu", "tree", "trunk",
	"tsc", "turbo", "ty", "uv", "vitest", "wc", "wget", "xcodebuild",
	"yadm", "yamllint", "yarn",
}
