package filter

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// This file rebuilds `git status`'s long format (what the command as typed
// prints: what recall shows and gain counts) from the porcelain v2 output
// gotk asked for, instead of running git status a second time. It follows
// git's wt-status.c (wt_longstatus_print) and remote.c
// (format_tracking_info) as of git 2.39; TestLongStatusMatchesGit compares
// it byte for byte with the real git on temporary repositories.
//
// Where porcelain v2 does not carry what the long format prints, Plain
// says it cannot (the runner then runs git status as typed: filter.Twin):
//   - a detached HEAD: "HEAD detached at/from <ref>" comes from the reflog;
//   - conflicts and operations in progress (merge, rebase, cherry-pick,
//     revert, bisect, am): their banners come from files in the git
//     directory and are version-dependent prose;
//   - submodules: the "(new commits, modified content)" notes, their hint
//     and the submodule summary;
//   - configuration that changes the long format only (status.*, advice.*,
//     color.status/ui = always, column.*, core.sparseCheckout, includes,
//     `git -c`), a locale other than English, options it does not know;
//   - a run longer than a second: git may add its timing advice ("It took
//     2.51 seconds to enumerate untracked files").
// With no git directory found where git would look (GIT_DIR, --git-dir,
// a bare repository), it cannot either.

// statusEntry is one changed path of porcelain v2.
type statusEntry struct {
	x, y byte   // index and worktree status ('.': unchanged)
	path string // as git prints it (quoted, relative to the current directory)
	from string // a rename's or copy's source
	rc   byte   // 'R' or 'C' for a rename or copy (of the index column)
}

// statusLabel is the long format's word for a status letter, padded as
// git pads it (to the widest label, "typechange:", and one space).
var statusLabel = map[byte]string{
	'A': "new file:   ", 'C': "copied:     ", 'D': "deleted:    ", 'M': "modified:   ",
	'R': "renamed:    ", 'T': "typechange: ", 'U': "unmerged:   ", 'X': "unknown:    ",
}

// Plain rebuilds git status's long format from porcelain v2 (see the top
// of this file for where it cannot).
func (gitStatus) Plain(in Input) ([]byte, bool) {
	at := subIndex(in.Argv, in.Tool, "status")
	if at < 0 || in.Duration > time.Second || !bytes.HasPrefix(in.Stdout, []byte("# branch.oid ")) {
		return nil, false
	}
	opts, ok := longStatusOptions(in.Argv[at+1:])
	if !ok || !gitLongFormatDefault(in, at) {
		return nil, false
	}
	if yadmHidesUntracked(in, at) {
		opts.untracked = false
	}
	var (
		oid, head, upstream, ab string
		stash                   int
		changes                 []statusEntry
		untracked, ignored      []string
	)
	for _, l := range strings.SplitAfter(string(in.Stdout), "\n") {
		if l == "" {
			continue
		}
		if !strings.HasSuffix(l, "\n") {
			return nil, false
		}
		l = l[:len(l)-1]
		switch {
		case strings.HasPrefix(l, "# branch.oid "):
			oid = l[len("# branch.oid "):]
		case strings.HasPrefix(l, "# branch.head "):
			head = l[len("# branch.head "):]
		case strings.HasPrefix(l, "# branch.upstream "):
			upstream = l[len("# branch.upstream "):]
		case strings.HasPrefix(l, "# branch.ab "):
			ab = l[len("# branch.ab "):]
		case strings.HasPrefix(l, "# stash "):
			stash = atoi(l[len("# stash "):])
		case strings.HasPrefix(l, "1 "), strings.HasPrefix(l, "2 "):
			n := 9
			if l[0] == '2' {
				n = 10
			}
			f := strings.SplitN(l, " ", n)
			if len(f) != n || len(f[1]) != 2 || f[2] != "N..." {
				return nil, false // a submodule, or not what git 2.39 prints
			}
			e := statusEntry{x: f[1][0], y: f[1][1], path: f[n-1]}
			if l[0] == '2' {
				to, from, ok := strings.Cut(f[n-1], "\t")
				if !ok || len(f[8]) < 2 {
					return nil, false
				}
				e.path, e.from, e.rc = to, from, f[8][0]
			}
			changes = append(changes, e)
		case strings.HasPrefix(l, "? "):
			untracked = append(untracked, l[2:])
		case strings.HasPrefix(l, "! "):
			ignored = append(ignored, l[2:])
		default:
			return nil, false // conflicts ("u "), headers 2.39 does not print
		}
	}
	if oid == "" || head == "" || head == "(detached)" || head == "(unknown)" {
		return nil, false
	}
	initial := oid == "(initial)"

	var b strings.Builder
	b.WriteString("On branch " + head + "\n")
	if !initial && upstream != "" {
		if !trackingInfo(&b, upstream, ab) {
			return nil, false
		}
	}
	if initial {
		b.WriteString("\nNo commits yet\n\n")
	}

	committable, dirty, deleted := false, false, false
	for _, e := range changes {
		if e.x != '.' {
			committable = true
		}
		if e.y != '.' {
			dirty = true
			deleted = deleted || e.y == 'D'
		}
	}
	if committable {
		b.WriteString("Changes to be committed:\n")
		if initial {
			b.WriteString("  (use \"git rm --cached <file>...\" to unstage)\n")
		} else {
			b.WriteString("  (use \"git restore --staged <file>...\" to unstage)\n")
		}
		for _, e := range changes {
			if e.x != '.' && !changeLine(&b, e, e.x) {
				return nil, false
			}
		}
		b.WriteString("\n")
	}
	if dirty {
		b.WriteString("Changes not staged for commit:\n")
		if deleted {
			b.WriteString("  (use \"git add/rm <file>...\" to update what will be committed)\n")
		} else {
			b.WriteString("  (use \"git add <file>...\" to update what will be committed)\n")
		}
		b.WriteString("  (use \"git restore <file>...\" to discard changes in working directory)\n")
		for _, e := range changes {
			if e.y != '.' && !changeLine(&b, e, e.y) {
				return nil, false
			}
		}
		b.WriteString("\n")
	}
	if opts.untracked {
		otherSection(&b, "Untracked files", "add", untracked)
		if opts.ignored {
			otherSection(&b, "Ignored files", "add -f", ignored)
		}
	} else if committable {
		b.WriteString("Untracked files not listed (use -u option to show untracked files)\n")
	}
	if !committable {
		switch {
		case dirty:
			b.WriteString("no changes added to commit (use \"git add\" and/or \"git commit -a\")\n")
		case len(untracked) > 0:
			b.WriteString("nothing added to commit but untracked files present (use \"git add\" to track)\n")
		case initial:
			b.WriteString("nothing to commit (create/copy files and use \"git add\" to track)\n")
		case !opts.untracked:
			b.WriteString("nothing to commit (use -u to show untracked files)\n")
		default:
			b.WriteString("nothing to commit, working tree clean\n")
		}
	}
	if stash > 0 {
		b.WriteString("Your stash currently has " + plural(stash, "entry", "entries") + "\n")
	}
	return []byte(b.String()), true
}

// trackingInfo writes format_tracking_info's lines and the blank line
// after them; false for an ab line it does not know.
func trackingInfo(b *strings.Builder, upstream, ab string) bool {
	var ahead, behind string
	if ab != "" {
		f := strings.Fields(ab)
		if len(f) != 2 || !strings.HasPrefix(f[0], "+") || !strings.HasPrefix(f[1], "-") {
			return false
		}
		ahead, behind = f[0][1:], f[1][1:]
	}
	commits := func(n string) string {
		if n == "1" {
			return "1 commit"
		}
		return n + " commits"
	}
	switch {
	case ab == "":
		fmt.Fprintf(b, "Your branch is based on '%s', but the upstream is gone.\n", upstream)
		b.WriteString("  (use \"git branch --unset-upstream\" to fixup)\n")
	case ahead == "?":
		fmt.Fprintf(b, "Your branch and '%s' refer to different commits.\n", upstream)
		b.WriteString("  (use \"git status --ahead-behind\" for details)\n")
	case ahead == "0" && behind == "0":
		fmt.Fprintf(b, "Your branch is up to date with '%s'.\n", upstream)
	case behind == "0":
		fmt.Fprintf(b, "Your branch is ahead of '%s' by %s.\n", upstream, commits(ahead))
		b.WriteString("  (use \"git push\" to publish your local commits)\n")
	case ahead == "0":
		fmt.Fprintf(b, "Your branch is behind '%s' by %s, and can be fast-forwarded.\n", upstream, commits(behind))
		b.WriteString("  (use \"git pull\" to update your local branch)\n")
	default:
		each := "commits each"
		if atoi(ahead)+atoi(behind) == 1 {
			each = "commit each"
		}
		fmt.Fprintf(b, "Your branch and '%s' have diverged,\nand have %s and %s different %s, respectively.\n", upstream, ahead, behind, each)
		b.WriteString("  (use \"git pull\" to merge the remote branch into yours)\n")
	}
	b.WriteString("\n")
	return true
}

// changeLine writes one path of the staged (status = e.x) or unstaged
// (status = e.y) section; a rename shows its source only in the column
// that renamed it.
func changeLine(b *strings.Builder, e statusEntry, status byte) bool {
	label, ok := statusLabel[status]
	if !ok {
		return false
	}
	b.WriteString("\t" + label)
	if e.rc != 0 && status == e.rc {
		b.WriteString(e.from + " -> ")
	}
	b.WriteString(e.path + "\n")
	return true
}

// otherSection writes the untracked or ignored files, if any.
func otherSection(b *strings.Builder, what, how string, paths []string) {
	if len(paths) == 0 {
		return
	}
	b.WriteString(what + ":\n")
	b.WriteString("  (use \"git " + how + " <file>...\" to include in what will be committed)\n")
	for _, p := range paths {
		b.WriteString("\t" + p + "\n")
	}
	b.WriteString("\n")
}

// statusOptions are what the user's git status options change in the long
// format beyond the porcelain v2 entries.
type statusOptions struct {
	untracked bool // untracked files are listed (not -uno)
	ignored   bool // --ignored: an "Ignored files" section
}

// longStatusOptions reads the options after `status`; ok is false for an
// option whose effect on the long format it does not know.
func longStatusOptions(args []string) (o statusOptions, ok bool) {
	o.untracked = true
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue // a pathspec: porcelain v2 was limited the same way
		}
		name, val, _ := strings.Cut(a, "=")
		switch {
		case a == "-u" || a == "-uall" || a == "-unormal":
		case a == "-uno":
			o.untracked = false
		case name == "--untracked-files":
			o.untracked = val != "no"
		case name == "--ignored":
			o.ignored = val != "no"
		case slices.Contains([]string{"-b", "--branch", "--no-branch", "--ahead-behind", "--no-ahead-behind",
			"--show-stash", "--no-show-stash", "--renames", "--no-renames", "--find-renames",
			"--no-column", "--long"}, name):
		default:
			return o, false
		}
	}
	return o, true
}

// yadmHidesUntracked: yadm's repository sets status.showUntrackedFiles=no
// (its work tree is $HOME), so its plain status says "Untracked files not
// listed" unless the user asked for them with -u/--untracked-files.
func yadmHidesUntracked(in Input, at int) bool {
	if in.Tool >= len(in.Argv) || filepath.Base(in.Argv[in.Tool]) != "yadm" {
		return false
	}
	for _, a := range in.Argv[at+1:] {
		if strings.HasPrefix(a, "--untracked-files") || (strings.HasPrefix(a, "-u") && !strings.HasPrefix(a, "--")) {
			return false
		}
	}
	return true
}
