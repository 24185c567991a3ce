package filter

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/core/shell"
)

// gitLog renders `git log`: one line per commit (short hash, date, author,
// refs, subject, a merge mark) and up to three lines of its body. Merges
// stay; a format the user chose is respected (only capped).
type gitLog struct{}

// gitLogOwnFormat are flags by which the user chose what git log prints.
var gitLogOwnFormat = []string{"--oneline", "--format", "--pretty", "--raw", "--graph", "--dirstat", "-L", "--cc", "-z", "-g", "--walk-reflogs",
	"--show-signature", "--notes", "--show-notes", "--left-right", "--children", "--parents", "--show-linear-break",
	"-h", "--help", "--no-walk", "--source", "-c", "-m", "--patch-with-raw", "--check", "--log-size"}

// gitLogDetail are flags that add, under each commit, its diffstat, its
// file list or its patch: gotk keeps its commit line and renders what
// follows (stat tables without padding, patches as compact diffs).
var gitLogDetail = []string{"-p", "-u", "--patch", "--stat", "--numstat", "--shortstat", "--name-only", "--name-status",
	"--summary", "--compact-summary", "--patch-with-stat"}

// logSep and fieldSep delimit records in the format gotk asks for.
const (
	logSep    = "\x1e"
	fieldSep  = "\x1f"
	detailSep = "\x1d" // after the message: what a detail flag adds
	logBody   = 3      // body lines kept per commit
	logMax    = 150
)

// Args asks for a delimited format (and short dates unless the user chose
// a date format) when the user chose no format.
func (gitLog) Args(argv []string, tool int) []string {
	at := subIndex(argv, tool, "log")
	if at < 0 || subHas(argv, at, gitLogOwnFormat...) || subHas(argv, at, writesFile...) {
		return argv
	}
	format := "--format=" + logSep + "%h" + fieldSep + "%ad" + fieldSep + "%an" + fieldSep + "%D" + fieldSep + "%p" + fieldSep + "%B"
	if subHas(argv, at, gitLogDetail...) {
		format += detailSep
	}
	flags := []string{format}
	if !subHas(argv, at, "--date") {
		flags = append(flags, "--date=short")
	}
	return insertAt(argv, at+1, flags...)
}

// gitLogUnprefixed are flags under which `git log -n N` is not the first
// commits of `git log`: --reverse lists the oldest of the N first, --graph
// and --boundary draw or add commits from what is shown; help is not a
// log.
var gitLogUnprefixed = []string{"--reverse", "--graph", "--boundary", "-h", "--help"}

// BoundHead adds -n N+1 to a log the user did not bound: its first N
// lines come from its first N commits at most, and one commit more tells
// whether the log goes on past them.
func (gitLog) BoundHead(argv []string, tool, n int) []string {
	at := subIndex(argv, tool, "log")
	if at < 0 || n <= 0 || gitLogBounded(argv, tool) || subHas(argv, at, gitLogUnprefixed...) {
		return argv
	}
	return insertAt(argv, at+1, "-n", strconv.Itoa(n+1))
}

// Render prints the compact commits, or caps the user's own format.
func (gitLog) Render(in Input) (Output, error) {
	if !strings.HasPrefix(string(in.Stdout), logSep) {
		if len(in.Stdout) > 0 && !userHas(in.Argv, in.Tool, gitLogOwnFormat...) {
			if slices.Equal(in.RanArgv, in.Argv) {
				return plainLog(in)
			}
			return Output{}, errors.New("git log: output is not in gotk's format")
		}
		if looksLikeDiff(in.Stdout) {
			return Output{Stdout: compactDiff(in.Stdout, in), Stderr: in.Stderr}, nil
		}
		return Output{Stdout: join(capLines(compactStat(lines(in.Stdout)), 600, 500, in)), Stderr: in.Stderr}, nil
	}
	recs := strings.Split(string(in.Stdout), logSep)[1:]
	var res []string
	shortened := 0
	cut := false // a patch lost context lines
	// Without -n the log has no bound: the first page of commits, then
	// how many are left and where they start in the log as typed.
	unbounded := !gitLogBounded(in.Argv, in.Tool)
	size := 0
	for i, r := range recs {
		if i == logMax || unbounded && size > pageBudget {
			res = append(res, gitLogRest(recs[i:], in))
			break
		}
		f := strings.SplitN(r, fieldSep, 6)
		if len(f) != 6 {
			return Output{}, errors.New("git log: bad record")
		}
		msg, detail, _ := strings.Cut(f[5], detailSep)
		body := dropBlankRuns(strings.Split(strings.Trim(msg, " \t\n"), "\n"))
		subject := ""
		if len(body) > 0 {
			subject, body = body[0], body[1:]
		}
		res = append(res, commitLine(f[0], f[1], f[2], f[3], strings.Fields(f[4]), subject))
		var kept []string
		for _, b := range body {
			if strings.TrimSpace(b) != "" {
				kept = append(kept, "  "+strings.TrimSpace(b))
			}
		}
		if len(kept) > logBody+1 {
			shortened++
			kept = append(kept[:logBody], fmt.Sprintf("  … %d more lines", len(kept)-logBody))
		}
		res = append(res, kept...)
		res = append(res, logDetail(detail, in, &cut)...)
		size = 0
		for _, l := range res {
			size += len(l) + 1
		}
	}
	if shortened > 0 {
		res = append(res, fmt.Sprintf("(%s shortened: %s)", plural(shortened, "commit message", "commit messages"), in.Recall()))
	}
	if cut {
		res = append(res, contextNote(in))
	}
	return Output{Stdout: join(res), Stderr: in.Stderr}, nil
}

// ReadsPlain: git log's output as typed (git's medium format) renders
// too (plainLog).
func (gitLog) ReadsPlain() {}

// plainLog renders git log's output as typed (a window of it, in which a
// commit may start before it): each commit header folded into its
// one-line form (compactCommitHeaders), patches compacted as git show's,
// and a note naming recall for what the headers lose (full hashes,
// e-mail addresses, times). An error when no header was folded: not a
// log in git's default format. In an agent's head window the last
// commit's header may be cut short: its lines stay as git printed them,
// after the note.
func plainLog(in Input) (Output, error) {
	ls := lines(in.Stdout)
	var cut []string
	if in.Window > 0 {
		ls, cut = cutHeader(ls)
		in.Stdout = join(ls)
	}
	folded := 0
	for _, l := range ls {
		if commitStart.MatchString(l) {
			folded++
		}
	}
	got, err := gitDiff{}.Render(in)
	if err != nil || folded == 0 || bytes.Count(got.Stdout, []byte("\ncommit ")) > 0 || bytes.HasPrefix(got.Stdout, []byte("commit ")) {
		return Output{}, errors.New("git log: output is not in git's default format")
	}
	got.Stdout = append(got.Stdout, fmt.Sprintf("(%s: full hashes, e-mail addresses and times in %s)\n", plural(folded, "commit header folded", "commit headers folded"), in.Recall())...)
	got.Stdout = append(got.Stdout, join(cut)...)
	return got, nil
}

// cutHeader splits off the end of ls a commit header cut short (its
// commit line, then maybe Merge, Author, Date and the blank line, but not
// the subject: compactCommitHeaders folds only a whole header).
func cutHeader(ls []string) (whole, cut []string) {
	for k := len(ls) - 1; k >= 0 && k >= len(ls)-5; k-- {
		if !commitStart.MatchString(ls[k]) {
			continue
		}
		if k > 0 && ls[k-1] != "" {
			break
		}
		j := k + 1
		if j < len(ls) && strings.HasPrefix(ls[j], "Merge: ") {
			j++
		}
		// Author, Date, the blank line, the subject: whole
		if j+3 < len(ls) {
			break
		}
		return ls[:k], ls[k:]
	}
	return ls, nil
}

// commitLine is the one-line form of a commit's header, wherever git
// prints one (git log, git show, git log -p): short hash, date, author,
// refs, a merge mark with the parents, then the subject.
func commitLine(hash, date, author, refs string, parents []string, subject string) string {
	line := hash + " " + date + " " + author
	if refs != "" {
		line += " (" + refs + ")"
	}
	if len(parents) > 1 {
		line += " [merge " + strings.Join(parents, "+") + "]"
	}
	return line + ": " + subject
}

// commitStart is the first line of a commit in git's default (medium)
// format: "commit <full hash>", maybe with its refs.
var commitStart = lazy(`^commit ([0-9a-f]{40}|[0-9a-f]{64})(?: \((.*)\))?$`)

// gitDate is git's default date format.
const gitDate = "Mon Jan 2 15:04:05 2006 -0700"

// compactCommitHeaders rewrites the commit headers git show (and git log
// -p in its own format) prints in the default medium format as git log's
// filter prints them: "commit", "Author:" and "Date:" lines folded into
// commitLine (short hash, short date, author's name), the message
// indented by two spaces instead of four. Any other header form (fuller,
// a tag's, an unparsable date) stays as it is.
func compactCommitHeaders(ls []string) []string {
	var out []string
	for i := 0; i < len(ls); i++ {
		m := commitStart.FindStringSubmatch(ls[i])
		if m == nil || (i > 0 && ls[i-1] != "") {
			out = append(out, ls[i])
			continue
		}
		j := i + 1
		var parents []string
		if j < len(ls) && strings.HasPrefix(ls[j], "Merge: ") {
			parents = strings.Fields(strings.TrimPrefix(ls[j], "Merge: "))
			j++
		}
		if j+2 >= len(ls) || !strings.HasPrefix(ls[j], "Author: ") || !strings.HasPrefix(ls[j+1], "Date:   ") || ls[j+2] != "" {
			out = append(out, ls[i])
			continue
		}
		author := strings.TrimPrefix(ls[j], "Author: ")
		if k := strings.LastIndex(author, " <"); k > 0 && strings.HasSuffix(author, ">") {
			author = author[:k]
		}
		date := strings.TrimPrefix(ls[j+1], "Date:   ")
		if t, err := time.Parse(gitDate, date); err == nil {
			date = t.Format("2006-01-02")
		}
		k := j + 3
		var msg []string
		for k < len(ls) && (strings.HasPrefix(ls[k], "    ") || ls[k] == "") {
			if ls[k] == "" && (k+1 == len(ls) || !strings.HasPrefix(ls[k+1], "    ")) {
				break // the blank line after the message
			}
			msg = append(msg, strings.TrimPrefix(ls[k], "    "))
			k++
		}
		msg = dropBlankRuns(msg)
		subject := ""
		if len(msg) > 0 {
			subject, msg = msg[0], msg[1:]
		}
		out = append(out, commitLine(m[1][:10], date, author, m[2], parents, subject))
		for _, l := range dropBlankRuns(msg) {
			if l != "" {
				l = "  " + l
			}
			out = append(out, l)
		}
		i = k - 1
	}
	return out
}

// gitLogBounded reports whether the user bounded the log's length
// (-n N, -N, --max-count).
func gitLogBounded(argv []string, tool int) bool {
	at := subIndex(argv, tool, "log")
	if at < 0 {
		return false
	}
	for _, a := range argv[at+1:] {
		if a == "--" {
			break
		}
		if a == "-n" || strings.HasPrefix(a, "--max-count") || len(a) > 1 && a[0] == '-' && (shell.IsDigits(a[1:]) || a[1] == 'n' && shell.IsDigits(a[2:])) {
			return true
		}
	}
	return false
}

// gitLogRest is the note for the commits after the first page: how many,
// and the lines of the log as typed where they are (the first one's
// "commit <hash>" line to the end), when the runner kept that log.
func gitLogRest(recs []string, in Input) string {
	hash, _, _ := strings.Cut(recs[0], fieldSep)
	if in.RecallLines != nil && len(in.Plain) > 0 && hash != "" {
		pl := bytes.Split(bytes.TrimSuffix(in.Plain, []byte("\n")), []byte("\n"))
		for i, l := range pl {
			if bytes.HasPrefix(l, []byte("commit "+hash)) {
				return fmt.Sprintf("… %d more commits (lines %d-%d: %s)", len(recs), i+1, len(pl), in.RecallLines(i+1, len(pl)))
			}
		}
	}
	return moreLine(len(recs), "commits", in)
}

// logDetail renders what a detail flag printed under one commit: a patch
// as a compact diff, a stat table without its padding, a file list as is.
func logDetail(detail string, in Input, cut *bool) []string {
	detail = strings.Trim(detail, "\n")
	if detail == "" {
		return nil
	}
	ls := lines([]byte(detail))
	if looksLikeDiff([]byte(detail)) {
		return compactDiffLines(ls, in, cut)
	}
	return compactStat(ls)
}

// gitBranch renders a plain `git branch` listing on few lines: the current
// branch, the other local ones, and remote ones grouped by remote.
type gitBranch struct{ same }

var branchLineRe = lazy(`^[* +] \S`)

// Render compacts a plain listing; anything else (-v, creating or deleting
// a branch) is kept as it is.
func (gitBranch) Render(in Input) (Output, error) {
	ls := lines(in.Stdout)
	if len(ls) < 4 || userHas(in.Argv, in.Tool, "-v", "-vv", "--verbose", "--format", "--column", "--points-at", "--show-current") {
		return raw(in), nil
	}
	var cur string
	var local []string
	remotes := map[string][]string{}
	var remoteOrder []string
	for _, l := range ls {
		if !branchLineRe.MatchString(l) {
			return raw(in), nil
		}
		name := l[2:]
		switch {
		case l[0] == '*':
			cur = name
		case strings.HasPrefix(name, "remotes/"):
			rest := strings.TrimPrefix(name, "remotes/")
			remote, br, _ := strings.Cut(rest, "/")
			if _, ok := remotes[remote]; !ok {
				remoteOrder = append(remoteOrder, remote)
			}
			remotes[remote] = append(remotes[remote], br)
		case l[0] == '+':
			local = append(local, name+" (worktree)")
		default:
			local = append(local, name)
		}
	}
	var res []string
	if cur != "" {
		res = append(res, "* "+cur)
	}
	if len(local) > 0 {
		res = append(res, "  "+strings.Join(local, ", "))
	}
	for _, r := range remoteOrder {
		res = append(res, "remotes/"+r+"/: "+strings.Join(remotes[r], ", "))
	}
	return Output{Stdout: join(res), Stderr: in.Stderr}, nil
}

// gitStash renders `git stash`: a patch (stash show -p) as a compact diff,
// the rest without git's progress chatter.
type gitStash struct{ same }

// Render picks the diff or the line rendering.
func (gitStash) Render(in Input) (Output, error) {
	if looksLikeDiff(in.Stdout) {
		return Output{Stdout: compactDiff(in.Stdout, in), Stderr: in.Stderr}, nil
	}
	return lineFilter{noise: append(gitProgress, gitHints), max: 200}.Render(in)
}

// TwinEnv: git log as typed runs alongside for the default format recall
// prints (full hashes, authors' addresses, dates the compact lines drop).
func (gitLog) TwinEnv() []string { return []string{"GIT_OPTIONAL_LOCKS=0"} }
