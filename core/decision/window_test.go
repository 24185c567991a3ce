package decision

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/gotk-dev/gotk/core/config"
	"github.com/gotk-dev/gotk/core/shell"
)

// stripInserted deletes what a rewrite inserts — the prefix, and the
// window it may carry — and nothing else.
func stripInserted(cmd, prefix string) string {
	return regexp.MustCompile(regexp.QuoteMeta(prefix)+` (?:--(?:head|tail) [1-9][0-9]* )?`).ReplaceAllString(cmd, "")
}

// TestWindows: pipelines as agents write them. A producer whose output
// can be fitted to a window is rewritten with the window it feeds; every
// other shape keeps the line as written.
func TestWindows(t *testing.T) {
	e := newEngine(t, "", config.Config{})
	run(t, e, Request{}, []tc{
		{"go test ./... 2>&1 | tail -30", AskRewrite, "gotk --tail 30 go test ./... 2>&1 | tail -30"},
		{"npm test 2>&1 | tail -40", AskRewrite, "gotk --tail 40 npm test 2>&1 | tail -40"},
		{"npx tsc --noEmit 2>&1 | head -50", AskRewrite, "gotk --head 50 npx tsc --noEmit 2>&1 | head -50"},
		{"cd pkg && make 2>&1 | tail -20", AskRewrite, "cd pkg && gotk --tail 20 make 2>&1 | tail -20"},
		{"timeout 300 go test ./... 2>&1 | tail -15", AskRewrite, "timeout 300 gotk --tail 15 go test ./... 2>&1 | tail -15"},
		{"kubectl get pods -A | head -30", AskRewrite, "gotk --head 30 kubectl get pods -A | head -30"},
		{"CGO_ENABLED=0 go build ./... 2>&1 | tail -n 5", AskRewrite, "CGO_ENABLED=0 gotk --tail 5 go build ./... 2>&1 | tail -n 5"},
		{"env GOFLAGS=-mod=mod go vet ./... 2>&1 | tail -n5", AskRewrite, "env GOFLAGS=-mod=mod gotk --tail 5 go vet ./... 2>&1 | tail -n5"},
		{"cargo test 2>&1 | tail --lines=25", AskRewrite, "gotk --tail 25 cargo test 2>&1 | tail --lines=25"},
		{"pytest -q | tail", AskRewrite, "gotk --tail 10 pytest -q | tail"},
		{"go test ./... | cat", AskRewrite, "gotk go test ./... | cat"},
		{"go test ./... 2>&1 | less", AskRewrite, "gotk go test ./... 2>&1 | less"},
		{"git log --oneline | head -20 | cat", AskRewrite, "gotk --head 20 git log --oneline | head -20 | cat"},
		{"go build ./... && go test ./... 2>&1 | tail -30", AskRewrite, "gotk go build ./... && gotk --tail 30 go test ./... 2>&1 | tail -30"},
		{"go vet ./...; go test ./... 2>&1 | tail -30", AskRewrite, "gotk go vet ./...; gotk --tail 30 go test ./... 2>&1 | tail -30"},
		{"git status | head -20", AskRewrite, "gotk --head 20 git status | head -20"},
		// not a window gotk can fit: stays as written
		{"go test ./... | tail -n +3", Passthrough, ""},
		{"go test ./... | head -c 100", Passthrough, ""},
		{"go test ./... | head -n -3", Passthrough, ""},
		{"go test ./... | tail -f", Passthrough, ""},
		{"go test ./... | tail -30 out.log", Passthrough, ""},
		{"go test ./... | head -20 | tail -5", Passthrough, ""},
		{"go test ./... | tail -$N", Passthrough, ""},
		{"go test ./... | LC_ALL=C tail -5", Passthrough, ""},
		{"go test ./... | less +5", Passthrough, ""},
		{"go test ./... | less -p FAIL", Passthrough, ""},
		{"go test ./... | less notes.txt", Passthrough, ""},
		{"go test ./... | more +/FAIL", Passthrough, ""},
		{"go test ./... | less --pattern=FAIL", Passthrough, ""},
		{"go test ./... | less -RS", AskRewrite, "gotk go test ./... | less -RS"},
		{"go test ./... | less --chop-long-lines", AskRewrite, "gotk go test ./... | less --chop-long-lines"},
		{"go test ./... | more -d", AskRewrite, "gotk go test ./... | more -d"},
		// |& is 2>&1 |
		{"go test ./... |& tail -5", AskRewrite, "gotk --tail 5 go test ./... |& tail -5"},
		{"go test ./... |& grep FAIL", AskRewrite, "go test ./... |& gotk grep FAIL"},
		{"go test ./... | tail -5 |& cat", AskRewrite, "gotk --tail 5 go test ./... | tail -5 |& cat"},
		{"go test ./... 2>&1 | tail -30 > out.txt", Passthrough, ""},
		// head stops the raw command early: the runner stops the rules it
		// does not run to their end as head does
		{"docker logs app | head -20", AskRewrite, "gotk --head 20 docker logs app | head -20"},
		{"cat f | head -20", AskRewrite, "gotk --head 20 cat f | head -20"},
		// tail, cat, less read the raw command to its end, as gotk does
		{"docker logs app 2>&1 | tail -20", AskRewrite, "gotk --tail 20 docker logs app 2>&1 | tail -20"},
		{"ps aux | tail -30", AskRewrite, "gotk --tail 30 ps aux | tail -30"},
		{"terraform plan | cat", AskRewrite, "gotk terraform plan | cat"},
	})
}

// parseConsumers are stages that read the text they are given.
var parseConsumers = []string{
	"grep FAIL", "grep -v '^ok'", "grep -c x", "rg x", "wc -l", "sort", "sort -u", "uniq -c", "awk '{print $1}'",
	"sed -n 1,5p", "sed 's/a/b/'", "cut -d: -f1", "jq .", "xargs rm", "xargs -n1 echo", "while read l; do echo $l; done",
	"tee out.log", "tee -a log", "head -c 100", "tail -n +2", "python3 -c 'import sys'", "tr a b", "LC_ALL=C sort",
}

// displays are stages that only show lines.
var displays = []string{"head", "head -5", "head -n 20", "tail", "tail -30", "tail -n 15", "cat", "less", "less -R", "more -d"}

// producers are agent-shaped commands, with and without a rule.
var producers = []string{
	"go test ./...", "npm test", "npx tsc --noEmit", "make", "cargo test", "pytest -q", "git log --oneline", "git status",
	"git diff", "ls -la", "find . -name '*.go'", "kubectl get pods -A", "docker ps", "eslint .", "ruff check .",
	"grep -rn TODO .", "rg -n x", "cat go.mod", "echo hi", "docker logs app", "tree", "pip list",
}

var fronts = []string{"", "cd pkg && ", "timeout 300 ", "env FOO=1 ", "FOO=1 ", "git status; ", "command "}

// genPipeline builds a pipeline the way agents write them, where some
// later stage reads the text.
func genPipeline(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString(fronts[r.IntN(len(fronts))])
	b.WriteString(producers[r.IntN(len(producers))])
	if r.IntN(2) == 0 {
		b.WriteString(" 2>&1")
	}
	n := 1 + r.IntN(3)
	parser := r.IntN(n)
	for i := 0; i < n; i++ {
		b.WriteString(" | ")
		if i == parser {
			b.WriteString(parseConsumers[r.IntN(len(parseConsumers))])
		} else if r.IntN(2) == 0 {
			b.WriteString(displays[r.IntN(len(displays))])
		} else {
			b.WriteString(parseConsumers[r.IntN(len(parseConsumers))])
		}
	}
	if r.IntN(4) == 0 {
		b.WriteString(" && echo done")
	}
	return b.String()
}

// rtkPipeVectors are the pipelines RTK's history is about (its pipe
// vectors and the issues that made it stop rewriting pipes).
var rtkPipeVectors = []string{
	`cargo test 2>&1 | grep "test result"`,
	"ls -la | grep -v keep | xargs rm",
	"git log | grep feat | wc -l",
	"find src -type f | wc -l",
	"find . -name '*.rs' | xargs grep 'fn run'",
	"git log --oneline | wc -l",
	"ls | sort",
	"git status --porcelain | while read s f; do echo $f; done",
	"go test ./... 2>&1 | tee test.log",
	"npm test 2>&1 | grep -E 'FAIL|✗' | head -20",
	"kubectl get pods -o wide | grep api",
	"git diff --name-only | xargs gofmt -l",
	"ps aux | grep node",
}

// TestParseConsumersSeeRaw: a stage that reads the text (grep, wc, sort,
// uniq, awk, sed, cut, jq, xargs, while read, tee, a redirect) always
// gets the raw bytes: no stage before it is ever rewritten, whatever the
// producer, on every host — over generated pipelines and RTK's vectors.
func TestParseConsumersSeeRaw(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 1))
	lines := append([]string(nil), rtkPipeVectors...)
	n := 800
	if testing.Short() {
		n = 150
	}
	for i := 0; i < n; i++ {
		lines = append(lines, genPipeline(r))
	}
	for _, p := range producers {
		lines = append(lines, p+" > out.txt", p+" 2>&1 >> out.log | tail -3", p+" | tail -5 > out.txt")
	}
	const mark = "\x01GOTK\x01"
	engines := hostEngines(t)
	engines["claude-bypass"] = engines["claude"]
	for host, e := range engines {
		saved := e.Prefix
		e.Prefix = mark
		for _, line := range lines {
			req := Request{Command: line, Explain: true, AutoAllow: host == "claude-bypass", ReadOnlyAutoAllow: strings.HasPrefix(host, "claude")}
			d := e.Decide(req)
			if stripInserted(d.Command, mark) != line {
				t.Fatalf("%s: %q: insertion property broken: %q", host, line, d.Command)
			}
			s, err := shell.Parse(line)
			if err != nil {
				continue
			}
			if len(d.Segments) != len(s.Commands) {
				if d.Command != line {
					t.Fatalf("%s: %q rewritten without a trace", host, line)
				}
				continue
			}
			for _, pl := range s.Pipelines {
				for k := 1; k < len(pl.Stages); k++ {
					if readStage(s, pl.Stages[k]).kind != readsText {
						continue
					}
					for j := 0; j < k; j++ {
						if idx := pl.Stages[j]; idx >= 0 && d.Segments[idx].Rewritten {
							t.Errorf("%s: %q: stage %d is rewritten, but stage %d reads its text: %q", host, line, j+1, k+1, d.Command)
						}
					}
				}
			}
			if strings.Contains(line, "> out") && d.Command != line {
				t.Errorf("%s: %q writes a file but was rewritten: %q", host, line, d.Command)
			}
		}
		e.Prefix = saved
	}
}

// TestWindowInsertion: the window a producer is told is the one its
// consumer shows, in every spelling head and tail accept.
func TestWindowInsertion(t *testing.T) {
	e := newEngine(t, "", config.Config{})
	for _, c := range []struct {
		consumer, want string
	}{
		{"head", "--head 10"}, {"head -7", "--head 7"}, {"head -n 7", "--head 7"}, {"head -n7", "--head 7"}, {"head --lines=7", "--head 7"}, {"head --lines 7", "--head 7"},
		{"tail", "--tail 10"}, {"tail -7", "--tail 7"}, {"tail -n 7", "--tail 7"}, {"tail -n7", "--tail 7"}, {"tail --lines=7", "--tail 7"},
		{"cat", ""}, {"cat -", ""}, {"less", ""}, {"more", ""},
	} {
		line := "go test ./... 2>&1 | " + c.consumer
		d := e.Decide(Request{Command: line})
		want := "gotk " + c.want + " go test ./... 2>&1 | " + c.consumer
		if c.want == "" {
			want = "gotk go test ./... 2>&1 | " + c.consumer
		}
		if d.Command != want {
			t.Errorf("%q: got %q, want %q", line, d.Command, want)
		}
	}
}

// TestPipeNotes: explain says for every stage what it does, in words.
func TestPipeNotes(t *testing.T) {
	e := newEngine(t, "", config.Config{})
	for line, want := range map[string][]string{
		"go test ./... 2>&1 | tail -30": {"stage 1 of 2: the agent sees the last 30 lines of its output; through gotk it prints at most 30 lines", "stage 2 of 2: shows the last 30 lines of the output before it"},
		"go test ./... | wc -l":         {"stage 1 of 2: produces the output", "stage 2 of 2: reads the text of the output before it, so every stage before it stays as written"},
		"git log | cat":                 {"stage 1 of 2: the stages after it only show its lines", "stage 2 of 2: shows every line"},
	} {
		d := e.Decide(Request{Command: line, Explain: true})
		if len(d.Segments) != len(want) {
			t.Fatalf("%q: %d segments", line, len(d.Segments))
		}
		for i, w := range want {
			if !strings.Contains(d.Segments[i].Pipe, w) {
				t.Errorf("%q stage %d: %q, want %q", line, i+1, d.Segments[i].Pipe, w)
			}
		}
	}
	d := e.Decide(Request{Command: "go test ./... | wc -l", Explain: true})
	if !strings.Contains(d.Segments[0].Reason, "`wc -l`, which reads the text itself") {
		t.Errorf("reason: %q", d.Segments[0].Reason)
	}
	d = e.Decide(Request{Command: "docker logs app | head -3", Explain: true})
	if want := "gotk stops the command where head would"; !strings.Contains(d.Segments[0].Pipe, want) {
		t.Errorf("pipe: %q", d.Segments[0].Pipe)
	}
	d = e.Decide(Request{Command: "go test ./... | head -3", Explain: true})
	if want := "failures and errors first"; !strings.Contains(d.Segments[0].Pipe, want) {
		t.Errorf("pipe: %q", d.Segments[0].Pipe)
	}
}
