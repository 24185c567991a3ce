package discover

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/gotk-dev/gotk/runner/store"
)

func TestEachLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want []string
		over int
	}{
		{"a\nbb\n", 10, []string{"a", "bb"}, 0},
		{"a\nbb", 10, []string{"a", "bb"}, 0},       // a last line being written
		{"a\n\nb\n", 10, []string{"a", "", "b"}, 0}, // blank lines are passed (the caller skips them)
		{"short\n" + strings.Repeat("x", 11) + "\nok\n", 10, []string{"short", "ok"}, 1},
		{strings.Repeat("x", 10) + "\n", 10, []string{strings.Repeat("x", 10)}, 0},
		{strings.Repeat("y", 200<<10) + "\nz\n", 300 << 10, []string{strings.Repeat("y", 200<<10), "z"}, 0}, // past the reader's buffer
		{strings.Repeat("y", 200<<10) + "\nz\n", 100 << 10, []string{"z"}, 1},
	} {
		var got []string
		over, err := eachLine(strings.NewReader(c.in), c.max, func(l []byte) { got = append(got, string(l)) })
		if err != nil || over != c.over || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("eachLine(%.20q…, %d) = %.60q, %d oversized, %v; want %.60q, %d", c.in, c.max, got, over, err, c.want, c.over)
		}
	}
}

// claudeRecords are a Bash call and its result as Claude Code 2.1.328
// writes them (testdata/claude), for synthetic transcripts.
func claudeRecords(id, command, output, ts string) string {
	use := fmt.Sprintf(`{"parentUuid":"p","isSidechain":false,"message":{"content":[{"id":%q,"input":{"command":%q,"description":"d"},"name":"Bash","type":"tool_use"}],"role":"assistant","type":"message"},"type":"assistant","uuid":"u1","timestamp":%q,"cwd":"/e2e/project","sessionId":"s1","version":"2.1.328"}`, id, command, ts)
	res := fmt.Sprintf(`{"parentUuid":"u1","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":%q,"type":"tool_result","content":%q,"is_error":false}]},"uuid":"u2","timestamp":%q,"toolUseResult":{"stdout":%q,"stderr":""},"permissionMode":"default","cwd":"/e2e/project","sessionId":"s1","version":"2.1.328"}`, id, output, ts, output)
	return use + "\n" + res + "\n"
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSkipsAndCounts: unknown record types, malformed lines, a line longer
// than MaxLine and a record cut off at the end (the agent is writing the
// file) are skipped and counted; the calls around them are read.
func TestSkipsAndCounts(t *testing.T) {
	home := t.TempDir()
	body := claudeRecords("t1", "git status", "On branch main\n", "2026-12-01T03:00:00Z") +
		`{"type":"a-record-type-from-the-future","x":1}` + "\n" +
		`{"type":"user","message":` + "\n" +
		`{"type":"assistant","message":{"content":"` + strings.Repeat("x", MaxLine) + `"}}` + "\n" +
		claudeRecords("t2", "ls", "a\nb\n", "2026-12-01T03:00:01Z") +
		`{"parentUuid":"u2","type":"user","message":{"role":"user","content":[{"tool_use_id":"t9","type":"tool_re`
	writeFile(t, filepath.Join(home, ".claude", "projects", "-e2e-project", "s1.jsonl"), body)
	rep := Scan(Options{Env: Env{Home: home}, Workers: 1})
	want := Stats{Files: 1, Records: 8, Skipped: 4, Malformed: 2, Unknown: 1, Oversized: 1}
	if got := rep.Scanned; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("scanned %+v, want %+v", got, want)
	}
	if rep.MissedTotal.Count != 2 {
		t.Errorf("missed %d calls, want 2 (git status, ls): %+v", rep.MissedTotal.Count, rep.Missed)
	}
}

// TestSinceAndProject: --since drops older calls and files, --project
// keeps the calls run in that directory or below it.
func TestSinceAndProject(t *testing.T) {
	home := t.TempDir()
	old := claudeRecords("t1", "git status", "On branch main\n", "2026-01-01T00:00:00Z")
	recent := claudeRecords("t2", "git log", "commit 1\n", "2026-12-01T00:00:00Z")
	other := strings.ReplaceAll(claudeRecords("t3", "git diff", "diff\n", "2026-12-01T00:00:00Z"), "/e2e/project", "/e2e/elsewhere")
	writeFile(t, filepath.Join(home, ".claude", "projects", "p", "s.jsonl"), old+recent+other)
	scan := func(since time.Time, project string) []string {
		rep := Scan(Options{Env: Env{Home: home}, Since: since, Project: project, Workers: 1})
		var got []string
		for _, r := range rep.Missed {
			got = append(got, r.Command)
		}
		return got
	}
	for _, c := range []struct {
		since   time.Time
		project string
		want    string
	}{
		{time.Time{}, "", "[git diff git log git status]"},
		{time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), "", "[git diff git log]"},
		{time.Time{}, "/e2e/project", "[git log git status]"},
		{time.Time{}, "/e2e", "[git diff git log git status]"},
		{time.Time{}, "/e2e/proj", "[]"},
	} {
		got := scan(c.since, c.project)
		if s := fmt.Sprint(sortStrings(got)); s != c.want {
			t.Errorf("since %v, project %q: missed %s, want %s", c.since, c.project, s, c.want)
		}
	}
}

func sortStrings(s []string) []string {
	out := append([]string{}, s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestCommandKey(t *testing.T) {
	for in, want := range map[string]string{
		"git status -s":                          "git status",
		"git -C /tmp/x log --oneline":            "git log",
		"/usr/bin/git diff HEAD~1":               "git diff",
		"go test ./...":                          "go test",
		"go mod tidy":                            "go mod tidy",
		"npm run build -- --watch":               "npm run build",
		"npm test":                               "npm test",
		"pnpm --filter web run lint":             "pnpm run lint",
		"docker compose up -d":                   "docker compose up",
		"docker ps -a":                           "docker ps",
		"kubectl -n prod get pods":               "kubectl get",
		"aws s3 ls s3://bucket":                  "aws s3 ls",
		"aws --profile p ec2 describe-instances": "aws ec2 describe-instances",
		"gh pr list --state open":                "gh pr list",
		"python3 -m pytest -x":                   "python -m pytest",
		"python script.py":                       "python",
		"npx eslint .":                           "npx eslint",
		"make -j4 test":                          "make test",
		"make CC=clang build":                    "make build",
		"cargo +nightly build --release":         "cargo build",
		"cat /etc/passwd":                        "cat",
		"ls -la":                                 "ls",
		"./scripts/deploy.sh prod":               "deploy.sh",
		"terraform plan -out=p":                  "terraform plan",
		"git $(echo status)":                     "git",
		"uv pip install requests":                "uv pip install",
	} {
		segs := segments(in, nil)
		if len(segs) == 0 || !segs[0].ok {
			t.Errorf("%q: segments %+v", in, segs)
			continue
		}
		if got := commandKey(segs[0].argv); got != want {
			t.Errorf("commandKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// The agents' framing around a command's output, as the fixtures hold it.
func TestUnwrap(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(string) (string, int)
		in   string
		out  string
		exit int
	}{
		{"codex", codexOutput, "Chunk ID: 7bab89\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 92\nOutput:\nOn branch main\n", "On branch main\n", 0},
		{"codex old", codexOutput, "Exit code: 2\nWall time: 0.1 seconds\nOutput:\nboom\n", "boom\n", 2},
		{"codex plain", codexOutput, "Output:\nnot framed\n", "Output:\nnot framed\n", -1},
		{"gemini", geminiOutput, "<untrusted_context>\nOutput: On branch main\nError: in the output\nProcess Group PGID: 25563\n</untrusted_context>", "On branch main\nError: in the output", -1},
		{"gemini old", geminiOutput, "Command: ls\nDirectory: (root)\nOutput: a\nb\nError: (none)\nExit Code: (none)\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 7", "a\nb", -1},
		{"gemini exit", geminiOutput, "<untrusted_context>\nOutput: error: cannot run\nExit Code: 128\nProcess Group PGID: 4607\n</untrusted_context>", "error: cannot run", 128},
		{"gemini hook note", geminiOutput, "<untrusted_context>\nOutput: ## main\nProcess Group PGID: 29342\n</untrusted_context>\n\n[System] Tool input parameters were modified by a hook before execution.", "## main", -1},
		{"gemini empty", geminiOutput, "<untrusted_context>\nOutput: (empty)\nProcess Group PGID: 1\n</untrusted_context>", "", -1},
		{"copilot", copilotOutput, "hi\na\nb\n<shellId: 2 completed with exit code 0>", "hi\na\nb\n", 0},
		{"copilot fail", copilotOutput, "no such file\n<shellId: 0 completed with exit code 2>", "no such file\n", 2},
	} {
		out, exit := c.f(c.in)
		if out != c.out || exit != c.exit {
			t.Errorf("%s: (%q, %d), want (%q, %d)", c.name, out, exit, c.out, c.exit)
		}
	}
}

// TestRunLog: a run in gotk's log vouches for one call: of its command, in
// its project, in the call's time; the first call that claims it.
func TestRunLog(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	x := newRunIndex([]store.Run{{At: ms(50), Project: "/p", Command: "git status"}})
	if x.claim("git status", "/elsewhere", ms(0), ms(100)) != nil {
		t.Error("a run in another project vouched for the call")
	}
	if x.claim("git log", "/p", ms(0), ms(100)) != nil {
		t.Error("a run of another command vouched for the call")
	}
	if x.claim("git status", "/p", ms(3000), ms(3100)) != nil {
		t.Error("a run seconds before the call vouched for it")
	}
	if x.claim("git status", "/p/sub", ms(0), ms(100)) == nil {
		t.Error("the run did not vouch for its call (run in the git top level, call in a subdirectory)")
	}
	if x.claim("git status", "/p", ms(120), ms(200)) != nil {
		t.Error("one run vouched for two calls")
	}
}

// TestSkeleton: the suggested filter is valid TOML in RTK's schema, its
// match_command matches the command and not its neighbours, and it holds
// output text only with --show-output.
func TestSkeleton(t *testing.T) {
	out := "Initializing the backend...\nDownloading 1/9\nDownloading 2/9\nDownloading 3/9\nTerraform has been successfully initialized!\n"
	u := Unhandled{Command: "terraform init", Count: 3, OutputTokens: 4200, Lines: 600, SampleOutput: out}
	for _, show := range []bool{false, true} {
		src := "schema_version = 1\n" + skeleton(u, show)
		var f struct {
			SchemaVersion int `toml:"schema_version"`
			Filters       map[string]struct {
				Description        string   `toml:"description"`
				MatchCommand       string   `toml:"match_command"`
				StripANSI          bool     `toml:"strip_ansi"`
				StripLinesMatching []string `toml:"strip_lines_matching"`
				MaxLines           int      `toml:"max_lines"`
			} `toml:"filters"`
			Tests map[string][]struct{ Name, Input, Expected string } `toml:"tests"`
		}
		md, err := toml.Decode(src, &f)
		if err != nil {
			t.Fatalf("show %v: %v\n%s", show, err, src)
		}
		if und := md.Undecoded(); len(und) > 0 {
			t.Errorf("show %v: keys outside RTK's schema: %v", show, und)
		}
		flt, ok := f.Filters["terraform-init"]
		if !ok || f.SchemaVersion != 1 || len(f.Tests["terraform-init"]) != 1 || flt.MaxLines != 66 {
			t.Fatalf("show %v: %+v", show, f)
		}
		re := regexp.MustCompile(flt.MatchCommand)
		if !re.MatchString("terraform init -upgrade") || re.MatchString("terraform plan") || re.MatchString("echo terraform init") {
			t.Errorf("match_command %q", flt.MatchCommand)
		}
		for _, p := range flt.StripLinesMatching {
			regexp.MustCompile(p)
		}
		hasOutput := strings.Contains(src, "Downloading")
		if hasOutput != show {
			t.Errorf("show %v: skeleton holds output text: %v\n%s", show, hasOutput, src)
		}
		if show && (f.Tests["terraform-init"][0].Input != out || !slicesContain(flt.StripLinesMatching, `^\s*Downloading \d+/\d+\s*$`)) {
			t.Errorf("show: test input %q, strip %q", f.Tests["terraform-init"][0].Input, flt.StripLinesMatching)
		}
	}
}

func slicesContain(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func TestParseTime(t *testing.T) {
	want := time.Date(2026, 12, 1, 3, 18, 54, 843e6, time.UTC)
	for _, in := range []string{`"2026-12-01T03:18:54.843Z"`, `1796095134843`, `1796095134.843`} {
		if got := parseTime([]byte(in)); !got.Equal(want) {
			t.Errorf("parseTime(%s) = %v, want %v", in, got, want)
		}
	}
	if !parseTime([]byte(`null`)).IsZero() || !parseTime(nil).IsZero() {
		t.Error("no time should be the zero time")
	}
}

// TestFileBeingWritten: a transcript the agent is still writing — records
// arriving in pieces while gotk reads — is read up to where it is; at most
// the record being written is counted as cut off, and once the writer is
// done every call is there.
func TestFileBeingWritten(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".claude", "projects", "p", "s.jsonl")
	writeFile(t, path, "")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	const calls = 400
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range calls {
			rec := claudeRecords(fmt.Sprintf("t%d", i), "git status", "On branch main\n", "2026-12-01T03:00:00Z")
			for len(rec) > 0 { // in pieces of odd sizes, as a writer's buffer flushes
				n := min(len(rec), 97+i%50)
				f.WriteString(rec[:n])
				rec = rec[n:]
			}
			if i%10 == 0 {
				time.Sleep(time.Millisecond) // let the scans see it half written
			}
		}
	}()
	for range 5 {
		rep := Scan(Options{Env: Env{Home: home}, Workers: 2})
		t.Logf("mid-write: %d calls read, %d records cut off", rep.MissedTotal.Count, rep.Scanned.Malformed)
		if s := rep.Scanned; s.Malformed > 1 || s.Unknown+s.Oversized > 0 || rep.MissedTotal.Count > calls {
			t.Errorf("mid-write: %+v, %d calls", s, rep.MissedTotal.Count)
		}
	}
	<-done
	f.Close()
	rep := Scan(Options{Env: Env{Home: home}, Workers: 2})
	if rep.Scanned.Skipped != 0 || rep.MissedTotal.Count != calls {
		t.Errorf("after the writer: %+v, %d calls; want nothing skipped, %d calls", rep.Scanned, rep.MissedTotal.Count, calls)
	}
}

// TestPermissionsToday: a call is judged by the host's rules as they are
// now, as the hook would: a deny rule keeps gotk out (declined, with the
// reason), and so does a rule file gotk cannot read (then gotk steps
// aside).
func TestPermissionsToday(t *testing.T) {
	for _, c := range []struct {
		settings string
		want     string // the reason git log is declined for ("": missed)
	}{
		{`{}`, ""},
		{`{"permissions":{"deny":["Bash(git log:*)"]}}`, "a deny rule matches"},
	} {
		home := t.TempDir()
		writeFile(t, filepath.Join(home, ".claude", "settings.json"), c.settings)
		writeFile(t, filepath.Join(home, ".claude", "projects", "p", "s.jsonl"), claudeRecords("t1", "git log -n 2", "commit 1\n", "2026-12-01T03:00:00Z"))
		rep := Scan(Options{Env: Env{Home: home, Getenv: func(string) string { return "" }}, Workers: 1})
		switch {
		case c.want == "" && (rep.MissedTotal.Count != 1 || len(rep.Declined) != 0):
			t.Errorf("%s: missed %+v, declined %+v; want git log missed", c.settings, rep.Missed, rep.Declined)
		case c.want != "" && (len(rep.Declined) != 1 || rep.Declined[0].Rule != "git.log" || !strings.HasPrefix(rep.Declined[0].Reason, c.want)):
			t.Errorf("%s: declined %+v; want git log, %q", c.settings, rep.Declined, c.want)
		}
	}

	// The real Codex transcript, with an execpolicy file gotk cannot parse.
	home := t.TempDir()
	src, _ := filepath.Abs(filepath.Join("testdata", "codex", "raw", "home"))
	filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(src, p)
			writeFile(t, filepath.Join(home, rel), string(b))
		}
		return nil
	})
	writeFile(t, filepath.Join(home, ".codex", "rules", "team.rules"), "x = 1\nprefix_rule(pattern=[x])\n")
	rep := Scan(Options{Env: Env{Home: home, Getenv: func(string) string { return "" }}, Workers: 1})
	if rep.MissedTotal.Count != 0 || rep.DeclinedTotal.Count != 5 {
		t.Fatalf("unreadable rules: missed %+v, declined %+v; want the five calls with a rule declined", rep.Missed, rep.Declined)
	}
	for _, d := range rep.Declined {
		if !strings.HasPrefix(d.Reason, "gotk cannot read the host's permission rules") {
			t.Errorf("declined %+v", d)
		}
	}
}

// TestManyCommands: the lists stay bounded however many distinct commands
// the transcripts hold; the rest are counted in one row.
func TestManyCommands(t *testing.T) {
	defer func(n int) { maxGroups = n }(maxGroups)
	maxGroups = 3
	home := t.TempDir()
	var b strings.Builder
	for i := range 10 {
		b.WriteString(claudeRecords(fmt.Sprintf("t%d", i), fmt.Sprintf("tool%d run", i), "out\n", "2026-12-01T03:00:00Z"))
	}
	writeFile(t, filepath.Join(home, ".claude", "projects", "p", "s.jsonl"), b.String())
	rep := Scan(Options{Env: Env{Home: home}, Workers: 2})
	if len(rep.Unhandled) != 4 || rep.UnhandledTotal.Count != 10 {
		t.Fatalf("unhandled %+v", rep.Unhandled)
	}
	other := 0
	for _, u := range rep.Unhandled {
		if u.Command == "(other commands)" {
			other = u.Count
		}
	}
	if other != 7 {
		t.Errorf("(other commands) counts %d calls, want 7: %+v", other, rep.Unhandled)
	}
}

// TestGotkCommandsInWindow: a line the hook rewrote with a window is
// named after the command gotk ran, not after the window's flags.
func TestGotkCommandsInWindow(t *testing.T) {
	for line, want := range map[string]string{
		"gotk --tail 30 go test ./... 2>&1 | tail -30":       "go test ./...",
		"cd pkg && timeout 300 gotk --head 5 make | head -5": "make",
		"gotk --raw git status":                              "git status",
	} {
		got := gotkCommands(line)
		if len(got) != 1 || strings.Join(got[0].argv, " ") != want || !got[0].window != (want == "git status") {
			t.Errorf("%q: %+v, want %q", line, got, want)
		}
	}
}
