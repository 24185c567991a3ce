package filter

import (
	"errors"
	"fmt"
	"strings"
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

// Render prints the compact commits, or caps the user's own format.
func (gitLog) Render(in Input) (Output, error) {
	if !strings.HasPrefix(string(in.Stdout), logSep) {
		if len(in.Stdout) > 0 && !userHas(in.Argv, in.Tool, gitLogOwnFormat...) {
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
	for i, r := range recs {
		if i == logMax {
			res = append(res, moreLine(len(recs)-logMax, "commits", in))
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
		line := f[0] + " " + f[1] + " " + f[2]
		if f[3] != "" {
			line += " (" + f[3] + ")"
		}
		if strings.Contains(strings.TrimSpace(f[4]), " ") {
			line += " [merge " + strings.ReplaceAll(strings.TrimSpace(f[4]), " ", "+") + "]"
		}
		res = append(res, line+": "+subject)
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
		res = append(res, logDetail(detail, in)...)
	}
	if shortened > 0 {
		res = append(res, fmt.Sprintf("(%s shortened: %s)", plural(shortened, "commit message", "commit messages"), in.Recall()))
	}
	return Output{Stdout: join(res), Stderr: in.Stderr}, nil
}

// logDetail renders what a detail flag printed under one commit: a patch
// as a compact diff, a stat table without its padding, a file list as is.
func logDetail(detail string, in Input) []string {
	detail = strings.Trim(detail, "\n")
	if detail == "" {
		return nil
	}
	ls := lines([]byte(detail))
	if looksLikeDiff([]byte(detail)) {
		return compactDiffLines(ls, in)
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
