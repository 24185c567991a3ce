package droid

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
)

// The model below is Factory Droid's legacy command policy, transcribed
// from the @factory/cli 0.225.2 bundle (bin/droid): its shell module
// (i_ the line splitter, _s the word splitter, ct the dequoter, N/B the
// wrapper peeler, X the allowlist normaliser, Bd, PI, aw/C and Nd the
// invocation reader) and its policy module (pe the list-entry regular
// expression, k the list matcher, T the blocklist, _ the denylist, aM the
// allowlist with its neutral filters head, tail, grep, cat and echo, b the
// allow set, and evaluateCommand's order: block, then ask, then allow).
// A hook's allow skips everything but the blocklist, which Droid tests
// again on the rewritten command; without an allow the model's risk
// level against the session's autonomy decides.
//
// Lines holding what the transcription leaves out — substitutions,
// process substitutions, heredocs, env -S — are unknown, never compared.

// mSplit is i_ without heredocs: the line's segments, quotes and escapes
// kept, split at ; | & && || and newlines outside quotes.
func mSplit(t string) []string {
	var out []string
	var r strings.Builder
	single, double := false, false
	flush := func() {
		if f := strings.TrimSpace(r.String()); f != "" {
			out = append(out, f)
		}
		r.Reset()
	}
	for a := 0; a < len(t); a++ {
		l := t[a]
		var f byte
		if a+1 < len(t) {
			f = t[a+1]
		}
		if l == '\\' && !single && a < len(t)-1 {
			r.WriteByte(l)
			r.WriteByte(t[a+1])
			a++
			continue
		}
		if l == '\'' && !double {
			single = !single
		} else if l == '"' && !single {
			double = !double
		}
		switch {
		case single || double:
			r.WriteByte(l)
		case l == '&' && f == '&' || l == '|' && f == '|':
			flush()
			a++
		case l == ';' || l == '|' || l == '\n' || l == '\r':
			flush()
		case l == '&':
			s := r.String()
			if len(s) > 2 {
				s = s[len(s)-2:]
			}
			if f == '>' || mre0.MatchString(s) || f == '&' {
				r.WriteByte(l)
			} else {
				flush()
			}
		default:
			r.WriteByte(l)
		}
	}
	flush()
	return out
}

// mWords is _s: blank-separated words, quotes and escapes kept.
func mWords(e string) []string {
	var n []string
	var t strings.Builder
	single, double := false, false
	for s := 0; s < len(e); s++ {
		o := e[s]
		if o == '\\' && s < len(e)-1 {
			t.WriteByte(o)
			t.WriteByte(e[s+1])
			s++
			continue
		}
		switch {
		case o == '\'' && !double:
			single = !single
			t.WriteByte(o)
		case o == '"' && !single:
			double = !double
			t.WriteByte(o)
		case (o == ' ' || o == '\t' || o == '\n' || o == '\r' || o == '\v' || o == '\f') && !single && !double:
			if t.Len() > 0 {
				n = append(n, t.String())
				t.Reset()
			}
		default:
			t.WriteByte(o)
		}
	}
	if t.Len() > 0 {
		n = append(n, t.String())
	}
	return n
}

// mDequote is ct.
func mDequote(e string) string {
	var n strings.Builder
	single, double := false, false
	for r := 0; r < len(e); r++ {
		s := e[r]
		if single {
			if s == '\'' {
				single = false
			} else {
				n.WriteByte(s)
			}
			continue
		}
		if s == '\\' && r+1 < len(e) {
			o := e[r+1]
			if double && o != '$' && o != '`' && o != '"' && o != '\\' && o != '\n' {
				n.WriteByte(s)
				continue
			}
			if o != '\n' {
				n.WriteByte(o)
			}
			r++
			continue
		}
		switch {
		case s == '\'' && !double:
			single = true
		case s == '"':
			double = !double
		default:
			n.WriteByte(s)
		}
	}
	return n.String()
}

// mOuter is O: matching outer quotes removed.
func mOuter(e string) string {
	for len(e) >= 2 && (e[0] == '"' && e[len(e)-1] == '"' || e[0] == '\'' && e[len(e)-1] == '\'') {
		e = e[1 : len(e)-1]
	}
	return e
}

// mBase is o$ (no Windows drive paths here).
func mBase(e string) string {
	n := mDequote(e)
	if i := strings.LastIndexByte(n, '/'); i >= 0 && i < len(n)-1 {
		n = n[i+1:]
	}
	return n
}

var (
	mWrapOpts = map[string][]string{
		"sudo": {"-u", "-g", "-p", "-r", "-t", "-C", "-D", "-R", "-T", "-U", "-h", "--user", "--group", "--prompt", "--role", "--type",
			"--close-from", "--chdir", "--chroot", "--other-user", "--host"},
		"env": {"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}, "time": {"-f", "--format", "-o", "--output"},
		"nohup": {}, "command": {}, "nice": {"-n", "--adjustment"}, "timeout": {"-k", "--kill-after", "-s", "--signal"},
	}
	mAssign   = mre1
	mDuration = mre2
)

// mLongOpt is U: a long option or its unique prefix.
func mLongOpt(e string, set []string) bool {
	if !strings.HasPrefix(e, "--") || len(e) == 2 {
		return false
	}
	if slices.Contains(set, e) {
		return true
	}
	n := 0
	for _, o := range set {
		if strings.HasPrefix(o, "--") && strings.HasPrefix(o, e) {
			n++
		}
	}
	return n == 1
}

// mTimeoutShort is j.
func mTimeoutShort(e string) bool {
	if !strings.HasPrefix(e, "-") || strings.HasPrefix(e, "--") {
		return false
	}
	for n := 1; n < len(e); n++ {
		if slices.Contains(mWrapOpts["timeout"], "-"+e[n:n+1]) {
			return n == len(e)-1
		}
		if !strings.ContainsRune("fpv", rune(e[n])) {
			return false
		}
	}
	return false
}

// mCommandIndex is N (env -S, which Droid re-splits, is the caller's to
// refuse): the index of the program word behind assignments, redirects
// and the wrappers sudo, env, time, nohup, command, nice and timeout.
func mCommandIndex(e []string, base bool) int {
	cmdAt := -1
	for r := 0; r < len(e); r++ {
		s := e[r]
		if mAssign.MatchString(s) {
			continue
		}
		if mre3.MatchString(s) {
			if mre4.MatchString(s) {
				continue
			}
			c := strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return -1
				}
				return r
			}, s)
			if mre5.MatchString(c) && !strings.Contains(c, ">&") {
				r++
			}
			continue
		}
		o := s
		if base {
			o = mBase(s)
		}
		opts, wrapper := mWrapOpts[o]
		if !wrapper {
			return r
		}
		if o == "command" {
			for t := r + 1; t < len(e); t++ {
				i := mDequote(e[t])
				if i == "--" || !strings.HasPrefix(i, "-") {
					break
				}
				if !strings.HasPrefix(i, "--") && strings.ContainsAny(i[1:], "vV") {
					return r
				}
			}
			cmdAt = r
		}
		// B
		at := r
		for at+1 < len(e) {
			w := mDequote(e[at+1])
			if w == "--" {
				at++
				break
			}
			if o == "env" && mAssign.MatchString(w) {
				at++
				continue
			}
			if strings.HasPrefix(w, "-") {
				if slices.Contains(opts, w) || mLongOpt(w, opts) || o == "timeout" && mTimeoutShort(w) {
					at += 2
				} else {
					at++
				}
				continue
			}
			break
		}
		if o == "timeout" {
			next := ""
			if at+1 < len(e) {
				next = mDequote(e[at+1])
			}
			if !mDuration.MatchString(next) {
				return r
			}
			at++
		}
		r = at
	}
	return cmdAt
}

// mInvocations is Nd (aw/C with its default options): each command's
// argv, its program by base name and its arguments dequoted, following
// `sh -c`, `bash -c` and the like into their script.
func mInvocations(e string, depth int, out *[][]string) {
	if depth > 8 || len(*out) >= 64 {
		return
	}
	for _, seg := range mSplit(e) {
		w := mWords(strings.TrimSpace(seg))
		if len(w) == 0 {
			continue
		}
		o := mCommandIndex(w, true)
		if o == -1 {
			continue
		}
		c := mBase(w[o])
		if c == "" {
			continue
		}
		argv := []string{c}
		for _, a := range w[o+1:] {
			argv = append(argv, mDequote(a))
		}
		if !slices.ContainsFunc(*out, func(x []string) bool { return slices.Equal(x, argv) }) && len(*out) < 64 {
			*out = append(*out, argv)
		}
		if slices.Contains([]string{"sh", "bash", "zsh", "dash", "ksh", "cmd", "cmd.exe"}, strings.ToLower(c)) {
			for i, a := range w[o+1:] {
				if a == "--" {
					break
				}
				if mre6.MatchString(a) || a == "/c" || a == "/C" {
					if o+2+i < len(w) {
						mInvocations(mDequote(w[o+2+i]), depth+1, out)
					}
					break
				}
			}
		}
	}
}

// mStripShell is nA: `sh -c '…'` and the like reduced to the script.
func mStripShell(e string) string {
	if m := mre7.FindString(e); m != "" {
		i := strings.TrimSpace(e[len(m):])
		if len(i) >= 2 && (i[0] == '"' && i[len(i)-1] == '"' || i[0] == '\'' && i[len(i)-1] == '\'') {
			i = i[1 : len(i)-1]
		}
		return i
	}
	return strings.TrimSpace(e)
}

// mNormalize is X: a segment's program (by base name), with git's and the
// package managers' subcommand; "" for none (cd, a flag, a number).
func mNormalize(seg string) string {
	var n []string
	for _, w := range mWords(seg) { // M: a word split at its first unquoted < or >
		i := strings.IndexAny(mDequoteMask(w), "<>")
		if i == -1 {
			n = append(n, w)
			continue
		}
		if w[i] == '>' && i > 0 && w[i-1] == '&' && (i < 2 || w[i-2] != '\\') {
			i--
		}
		if mre8.MatchString(w[:i]) {
			n = append(n, w)
		} else {
			n = append(n, w[:i], w[i:])
		}
	}
	t := mCommandIndex(n, false)
	if t == -1 {
		return ""
	}
	i := n[t]
	if i == "cd" {
		return ""
	}
	i = mOuter(i)
	if j := strings.LastIndexByte(i, '/'); j >= 0 && j < len(i)-1 {
		i = i[j+1:]
	}
	if i == "" || strings.HasPrefix(i, "-") || mre9.MatchString(i) {
		return ""
	}
	if !slices.Contains([]string{"git", "npm", "yarn", "pnpm", "bun", "gh", "glab"}, i) {
		return i
	}
	want := 1
	if i == "gh" || i == "glab" {
		want = 2
	}
	var c []string
	skip := false
	for _, l := range n[t+1:] {
		if skip {
			skip = false
			continue
		}
		if mre3.MatchString(l) {
			if mre5.MatchString(strings.Trim(l, "0123456789")) {
				skip = true
			}
			continue
		}
		if strings.HasPrefix(l, "-") {
			switch {
			case i == "git" && slices.Contains([]string{"-C", "-c", "--git-dir", "--work-tree"}, l),
				(i == "npm" || i == "yarn" || i == "pnpm" || i == "bun") && slices.Contains([]string{"--prefix", "--workspace", "--dir", "-C"}, l),
				(i == "gh" || i == "glab") && (l == "-R" || l == "--repo"):
				skip = true
			}
			continue
		}
		if strings.HasPrefix(l, `"`) || strings.HasPrefix(l, "'") {
			continue
		}
		if c = append(c, l); len(c) >= want {
			break
		}
	}
	if len(c) > 0 {
		return i + " " + strings.Join(c, " ")
	}
	return i
}

// mDequoteMask is the word with every quoted or escaped byte replaced
// by a blank (R's view: only unquoted characters count).
func mDequoteMask(e string) string {
	b := []byte(e)
	single, double := false, false
	for s := 0; s < len(b); s++ {
		o := b[s]
		switch {
		case o == '\\' && s+1 < len(b):
			b[s], b[s+1] = ' ', ' '
			s++
		case o == '\'' && !double:
			single = !single
		case o == '"' && !single:
			double = !double
		case single || double:
			b[s] = ' '
		}
	}
	return string(b)
}

// mSegments is Bd: each segment of the line with its normalised form.
func mSegments(e string) (raw, norm []string) {
	for _, s := range mSplit(mStripShell(e)) {
		raw, norm = append(raw, s), append(norm, mNormalize(s))
	}
	return raw, norm
}

var mRegexps sync.Map // key → *regexp.Regexp

// mRegexp is pe.
func mRegexp(e []string, anchored bool) *regexp.Regexp {
	key := fmt.Sprint(anchored, e)
	if re, ok := mRegexps.Load(key); ok {
		return re.(*regexp.Regexp)
	}
	re := mCompile(e, anchored)
	mRegexps.Store(key, re)
	return re
}

func mCompile(e []string, anchored bool) *regexp.Regexp {
	t := make([]string, len(e))
	for i, w := range e {
		t[i] = regexp.QuoteMeta(w)
	}
	start := "(^|[\\s;&|(`]+)"
	if anchored {
		start = "^"
	}
	l := func(c string) string {
		if strings.Contains(c, "/") {
			return "([\\s;&|)`/]+|$)"
		}
		return "([\\s;&|)`]+|$)"
	}
	a := ""
	if mre10.MatchString(e[0]) {
		a = `\b`
	}
	if len(e) == 1 {
		return regexp.MustCompile("(?i)" + start + t[0] + a + l(e[0]))
	}
	c := []string{start + t[0] + a}
	for r := 1; r < len(t)-1; r++ {
		if f := e[r+1]; f == "/" || strings.HasPrefix(f, "/") {
			c = append(c, "[^;&|.]{0,100}"+t[r])
		} else {
			c = append(c, "[^;&|]{0,100}"+t[r])
		}
	}
	u, s := t[len(t)-1], e[len(e)-1]
	switch {
	case s == "/":
		c = append(c, "[^;&|.]{0,100}"+u)
	case s == "~":
		c = append(c, "[^;&|]{0,100}"+u)
	case s == ".":
		c = append(c, "[^;&|]{0,100}"+u+"([\\s;&|)`]+|$)")
	case strings.HasPrefix(s, "/"):
		c = append(c, "[^;&|.]{0,100}"+u+l(s))
	default:
		c = append(c, "[^;&|]{0,100}"+u+l(s))
	}
	return regexp.MustCompile("(?i)" + strings.Join(c, ""))
}

// mListMatch is k: whether an entry of the list matches the line. A
// one-command entry is anchored at each invocation's argv; an entry of
// several commands is matched anywhere on the line, its first-word
// normalised form, and its invocations' raw argv.
func mListMatch(e string, list []string) bool {
	for _, l := range list {
		a := strings.Fields(l)
		if len(a) == 0 {
			continue
		}
		multi := len(mSplit(mStripShell(l))) > 1
		u := mRegexp(a, !multi)
		var texts []string
		if multi {
			texts = append(texts, e, mFirstWords(e))
			var raw [][]string
			mInvocationsRaw(e, &raw)
			for _, r := range raw {
				texts = append(texts, strings.TrimSpace(strings.Join(r, " ")))
			}
		} else {
			var inv [][]string
			mInvocations(e, 0, &inv)
			for _, r := range inv {
				texts = append(texts, strings.TrimSpace(strings.Join(r, " ")))
			}
		}
		for _, x := range texts {
			if u.MatchString(x) {
				return true
			}
		}
	}
	return false
}

// mFirstWords is n1: each segment with its program word by base name,
// joined by " ; ".
func mFirstWords(e string) string {
	var out []string
	for _, r := range mSplit(mStripShell(e)) {
		s := strings.TrimSpace(r)
		o := mWords(s)
		c := mCommandIndex(o, false)
		if len(o) == 0 || c == -1 {
			out = append(out, s)
			continue
		}
		o[c] = mBase(o[c])
		out = append(out, strings.Join(o, " "))
	}
	return strings.Join(out, " ; ")
}

// mInvocationsRaw is Nd with dequoteArguments off.
func mInvocationsRaw(e string, out *[][]string) {
	var inv [][]string
	mInvocations(e, 0, &inv)
	// the same walk, arguments as typed
	for _, seg := range mSplit(e) {
		w := mWords(strings.TrimSpace(seg))
		if o := mCommandIndex(w, true); o >= 0 && mBase(w[o]) != "" {
			*out = append(*out, append([]string{mBase(w[o])}, w[o+1:]...))
		}
	}
	*out = append(*out, inv...)
}

var (
	mre0  = regexp.MustCompile(`\d>$`)
	mre1  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	mre2  = regexp.MustCompile(`^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[smhd]?$`)
	mre3  = regexp.MustCompile(`^[0-9]*[<>&]`)
	mre4  = regexp.MustCompile(`^[0-9]+>&[0-9]+$`)
	mre5  = regexp.MustCompile(`^[<>&]+$`)
	mre6  = regexp.MustCompile(`^-[A-Za-z]*c$`)
	mre7  = regexp.MustCompile(`^\s*(?:sh|bash|zsh|cmd(?:\.exe)?)\s+(?:/c|-[A-Za-z]*c)\s+`)
	mre8  = regexp.MustCompile(`^[0-9]*&?$`)
	mre9  = regexp.MustCompile(`^\d+$`)
	mre10 = regexp.MustCompile(`\w$`)
	mre11 = regexp.MustCompile("\\$\\(|`|<\\(|>\\(")
	mre12 = regexp.MustCompile(`^\s*[A-Za-z_][A-Za-z0-9_-]*\s*\(\s*\)\s*\{`)
	mre13 = regexp.MustCompile(`^[0-9]+`)
	mre14 = regexp.MustCompile("\\$\\(|`|<\\(|>\\(|<<|\\benv\\s.*\\s(-[0iv]*S|--s)")
)

type droidLists struct{ allow, deny, block []string }

// mAllowSet is b: the allowlist's normalised entries less those of the
// deny and block lists.
func (m droidLists) allowSet() map[string]bool {
	set := map[string]bool{}
	for _, e := range m.allow {
		for _, n := range mNormalizedEntries(e) {
			set[n] = true
		}
	}
	for _, e := range append(append([]string{}, m.deny...), m.block...) {
		for _, n := range mNormalizedEntries(e) {
			delete(set, n)
		}
	}
	return set
}

func mNormalizedEntries(e string) []string {
	var out []string
	_, norm := mSegments(strings.TrimSpace(e))
	for _, n := range norm {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// mAllowed is aM.
func (m droidLists) allowed(e string) bool {
	if mre11.MatchString(e) {
		return false
	}
	raw, norm := mSegments(e)
	var o, l []string
	for i, u := range norm {
		if mre12.MatchString(raw[i]) {
			return false
		}
		if u == "" {
			continue
		}
		l = append(l, u)
		if !(slices.Contains([]string{"head", "tail", "grep", "cat", "echo"}, u) && !mRedirectsOut(raw[i])) {
			o = append(o, u)
		}
	}
	if len(o) == 0 {
		o = l
	}
	set := m.allowSet()
	for _, u := range o {
		if !set[u] {
			return false
		}
	}
	return true
}

// mRedirectsOut is a_: the segment redirects output other than to
// /dev/null or another descriptor.
func mRedirectsOut(seg string) bool {
	w := mWords(seg)
	for t := 0; t < len(w); t++ {
		i := w[t]
		mask := mDequoteMask(i)
		r := 0
		for r < len(i) {
			p := strings.IndexByte(mask[r:], '>')
			if p == -1 {
				break
			}
			end := r + p + 1
			if end < len(i) && (i[end] == '>' || i[end] == '|') {
				end++
			} else if end < len(i) && i[end] == '&' {
				if d := mre13.FindString(i[end+1:]); d != "" {
					r = end + 1 + len(d)
					continue
				}
				end++
			}
			target := i[end:]
			if target == "" && t+1 < len(w) {
				t++
				target = w[t]
			}
			return mOuter(target) != "/dev/null"
		}
	}
	return false
}

// outcome is evaluateCommand's decision on the original, then the risk
// gate.
func (m droidLists) outcome(line string, riskOK bool) permissiontest.Outcome {
	if mre14.MatchString(line) {
		return permissiontest.OutUnknown
	}
	switch {
	case mListMatch(line, m.block):
		return permissiontest.OutDeny
	case mListMatch(mStripShell(line), m.deny):
		return permissiontest.OutAsk
	case m.allowed(mStripShell(line)), riskOK:
		return permissiontest.OutRun
	}
	return permissiontest.OutAsk
}

// after: a hook's allow skips all but the blocklist.
func (m droidLists) after(rewritten string) permissiontest.Outcome {
	if mListMatch(rewritten, m.block) {
		return permissiontest.OutDeny
	}
	return permissiontest.OutRun
}

func genDroidLine(r *rand.Rand) string {
	cmds := []string{"git status", "git status -s", "git log -3", "git diff", "git show HEAD", "ls -la", "ls", "pwd", "go test ./...",
		"go vet", "npm test", "cargo build", "make", "grep -r x .", "cat x", "head -5 x", "echo hi", "find . -name x", "cd sub",
		"git -C x status", "git diff --stat", "go build", "make deploy", "GIT status", "git --no-pager log", "ls -la | head -5"}
	wraps := []string{"", "", "", "", "sudo ", "env X=1 ", "X=1 ", "time ", "nohup ", "command ", "nice -n 5 ", "timeout 5 ", "/usr/bin/"}
	redirs := []string{"", "", "", " 2>&1", " > out", " 2>/dev/null", " >/dev/null"}
	simple := func() string {
		w := strings.Fields(cmds[r.IntN(len(cmds))])
		if r.IntN(4) == 0 {
			i := r.IntN(len(w))
			switch r.IntN(3) {
			case 0:
				w[i] = "'" + w[i] + "'"
			case 1:
				w[i] = `"` + w[i] + `"`
			default:
				w[i] = w[i][:1] + `\` + w[i][1:]
			}
		}
		return wraps[r.IntN(len(wraps))] + strings.Join(w, " ") + redirs[r.IntN(len(redirs))]
	}
	joins := []string{" && ", " || ", "; ", " | ", " & ", "\n", " &\n", ";"}
	line := simple()
	for r.IntN(3) == 0 {
		line += joins[r.IntN(len(joins))] + simple()
	}
	switch r.IntN(12) {
	case 0:
		line = "bash -c '" + strings.ReplaceAll(line, "'", "") + "'"
	case 1:
		line += " &"
	case 2:
		line = "(" + line + ")"
	}
	return line
}

func genDroidLists(r *rand.Rand) (droidLists, string) {
	entries := []string{"git", "git status", "git log", "go test", "go", "gotk", "gotk git", "ls", "make", "npm test", "cat", "grep",
		"sudo", "git diff", "ls -la", "go test ./...", "timeout", "env", "git status && ls", "make deploy", "pwd", "go vet", "cargo",
		"git show", "status", "find", "echo", "GIT STATUS", "/bin/ls", "git status -s", "head", "cd", "nice"}
	pickN := func() []string {
		l := []string{} // an empty list, not JSON's null
		for n := r.IntN(4); n > 0; n-- {
			l = append(l, entries[r.IntN(len(entries))])
		}
		return l
	}
	m := droidLists{allow: DefaultAllow, deny: droidDefaultDeny}
	doc := map[string]any{}
	if r.IntN(2) == 0 {
		m.allow = pickN()
		doc["commandAllowlist"] = m.allow
	}
	if r.IntN(2) == 0 {
		l := pickN()
		m.deny = append(append([]string{}, droidDefaultDeny...), l...)
		doc["commandDenylist"] = l
	}
	if r.IntN(2) == 0 {
		m.block = pickN()
		doc["commandBlocklist"] = m.block
	}
	b, _ := json.Marshal(doc)
	return m, string(b)
}

// droidEngine is gotk's engine for Droid with settings as the user's
// ~/.factory/settings.json.
func droidEngine(t *testing.T, home, settings string) *decision.Engine {
	t.Helper()
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(home, ".factory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".factory", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	return &decision.Engine{Host: Host, Env: permission.Env{Getenv: func(string) string { return "" }, Home: home, Cwd: proj}}
}

// checkDroid: where gotk allows a rewrite, Droid would have run the
// original without asking, and runs the rewrite (its blocklist, tested
// again on it, does not refuse it).
func checkDroid(t *testing.T, m droidLists, settings string, e *decision.Engine, line string, riskOK bool) bool {
	t.Helper()
	d := e.Decide(decision.Request{Command: line, Cwd: e.Env.Cwd, AutoAllow: riskOK})
	switch d.Verdict {
	case decision.AllowRewrite:
	case decision.AskRewrite:
		t.Errorf("settings %s\n%q: gotk answers ask, which Droid takes for an allow", settings, line)
		return true
	default:
		return false
	}
	before, after := m.outcome(line, riskOK), m.after(d.Command)
	if before != permissiontest.OutUnknown && before != after {
		t.Errorf("settings %s, risk within autonomy %v\n%q: Droid would %s it; gotk allows %q, which Droid would %s",
			settings, riskOK, line, before, d.Command, after)
	}
	return true
}

// TestDroidModelProperty holds gotk's decision for Droid against the model
// over generated lists, risk gates and lines.
func TestDroidModelProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	home := t.TempDir()
	var m droidLists
	var settings string
	var e *decision.Engine
	permissiontest.Property(t, 1000, 100, func(i int) bool {
		if i%10 == 0 {
			m, settings = genDroidLists(r)
			e = droidEngine(t, filepath.Join(home, fmt.Sprint(i)), settings)
		}
		return checkDroid(t, m, settings, e, genDroidLine(r), r.IntN(2) == 0)
	})
}

// TestDroidModelTranscription pins the transcription to what the bundle
// does on a few lines, so that the property compares gotk with Droid and
// not with a model that drifted.
func TestDroidModelTranscription(t *testing.T) {
	var inv [][]string
	mInvocations(`sudo -u root env X=1 timeout 5 /usr/bin/git "status" -s; bash -c 'ls -la' && FOO=1 nice -n 5 go test 2>&1 | head`, 0, &inv)
	got := fmt.Sprint(inv)
	if want := "[[git status -s] [bash -c ls -la] [ls -la] [go test 2>&1] [head]]"; got != want {
		t.Errorf("invocations %s, want %s", got, want)
	}
	_, norm := mSegments("git -C x status && cd y; ls -la > out | grep x")
	if got, want := fmt.Sprint(norm), "[git status  ls grep]"; got != want {
		t.Errorf("normalised %s, want %s", got, want)
	}
	def := droidLists{allow: DefaultAllow}
	for line, want := range map[string]bool{"git status | head": true, "git status > out": true, "cat x > out": false, "cat x": false,
		"git log && cd x": true, "go test": false, "git status $(x)": false} {
		if got := def.allowed(line); got != want {
			t.Errorf("allowed(%q) = %v, want %v", line, got, want)
		}
	}
	if !mListMatch("timeout 5 gotk git status", []string{"gotk git"}) || mListMatch("echo gotk git", []string{"gotk git"}) {
		t.Error("a one-command entry is anchored at each invocation's program")
	}
}

// TestDroidModelRegressions are the cases the property found, kept.
func TestDroidModelRegressions(t *testing.T) {
	for i, c := range []struct {
		m        droidLists
		settings string
		line     string
		riskOK   bool
	}{
		// a denylist entry's commands leave Droid's allow set: ls then
		// meets the risk gate
		{droidLists{allow: DefaultAllow, deny: append(append([]string{}, droidDefaultDeny...), "git status && ls")},
			`{"commandDenylist":["git status && ls"]}`, "ls", false},
		{droidLists{allow: DefaultAllow, deny: droidDefaultDeny, block: []string{"ls -la"}}, `{"commandBlocklist":["ls -la"]}`, "ls", false},
		// a quoted git subcommand is skipped by Droid's normaliser: the
		// command is `git`, which its allowlist does not hold
		{droidLists{allow: DefaultAllow, deny: droidDefaultDeny}, `{}`, "git 'status' -s", false},
		{droidLists{allow: DefaultAllow, deny: droidDefaultDeny}, `{}`, "l's' -la", false},
		// Droid matches its lists with the program word by base name only
		{droidLists{allow: DefaultAllow, deny: droidDefaultDeny, block: []string{"go test ./..."}},
			`{"commandBlocklist":["go test ./..."]}`, "git status && /usr/bin/go test ./...", true},
	} {
		e := droidEngine(t, filepath.Join(t.TempDir(), fmt.Sprint(i)), c.settings)
		checkDroid(t, c.m, c.settings, e, c.line, c.riskOK)
	}
}
