package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Helpers for scenarios 3–8 (docs/agents.md): outcomes of a tool call, argument
// edits, gotk's binaries in a directory of the test's choosing, snapshots of
// a HOME, the audit log.

// Outcome is what became of one shell call, in classes that are the same
// across agents: it ran, it was refused because it needed approval that
// nobody could give (-p / exec mode), or a rule denied it.
type Outcome string

const (
	Ran     Outcome = "ran"
	Refused Outcome = "refused (needs approval)"
	Denied  Outcome = "denied"
	Blocked Outcome = "blocked by a hook"
	Unknown Outcome = "unknown"
)

// outcomePatterns are the tool-result texts each agent words a refusal,
// a denial or a hook's block with (measured; see docs/agents.md). The first
// match wins; no match means the command ran.
var outcomePatterns = map[string][]struct {
	re *regexp.Regexp
	o  Outcome
}{
	"claude": {
		{regexp.MustCompile(`(?i)PreToolUse:Bash hook error|blocked by (a )?hook`), Blocked},
		// In -p, a hook's "ask" is refused and its reason becomes the whole
		// tool result (gotk-hook-claude's reason: "gotk: … (rule ID)").
		{regexp.MustCompile(`^gotk: [^\n]*\(rule [^)]*\)$`), Refused},
		{regexp.MustCompile(`(?i)Permission to use Bash with command .* has been denied|denied by your permission settings|has been denied`), Denied},
		{regexp.MustCompile(`(?i)requires? approval|haven't granted it yet|needs approval|permission to use Bash|cannot be auto-allowed|was blocked\. For security|shell operators that require approval|can't be checked`), Refused},
	},
	"gemini": {
		{regexp.MustCompile(`(?i)blocked by (a )?hook|hook.*(denied|blocked)`), Blocked},
		{regexp.MustCompile(`(?i)Tool execution denied by policy`), Denied},
		{regexp.MustCompile(`(?i)requires (user )?confirmation`), Refused},
	},
	"codex": {
		{regexp.MustCompile(`(?i)blocked by (a |the )?(PreToolUse )?hook|hook.*block`), Blocked},
		{regexp.MustCompile(`(?i)forbidden|rejected by (the )?execpolicy|policy forbids`), Denied},
		{regexp.MustCompile(`(?i)rejected by user|approval|declined|not approved`), Refused},
	},
	"copilot": {
		{regexp.MustCompile(`(?i)Denied by preToolUse hook|hook errored`), Blocked},
		{regexp.MustCompile(`(?i)no interactive user response was available`), Refused},
		{regexp.MustCompile(`(?i)denied due to the following rules`), Denied},
	},
}

// Classify sorts an agent's tool result into an Outcome.
func Classify(agent, toolResult string) Outcome {
	if toolResult == "" {
		return Unknown
	}
	for _, p := range outcomePatterns[agent] {
		if p.re.MatchString(toolResult) {
			return p.o
		}
	}
	return Ran
}

// ReplaceArgs replaces the first run of old in e.Args with repl (old must
// be there).
func (e *Env) ReplaceArgs(old []string, repl ...string) {
	e.T.Helper()
	for i := 0; i+len(old) <= len(e.Args); i++ {
		if slices.Equal(e.Args[i:i+len(old)], old) {
			e.Args = slices.Concat(e.Args[:i], repl, e.Args[i+len(old):])
			return
		}
	}
	e.T.Fatalf("%s: %q not in the agent's arguments %q", e.Agent.Name, old, e.Args)
}

// GotkBinaries are the files of gotk a user installs.
func GotkBinaries(a *Agent) []string {
	bins := []string{"gotk", "gotk-install"}
	if a.addHook != nil {
		bins = append(bins, "gotk-hook-"+a.Name)
	}
	return bins
}

// CopyGotk copies gotk's binaries for a from src into dir (created),
// leaving out the names in omit, and returns dir.
func (e *Env) CopyGotk(src, dir string, omit ...string) string {
	e.T.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		e.T.Fatal(err)
	}
	for _, n := range GotkBinaries(e.Agent) {
		if slices.Contains(omit, n) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			e.T.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o755); err != nil {
			e.T.Fatal(err)
		}
	}
	return dir
}

// PathWithoutGotk is the inherited PATH minus every directory holding a
// gotk, so that a test controls the only gotk the agent can find.
func PathWithoutGotk() string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d == "" || isExecutable(filepath.Join(d, "gotk")) {
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// Shell runs a bash command line with the run's environment (as the agent
// would start it) in the project, and returns its combined output.
func (e *Env) Shell(script string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = e.Project
	cmd.Env = e.environ()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// UninstallGotk runs `gotk-install --agent NAME --uninstall --yes` as the
// user would.
func (e *Env) UninstallGotk(bin string) string {
	e.T.Helper()
	return e.runInstaller(filepath.Join(bin, "gotk-install"), []string{"--agent", e.Agent.Name, "--uninstall", "--yes"})
}

// Snapshot maps every file under root (relative path) to the hash of its
// content and its mode, and every directory to "dir".
func Snapshot(root string) map[string]string {
	snap := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case d.IsDir():
			snap[rel] = "dir"
		case d.Type()&fs.ModeSymlink != 0:
			t, _ := os.Readlink(p)
			snap[rel] = "link " + t
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				snap[rel] = "unreadable"
				return nil
			}
			fi, _ := d.Info()
			sum := sha256.Sum256(b)
			snap[rel] = hex.EncodeToString(sum[:8]) + " " + fi.Mode().Perm().String()
		}
		return nil
	})
	return snap
}

// SnapshotDiff lists what differs between two snapshots, one line each.
func SnapshotDiff(before, after map[string]string) []string {
	var diff []string
	for k, v := range before {
		switch w, ok := after[k]; {
		case !ok:
			diff = append(diff, "removed "+k)
		case w != v:
			diff = append(diff, "changed "+k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			diff = append(diff, "added "+k)
		}
	}
	slices.Sort(diff)
	return diff
}

// AuditLog returns the lines of $XDG_DATA_HOME/gotk/hook-audit.log of the
// run, each split into its fields (time, agent, action, original,
// rewritten), unescaped.
func (e *Env) AuditLog() [][]string {
	b, err := os.ReadFile(filepath.Join(e.Home, ".local", "share", "gotk", "hook-audit.log"))
	if err != nil {
		return nil
	}
	var lines [][]string
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if l != "" {
			lines = append(lines, splitAudit(l))
		}
	}
	return lines
}

// splitAudit splits one audit line at unescaped " | " and undoes the
// escapes (\\ \| \n \r) of hookio.AuditLine.
func splitAudit(line string) []string {
	var fields []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line):
			i++
			switch line[i] {
			case 'n':
				cur.WriteByte('\n')
			case 'r':
				cur.WriteByte('\r')
			default:
				cur.WriteByte(line[i])
			}
		case c == ' ' && strings.HasPrefix(line[i:], " | "):
			fields = append(fields, cur.String())
			cur.Reset()
			i += 2
		default:
			cur.WriteByte(c)
		}
	}
	return append(fields, cur.String())
}
