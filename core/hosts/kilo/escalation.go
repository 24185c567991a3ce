package kilo

import (
	"regexp"
	"slices"
	"strings"

	"github.com/gotk-dev/gotk/core/permission"
)

// sandboxEscalation is the ask rule of Kilo's sandbox check: in a
// sandboxed session (a per-session switch gotk cannot see) Kilo asks to
// run a git command that writes .git outside the sandbox ("Run outside the
// sandbox… Git must write to .git, which is read-only in the sandbox").
// It recognises git as the command's program, so `gotk git stash` would
// run sandboxed, unasked, and fail: such a command is never rewritten.
var sandboxEscalation = permission.Rule{Pattern: "git (writing .git)", Raw: "sandbox_escalation",
	Source: "Kilo's sandbox check (git commands that write .git ask to leave the sandbox)", Test: gitWrites}

// gitRun matches Kilo 7.7.9's git command (bu2): leading `command `,
// `env [options] [assignments] ` or assignments, then git.
var gitRun = regexp.MustCompile(`(?i)^(?:command\s+|env\s+(?:-[^\s]+\s+|[A-Za-z_][A-Za-z0-9_]*=[^\s]+\s+)*|[A-Za-z_][A-Za-z0-9_]*=[^\s]+\s+)*(?:git|git.exe)(?:\s+|$)(.*)$`)

var (
	gitReadOnly    = set("cat-file", "check-attr", "check-ignore", "check-mailmap", "config", "describe", "diff", "for-each-ref", "grep", "log", "ls-files", "ls-tree", "ls-remote", "merge-base", "name-rev", "rev-list", "rev-parse", "show", "show-ref", "status", "tag", "whatchanged")
	branchWrites   = set("-c", "-C", "-d", "-D", "-f", "-m", "-M", "-t", "-u", "--copy", "--create-reflog", "--delete", "--edit-description", "--force", "--move", "--set-upstream", "--set-upstream-to", "--track", "--unset-upstream")
	branchLists    = set("-a", "-l", "-r", "-v", "--all", "--column", "--contains", "--format", "--list", "--merged", "--no-merged", "--points-at", "--remotes", "--show-current", "--sort", "--verbose")
	branchValued   = set("--contains", "--format", "--merged", "--no-merged", "--points-at", "--sort")
	branchListOnly = set("-l", "--list")
	tagWrites      = set("-F", "-a", "-d", "-e", "-f", "-m", "-s", "-u", "--annotate", "--cleanup", "--create-reflog", "--delete", "--edit", "--file", "--force", "--local-user", "--message", "--sign")
	tagLists       = set("-l", "-n", "-v", "--column", "--contains", "--format", "--list", "--merged", "--no-merged", "--points-at", "--sort", "--verbose", "--verify")
	tagValued      = set("-v", "--contains", "--format", "--merged", "--no-merged", "--points-at", "--sort", "--verify")
	tagListOnly    = set("-l", "-n", "--list")
	remoteReads    = set("get-url", "show")
	remoteFlags    = set("-v", "--verbose")
	stashReads     = set("list", "show")
	reflogReads    = set("exists", "show")
	notesReads     = set("get-ref", "list", "show")
	notesValued    = set("--ref")
	configReads    = []string{"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--name-only", "--show-origin", "--show-names"}
	globalValued   = set("-C", "--git-dir", "--work-tree", "--namespace", "-c")
	clusteredShort = regexp.MustCompile(`^-[A-Za-z]{2,}\d*$`)
	shortNumber    = regexp.MustCompile(`^-[A-Za-z]\d+$`)
	trailingDigits = regexp.MustCompile(`\d+$`)
)

func set(s ...string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, x := range s {
		m[x] = true
	}
	return m
}

// gitWrites is Kilo 7.7.9's check (Oof) on one command's text: a git
// command that would write .git.
func gitWrites(text string) bool {
	if strings.ContainsAny(text, ";&|<>`\n\r") {
		return false
	}
	m := gitRun.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return false
	}
	a := strings.Fields(m[1])
	for len(a) > 0 && strings.HasPrefix(a[0], "-") {
		opt := a[0]
		a = a[1:]
		if globalValued[opt] && len(a) > 0 {
			a = a[1:]
		}
	}
	if len(a) == 0 {
		return false
	}
	switch sub := strings.ToLower(a[0]); sub {
	case "branch":
		return listOrWrite(a, branchWrites, branchLists, branchValued, branchListOnly)
	case "tag":
		return listOrWrite(a, tagWrites, tagLists, tagValued, tagListOnly)
	case "config":
		return len(a) > 1 && !slices.ContainsFunc(a[1:], func(s string) bool { return slices.Contains(configReads, s) })
	case "remote":
		if len(a) == 1 {
			return false
		}
		if s := firstOperand(a, nil); s != "" {
			return !remoteReads[s]
		}
		return slices.ContainsFunc(a[1:], func(s string) bool { return !remoteFlags[s] })
	case "stash":
		rest := a[1:]
		if slices.ContainsFunc(rest, func(s string) bool { return s == "-m" || strings.HasPrefix(s, "--message") }) {
			return true
		}
		i := slices.IndexFunc(rest, func(s string) bool { return !strings.HasPrefix(s, "-") })
		return i < 0 || !stashReads[rest[i]]
	case "worktree":
		return firstOperand(a, nil) != "list"
	case "reflog":
		s := firstOperand(a, nil)
		return s != "" && !reflogReads[s]
	case "notes":
		s := firstOperand(a, notesValued)
		return s != "" && !notesReads[s]
	default:
		return !gitReadOnly[sub]
	}
}

func optName(s string) string { name, _, _ := strings.Cut(s, "="); return name }

// listOrWrite is Kilo's branch and tag test (Jof).
func listOrWrite(a []string, writes, lists, valued, listOnly map[string]bool) bool {
	if len(a) == 1 {
		return false
	}
	var e []string
	for _, s := range a[1:] {
		switch {
		case clusteredShort.MatchString(s):
			for _, c := range trailingDigits.ReplaceAllString(s[1:], "") {
				e = append(e, "-"+string(c))
			}
		case shortNumber.MatchString(s):
			e = append(e, s[:2])
		default:
			e = append(e, s)
		}
	}
	if slices.ContainsFunc(e, func(s string) bool { return writes[optName(s)] }) {
		return true
	}
	var f []string
	skip := false
	for _, s := range e {
		if skip {
			skip = false
			continue
		}
		f = append(f, s)
		skip = valued[optName(s)] && !strings.Contains(s, "=")
	}
	if !slices.ContainsFunc(f, func(s string) bool { return lists[optName(s)] }) {
		return true
	}
	if slices.ContainsFunc(f, func(s string) bool { return listOnly[optName(s)] }) {
		return false
	}
	return slices.ContainsFunc(f, func(s string) bool { return !strings.HasPrefix(s, "-") })
}

// firstOperand is Kilo's oA$: the first word after the subcommand that is
// not an option, skipping the value of an option in valued.
func firstOperand(a []string, valued map[string]bool) string {
	skip := false
	for _, s := range a[1:] {
		if skip {
			skip = false
			continue
		}
		if strings.HasPrefix(s, "-") {
			skip = valued[optName(s)] && !strings.Contains(s, "=")
			continue
		}
		return s
	}
	return ""
}
