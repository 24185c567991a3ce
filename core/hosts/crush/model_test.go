package crush

import (
	"bytes"
	"context"
	"io"
	mrand "math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/permission"
	"github.com/gotk-dev/gotk/core/permission/permissiontest"
	"github.com/gotk-dev/gotk/core/shell/shelltest"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// The model of Crush's bash tool below is transcribed from
// charmbracelet/crush 37f36e9: internal/agent/hooked_tool.go (a hook's
// "deny" refuses, its updated_input replaces the command, its "allow"
// pre-approves the prompt), internal/agent/tools/bash.go and safe.go (the
// read-only check on the command text: no ; | && $( or backquote, then a
// lower-cased prefix of the safe list ending in the end, a blank or a
// dash), internal/permission/permission.go (per-tool allowances, the same
// for the original and the rewrite, left out) and internal/shell/run.go
// with shell.go (every argv its mvdan.cc/sh interpreter hands to the exec
// handler goes through the block list: CommandsBlocker compares argv[0]
// exactly, ArgumentsBlocker the leading operands and the flags).

var modelBanned = []string{"alias", "aria2c", "axel", "chrome", "curl", "curlie", "firefox", "http-prompt", "httpie",
	"links", "lynx", "nc", "safari", "scp", "ssh", "telnet", "w3m", "wget", "xh", "doas", "su", "sudo", "apk", "apt",
	"apt-cache", "apt-get", "dnf", "dpkg", "emerge", "home-manager", "makepkg", "opkg", "pacman", "paru", "pkg",
	"pkg_add", "pkg_delete", "portage", "rpm", "yay", "yum", "zypper", "at", "batch", "chkconfig", "crontab", "fdisk",
	"mkfs", "mount", "parted", "service", "systemctl", "umount", "firewall-cmd", "ifconfig", "ip", "iptables",
	"netstat", "pfctl", "route", "ufw"}

// modelArgBlocks are blockFuncs' ArgumentsBlocker calls, as
// "cmd|args|flags" (space-separated lists).
var modelArgBlocks = []string{"apk|add|", "apt|install|", "apt-get|install|", "dnf|install|", "pacman||-S",
	"pkg|install|", "yum|install|", "zypper|install|", "brew|install|", "cargo|install|", "gem|install|", "go|install|",
	"npm|install|--global", "npm|install|-g", "pip|install|--user", "pip3|install|--user", "pnpm|add|--global",
	"pnpm|add|-g", "yarn|global add|", "go|test|-exec"}

var modelSafe = []string{"cal", "date", "df", "du", "echo", "env", "free", "groups", "hostname", "id", "kill",
	"killall", "ls", "nice", "nohup", "printenv", "ps", "pwd", "set", "time", "timeout", "top", "type", "uname",
	"unset", "uptime", "whatis", "whereis", "which", "whoami", "git blame", "git branch", "git config --get",
	"git config --list", "git describe", "git diff", "git grep", "git log", "git ls-files", "git ls-remote",
	"git remote", "git rev-parse", "git shortlog", "git show", "git status", "git tag"}

// modelBlocked is blockHandler over blockFuncs for one argv.
func modelBlocked(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	if slices.Contains(modelBanned, argv[0]) {
		return true
	}
	var args, flags []string
	for _, p := range argv[1:] {
		if strings.HasPrefix(p, "-") {
			p, _, _ = strings.Cut(p, "=")
			flags = append(flags, p)
		} else {
			args = append(args, p)
		}
	}
	for _, b := range modelArgBlocks {
		f := strings.Split(b, "|")
		want, wantFlags := strings.Fields(f[1]), strings.Fields(f[2])
		if argv[0] != f[0] || len(args) < len(want) || len(flags) < len(wantFlags) {
			continue
		}
		ok := slices.Equal(args[:len(want)], want)
		for _, w := range wantFlags {
			ok = ok && slices.Contains(flags, w)
		}
		if ok {
			return true
		}
	}
	return false
}

// modelSafeText is bash.go's isSafeReadOnly.
func modelSafeText(cmd string) bool {
	for _, c := range []string{";", "|", "&&", "$(", "`"} {
		if strings.Contains(cmd, c) {
			return false
		}
	}
	lower := strings.ToLower(cmd)
	for _, s := range modelSafe {
		if rest, ok := strings.CutPrefix(lower, s); ok && (rest == "" || rest[0] == ' ' || rest[0] == '-') {
			return true
		}
	}
	return false
}

type nopFile struct{ io.Reader }

func (nopFile) Write(p []byte) (int, error) { return len(p), nil }
func (nopFile) Close() error                { return nil }

// modelReachesBlock runs line in Crush's interpreter with an exec handler
// that records each argv instead of running it, every program exiting
// with status (0 or 1): whether an argv the block list refuses is reached.
// ok is false when the interpreter cannot parse or run the line.
func modelReachesBlock(t *testing.T, dir, line string, status uint8) (blocked, ok bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return false, false
	}
	// the handler runs on the interpreter's goroutines (a pipeline's
	// stages, a background job), which may outlive a timed-out run
	var reached atomic.Bool
	r, err := interp.New(
		interp.StdIO(strings.NewReader(""), io.Discard, io.Discard),
		interp.Dir(dir),
		// what the variables the generator names hold in Crush's shell
		interp.Env(expand.ListEnviron("HOME="+dir, "PATH=/nonexistent", "X=-exec", "Y=install", "Z=curl", "W=go install")),
		interp.OpenHandler(func(context.Context, string, int, os.FileMode) (io.ReadWriteCloser, error) {
			return nopFile{strings.NewReader("")}, nil
		}),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
			return func(_ context.Context, args []string) error {
				if modelBlocked(args) {
					reached.Store(true)
				}
				if status == 0 {
					return nil
				}
				return interp.ExitStatus(status)
			}
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r.Run(ctx, f)
	return reached.Load(), ctx.Err() == nil
}

// crushModel is what Crush does with cmd, given whether a hook allowed it.
func crushModel(t *testing.T, dir, cmd string, hookAllow bool) permissiontest.Outcome {
	b0, ok0 := modelReachesBlock(t, dir, cmd, 0)
	b1, ok1 := modelReachesBlock(t, dir, cmd, 1)
	switch {
	case !ok0 || !ok1:
		return permissiontest.OutUnknown
	case b0 || b1:
		return permissiontest.OutDeny
	case hookAllow || modelSafeText(cmd):
		return permissiontest.OutRun
	}
	return permissiontest.OutAsk
}

// checkCrush: where gotk answers with a rewrite, Crush does with the
// answer what it does with the original without gotk.
func checkCrush(t *testing.T, e *decision.Engine, dir, line string) (rewritten bool) {
	t.Helper()
	d := e.Decide(decision.Request{Command: line, Cwd: dir})
	if d.Verdict != decision.AllowRewrite && d.Verdict != decision.AskRewrite {
		return false
	}
	before := crushModel(t, dir, line, false)
	after := crushModel(t, dir, d.Command, d.Verdict == decision.AllowRewrite)
	if before != permissiontest.OutUnknown && after != permissiontest.OutUnknown && before != after {
		t.Errorf("%q: Crush would %s it; gotk answers %s %q, which Crush would %s", line, before, d.Verdict, d.Command, after)
	}
	return true
}

// printWord spells s one of the ways bash reads as s.
func printWord(r *mrand.Rand, s string) string {
	var b bytes.Buffer
	syntax.NewPrinter().Print(&b, &syntax.Word{Parts: shelltest.Quoted(r, s)})
	return b.String()
}

// genCrushLine: commands Crush lists as safe, blocks, or neither, behind
// wrappers and assignments, their words requoted, joined by every
// separator bash has (and a few inside a substitution or a group).
func genCrushLine(r *mrand.Rand) string {
	cmds := []string{"git status", "git status -s", "git log --oneline", "git diff", "git show HEAD", "ls -la", "ls", "pwd",
		"go test ./...", "go install x", "go test -exec foo ./...", "go test -exec=foo", "go test ./... -exec foo",
		"npm install -g x", "npm install", "npm test", "curl http://x", "sudo ls", "pip install --user x", "cargo install x",
		"cargo test", "echo hi", "cat x", "grep -r x .", "make", "rm -rf x", "yarn global add x", "wget x", "find . -name x",
		"go test $X foo", "go $Y x", "go test ${X}=foo", "$Z x", "git status $Z", "$W x", "git log $W"}
	wraps := []string{"", "", "", "timeout 5 ", "env X=1 ", "X=1 ", "nice ", "command ", "time ", "nohup ", "exec "}
	redirs := []string{"", "", "", " 2>&1", " > out", " < x"}
	simple := func() string {
		w := strings.Fields(cmds[r.IntN(len(cmds))])
		if r.IntN(3) == 0 {
			for i := range w {
				if !strings.Contains(w[i], "$") {
					w[i] = printWord(r, w[i])
				}
			}
		}
		return wraps[r.IntN(len(wraps))] + strings.Join(w, " ") + redirs[r.IntN(len(redirs))]
	}
	forms := []string{"%s", "%s", "%s", "(%s)", "{ %s; }", "! %s", "echo $(%s)", "echo `%s`", "%s &"}
	joins := []string{" && ", " || ", "; ", " | ", " & ", "\n", " |& ", " &\n"}
	line := strings.Replace(forms[r.IntN(len(forms))], "%s", simple(), 1)
	for n := r.IntN(3); n > 0 && r.IntN(2) == 0; n-- {
		line += joins[r.IntN(len(joins))] + simple()
	}
	return line
}

func crushEngine(dir string) *decision.Engine {
	return &decision.Engine{Host: Host, Env: permission.Env{Getenv: func(string) string { return "" }, Home: dir, Cwd: dir}}
}

// TestCrushModelProperty holds gotk's decision for Crush against the model
// over generated lines: never widen (an allow where Crush asks, a rewrite
// that hides a blocked program), never narrow (an ask where Crush runs).
func TestCrushModelProperty(t *testing.T) {
	dir := t.TempDir()
	e := crushEngine(dir)
	r := mrand.New(mrand.NewPCG(7, 11))
	vocab := shelltest.Vocab{
		Programs: []string{"git", "ls", "go", "npm", "curl", "sudo", "cargo", "pip", "timeout", "env", "command", "echo", "pwd", "cat", "gotk"},
		Words:    []string{"status", "log", "install", "test", "-exec", "-exec=x", "-g", "--global", "--user", "./...", "x", "5", "-la", "add", "global"},
	}
	permissiontest.Property(t, 1500, 100, func(i int) bool {
		line := genCrushLine(r)
		if i%3 == 0 {
			line = shelltest.GenFrom(r, 2, vocab)
		}
		return checkCrush(t, e, dir, line)
	})
}

// TestCrushModelRegressions are the lines the property found, kept.
func TestCrushModelRegressions(t *testing.T) {
	dir := t.TempDir()
	e := crushEngine(dir)
	for _, line := range []string{
		// Crush's shell blocks `go test -exec` after expanding $X: gotk,
		// not knowing X, must not hide go behind gotk
		"go test ${X}=foo", "{ command go test ${X}=foo; }", "go $Y x", "npm install $G x",
	} {
		checkCrush(t, e, dir, line)
	}
}
