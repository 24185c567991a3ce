package cline

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
	"github.com/gotk-dev/gotk/core/shell/shelltest"
)

// clineGuard is Cline's plan-mode guard, transcribed from @cline/core
// 0.0.86's dist/index.js (findFileEditingCommand and its helpers, minified
// mU, Gf, lX, gU, vU of that build): the command is masked (heredoc
// bodies dropped, $((…)) and escapes replaced, quoted text's special
// characters replaced, comments dropped); any output redirection to a
// file outside the temporary folders is refused; the text is split at
// newlines, ; | & ( ) and backticks, and each part's words are checked
// for a program that changes files. It reports whether the guard refuses
// the command.
func clineGuard(cmd string) bool {
	z := clineMask(cmd)
	for _, m := range clineRedirect.FindAllStringSubmatch(z, -1) {
		if !clineTemp(m[1]) {
			return true
		}
	}
	for _, part := range clineSplit.Split(z, -1) {
		if clineWords(strings.Fields(part)) {
			return true
		}
	}
	return false
}

var (
	clineRedirect  = regexp.MustCompile(`(?:^|[^<>])(?:>{1,2}|&>{1,2})\s*([^\s;&|<>()]+)`)
	clineSplit     = regexp.MustCompile("[\n;|&()`]+")
	clineHeredoc   = regexp.MustCompile(`^<<-?\s*(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_./-]+))`)
	clineArith     = regexp.MustCompile(`\$\(\((?s:.*?)\)\)`)
	clineEscape    = regexp.MustCompile(`\\.`)
	clineQuoted    = regexp.MustCompile(`"[^"]*"|'[^']*'`)
	clineInQuotes  = regexp.MustCompile("[\\s<>|;&$()`#\\\\]")
	clineComment   = regexp.MustCompile(`(?m)(?:^|\s)#.*$`)
	clineTempNames = regexp.MustCompile(`(?i)^(/dev/(null|stdout|stderr|tty)|nul:?)$`)
	clineTempWin   = regexp.MustCompile(`(?i)^(%te?mp%|\$env:te?mp)`)
	clineAssignM   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\+?=`)
	clineDur       = regexp.MustCompile(`^\d+[smhd]?$`)
	clinePy        = regexp.MustCompile(`^python[\d.]*$`)
	clineInPlace   = regexp.MustCompile(`^-[A-Za-z]*i(\..*)?$`)
	clineAwk       = regexp.MustCompile(`^[gnm]?awk$`)
	clineCurlO     = regexp.MustCompile(`^-[A-Za-z]*[oO]`)
	clineWgetO     = regexp.MustCompile(`^-[A-Za-z]*O-$`)
)

// clineMask is Gf.
func clineMask(cmd string) string {
	var kept []string
	end, in := "", false
	for _, line := range strings.Split(cmd, "\n") {
		if in {
			if strings.TrimLeft(line, "\t") == end {
				in = false
			}
			continue
		}
		kept = append(kept, line)
		for i := 0; i+1 < len(line); i++ {
			if line[i:i+2] != "<<" || i > 0 && line[i-1] == '<' {
				continue
			}
			if m := clineHeredoc.FindStringSubmatch(line[i:]); m != nil {
				end, in = m[1]+m[2]+m[3], true
				break
			}
		}
	}
	s := strings.Join(kept, "\n")
	s = clineArith.ReplaceAllString(s, "_")
	s = clineEscape.ReplaceAllString(s, "_")
	s = clineQuoted.ReplaceAllStringFunc(s, func(q string) string { return clineInQuotes.ReplaceAllString(q, "_") })
	return clineComment.ReplaceAllString(s, " ")
}

// clineTemp is gU: a redirect target the guard lets through.
func clineTemp(w string) bool {
	z := strings.NewReplacer(`"`, "", `'`, "").Replace(w)
	if clineTempNames.MatchString(z) {
		return true
	}
	if strings.Contains(z, "..") {
		return false
	}
	return strings.HasPrefix(z, "/tmp/") || strings.HasPrefix(z, "/var/tmp/") || strings.HasPrefix(z, "$TMPDIR") ||
		strings.HasPrefix(z, "${TMPDIR") || clineTempWin.MatchString(z)
}

// clineName is vU.
func clineName(w string) string {
	w = strings.NewReplacer(`"`, "", `'`, "").Replace(w)
	parts := regexp.MustCompile(`[/\\]`).Split(w, -1)
	return strings.TrimSuffix(strings.ToLower(parts[len(parts)-1]), ".exe")
}

var (
	clineModelWriters = strings.Fields("rm rmdir unlink mv cp dd touch mkdir ln link chmod chown chgrp truncate shred install patch rsync " +
		"mkfifo mknod del erase move ren rename md rd mklink copy xcopy robocopy new-item ni remove-item move-item copy-item " +
		"rename-item set-content add-content clear-content out-file mi ri cpi rni ac clc")
	clineJS   = strings.Fields("install i ci add remove rm uninstall unlink link update up upgrade dedupe prune publish")
	clinePyS  = strings.Fields("install uninstall add remove")
	clineSys  = strings.Fields("install reinstall remove purge uninstall upgrade autoremove add del")
	clineSubs = map[string][]string{
		"git": strings.Fields("add am apply checkout cherry-pick clean clone commit init merge mv pull push rebase reset restore revert rm stash submodule switch worktree"),
		"npm": clineJS, "pnpm": clineJS, "yarn": clineJS, "bun": clineJS, "pip": clinePyS, "pip3": clinePyS, "pipx": clinePyS, "uv": clinePyS,
		"cargo": strings.Fields("add remove rm install uninstall update new init publish"),
		"apt":   clineSys, "apt-get": clineSys, "dnf": clineSys, "yum": clineSys, "apk": clineSys, "brew": clineSys, "snap": clineSys,
		"gem": strings.Fields("install uninstall update cleanup"), "composer": strings.Fields("install require remove update"),
		"go": strings.Fields("install get"), "dotnet": strings.Fields("add remove"), "winget": strings.Fields("install uninstall upgrade"),
		"nuget": strings.Fields("install update delete push"),
	}
	clineGitReads  = map[string][]string{"stash": {"list", "show"}, "worktree": {"list"}, "submodule": {"status", "summary"}}
	clineModelWrap = strings.Fields("sudo doas env command builtin nohup time nice stdbuf timeout xargs")
	clineModelKw   = strings.Fields("if then else elif fi while until do done for case esac ! { }")
)

// clineWords is lX: whether one part's words change files.
func clineWords(w []string) bool {
	z := 0
	for z < len(w) && (clineAssignM.MatchString(w[z]) || slices.Contains(clineModelKw, w[z])) {
		z++
	}
	for z < len(w) && slices.Contains(clineModelWrap, clineName(w[z])) {
		z++
		for z < len(w) && (strings.HasPrefix(w[z], "-") || w[z] == "{}" || clineAssignM.MatchString(w[z]) || clineDur.MatchString(w[z])) {
			z++
		}
	}
	if z >= len(w) {
		return false
	}
	q, j := clineName(w[z]), w[z+1:]
	at := func(i int) string {
		if i < len(j) {
			return j[i]
		}
		return ""
	}
	some := func(f func(i int, a string) bool) bool {
		for i, a := range j {
			if f(i, a) {
				return true
			}
		}
		return false
	}
	if q == "tee" {
		return some(func(_ int, a string) bool { return !strings.HasPrefix(a, "-") && !clineTemp(a) })
	}
	if slices.Contains(clineModelWriters, q) {
		return true
	}
	if subs, ok := clineSubs[q]; ok {
		if q == "git" && some(func(_ int, a string) bool { return a == "--help" || a == "-h" }) {
			return false
		}
		y := 0
		for y < len(j) && strings.HasPrefix(j[y], "-") {
			if q == "git" && (j[y] == "-c" || j[y] == "-C") {
				y += 2
			} else {
				y++
			}
		}
		if s := strings.ToLower(at(y)); y < len(j) && slices.Contains(subs, s) {
			if q == "git" && y+1 < len(j) && slices.Contains(clineGitReads[s], strings.ToLower(j[y+1])) {
				return false
			}
			return true
		}
		return q == "yarn" && len(j) == 0
	}
	switch {
	case clinePy.MatchString(q):
		y := slices.Index(j, "-m")
		if y == -1 {
			return false
		}
		if m := strings.ToLower(at(y + 1)); y+1 < len(j) && (m == "pip" || m == "pip3") {
			for _, a := range j[min(y+2, len(j)):] {
				if !strings.HasPrefix(a, "-") {
					return slices.Contains(clinePyS, strings.ToLower(a))
				}
			}
		}
		return false
	case q == "sed" || q == "gsed":
		return some(func(_ int, a string) bool { return clineInPlace.MatchString(a) || strings.HasPrefix(a, "--in-place") })
	case q == "perl":
		return some(func(_ int, a string) bool { return clineInPlace.MatchString(a) })
	case clineAwk.MatchString(q):
		return some(func(i int, a string) bool {
			return (a == "-i" || a == "--include") && i+1 < len(j) && strings.HasPrefix(j[i+1], "inplace") ||
				strings.HasPrefix(a, "-i") && strings.HasPrefix(a[2:], "inplace") || strings.HasPrefix(a, "--include=inplace")
		})
	case q == "sort":
		return some(func(_ int, a string) bool { return strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "--output") })
	case q == "curl":
		return some(func(_ int, a string) bool {
			return !strings.HasPrefix(a, "--") && clineCurlO.MatchString(a) || strings.HasPrefix(a, "--output") || strings.HasPrefix(a, "--remote-name")
		})
	case q == "wget":
		return !some(func(i int, a string) bool {
			return a == "--spider" || clineWgetO.MatchString(a) || a == "--output-document=-" || a == "-O" && at(i+1) == "-"
		})
	case q == "find":
		if slices.Contains(j, "-delete") {
			return true
		}
		for y, a := range j {
			if a != "-exec" && a != "-execdir" && a != "-ok" && a != "-okdir" {
				continue
			}
			var sub []string
			for k := y + 1; k < len(j) && j[k] != ";" && j[k] != "+"; k++ {
				sub = append(sub, j[k])
			}
			if clineWords(sub) {
				return true
			}
		}
	}
	return false
}

// clineVocab is what the generated lines are made of: programs the guard
// names, programs gotk rewrites, and words that make the guard refuse or
// let through.
var clineVocab = shelltest.Vocab{
	Programs: []string{"git", "npm", "yarn", "rm", "ls", "cat", "sed", "sort", "curl", "find", "tee", "echo", "go", "python3", "wget",
		"grep", "awk", "timeout", "env", "nice", "cargo", "pip", "wc", "head", "diff", "make", "GIT", "/usr/bin/git", "touch"},
	Words: []string{"status", "commit", "push", "log", "install", "test", "-i", "-o", "-m", "pip", "x.txt", "/tmp/x", "out.txt", "-exec",
		"-delete", "--help", "stash", "list", "-C", "sub", "inplace", "-n", "5", "--oneline", "add", "build", ".", "-name", "-la",
		"FOO=1", "--", "-O", "-", "--output=x", "s/a/b/", "diff", "show", "worktree", "-c", "x=y", "{}", ";"},
}

// clineLine is a generated line: a simple chain of commands drawn from
// the vocabulary (so that gotk rewrites many), or any bash shelltest
// makes from it.
func clineLine(rng *rand.Rand) string {
	if rng.IntN(3) == 0 {
		return shelltest.GenFrom(rng, 2, clineVocab)
	}
	simple := func() string {
		w := []string{shelltest.Spell(rng, clineVocab.Programs[rng.IntN(len(clineVocab.Programs))])}
		for n := rng.IntN(4); n > 0; n-- {
			w = append(w, shelltest.Spell(rng, clineVocab.Words[rng.IntN(len(clineVocab.Words))]))
		}
		s := strings.Join(w, " ")
		if rng.IntN(5) == 0 {
			s += []string{" > out.txt", " 2>&1", " > /tmp/x", " >/dev/null"}[rng.IntN(4)]
		}
		return s
	}
	line := simple()
	for rng.IntN(3) == 0 {
		line += []string{" && ", " || ", "; ", " | "}[rng.IntN(4)] + simple()
	}
	return line
}

// TestClineModelProperty: wherever gotk rewrites a command for Cline,
// the plan-mode guard refuses the rewrite exactly where it refuses the
// original. (In act mode there is no guard, and Cline approves the
// run_commands tool whatever the command: both run alike.)
func TestClineModelProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	home := t.TempDir()
	e := decision.New(Host, permissiontest.Env(home, home, nil))
	rewrites, refused := 0, 0
	for i := 0; i < 3000; i++ {
		line := clineLine(rng)
		if clineGuard(line) {
			refused++
		}
		d := e.Decide(decision.Request{Command: line, Cwd: home})
		if d.Verdict != decision.AllowRewrite && d.Verdict != decision.AskRewrite {
			continue
		}
		rewrites++
		if before, after := clineGuard(line), clineGuard(d.Command); before != after {
			t.Fatalf("line %q: the guard refuses it: %v; gotk rewrites it to %q, refused: %v", line, before, d.Command, after)
		}
	}
	if rewrites < 300 || refused < 300 {
		t.Errorf("%d rewrites, %d lines the guard refuses: the lines test little", rewrites, refused)
	}
}

// TestClineGuardModel pins the transcription on the source's own
// examples.
func TestClineGuardModel(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git commit -m x": true, "git status": false, "git stash list": false, "git stash": true, "git -C sub push": true,
		`git log --grep commit`: false, `git "commit"`: false, "echo x > out.txt": true, "echo x > /tmp/x": false,
		"ls 2>&1": false, "cat <<EOF\ngit commit\nEOF\nls": false, "find . -exec rm {} ;": true, "find . -exec ls {} ;": false,
		"yarn": true, "python3 -m pip install x": true, "wget --spider u": false, "timeout 5 npm ci": true, "# git commit": false,
		"x=$(git commit)": true, "sed -i s/a/b/ f": true, "curl -sSo f u": true, "tee /tmp/x": false, "tee x": true,
	} {
		if got := clineGuard(cmd); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}
