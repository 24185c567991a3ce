package registry

import (
	"fmt"
	"strings"
)

// Markers wrap the rules text wherever the installer puts it, so that it
// can find, update and remove exactly its own block.
const (
	MarkerBegin = "<!-- gotk v1 -->"
	MarkerEnd   = "<!-- /gotk -->"
)

var categoryTitles = []struct {
	c     Category
	title string
}{
	{Tests, "Tests"}, {Build, "Build"}, {VCS, "Version control"}, {Lint, "Linters and type checkers"},
	{Packages, "Package managers"}, {Files, "Files"}, {Infra, "Infrastructure"}, {Cloud, "Cloud"}, {Other, "Other"},
}

// Commands returns the commands the table rewrites, as a person types
// them ("git status", "pytest"), per category, in table order.
func Commands() map[Category][]string {
	out := map[Category][]string{}
	seen := map[string]bool{}
	for _, r := range table() {
		names := []string{r.Program}
		if r.Usage != "" {
			names = []string{r.Usage}
		} else if r.Sub != nil {
			names = names[:0]
			for _, s := range r.Sub {
				names = append(names, r.Program+" "+s)
			}
		}
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				out[r.Category] = append(out[r.Category], n)
			}
		}
	}
	return out
}

// RulesText is the prompt-level guidance for agents without a rewrite hook
// (Cline, Windsurf) and a second line for Codex (AGENTS.md) and Copilot
// (copilot-instructions.md). It is generated from the table, so it cannot
// drift from what the hooks rewrite.
func RulesText() string {
	var b strings.Builder
	b.WriteString(MarkerBegin + "\n")
	b.WriteString("## gotk: compact command output\n\n")
	b.WriteString("`gotk` runs a command and prints a compact, faithful form of its output (same exit code,\n")
	b.WriteString("failures in full). Prefix the commands below with `gotk ` when you run them in the shell:\n")
	b.WriteString("`git status` → `gotk git status`, `npx tsc --noEmit` → `gotk npx tsc --noEmit`.\n\n")
	b.WriteString("Do not prefix a command whose output goes to a file (`>`), into a pipe that counts or selects\n")
	b.WriteString("lines (`| wc -l`, `| xargs`, `| sort`), or that contains `$(…)` or a heredoc. If a cap hides\n")
	b.WriteString("something you need, run the `gotk recall <id>` it names (`--lines A-B` prints a part of a long\n")
	b.WriteString("output), or `gotk --raw <command>`.\n\n")
	cmds := Commands()
	for _, ct := range categoryTitles {
		fmt.Fprintf(&b, "- %s: %s\n", ct.title, "`"+strings.Join(cmds[ct.c], "`, `")+"`")
	}
	b.WriteString("\nLaunchers work too: `npx`, `pnpm exec`, `yarn exec`, `bunx`, `python -m`, `uv run`.\n")
	b.WriteString(MarkerEnd + "\n")
	return b.String()
}
