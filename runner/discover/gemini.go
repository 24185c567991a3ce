package discover

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gotk-dev/gotk/core/regfile"
)

// Gemini CLI writes one JSONL file per session under
// <home>/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl, where home
// is $GEMINI_CLI_HOME or the user's home and <project> is a short name
// that .gemini/projects.json (and tmp/<project>/.project_root) maps to the
// project's directory. Measured in Gemini CLI 0.61.0 (e2e): the first line
// is {sessionId, projectHash, startTime}; "$set" lines update metadata; a
// message record {id, timestamp, type:"gemini", toolCalls:[…]} is written
// again each time one of its calls progresses. A call {id, name:
// "run_shell_command", args:{command}, status, timestamp, result:[{
// functionResponse:{response:{output}}}]} is done once its status is
// success, error or cancelled; args.command is what ran (a BeforeTool
// hook's rewrite included). A gemini message carries its request's usage,
// tokens {input (cached included), cached, output, thoughts}, and model.

func geminiFiles(e Env) []string {
	base := filepath.Join(e.Home, ".gemini")
	if h := e.get("GEMINI_CLI_HOME"); h != "" && filepath.IsAbs(h) {
		base = filepath.Join(h, ".gemini")
	}
	return walk(filepath.Join(base, "tmp"), func(rel, name string) bool {
		parts := strings.Split(rel, "/")
		return len(parts) == 3 && parts[1] == "chats" && strings.HasPrefix(name, "session-") && strings.HasSuffix(name, ".jsonl")
	})
}

var geminiMessageTypes = sync.OnceValue(func() map[string]bool { return setOf("user", "gemini", "info", "error", "warning", "model", "system") })

type geminiLine struct {
	SessionID string          `json:"sessionId"`
	Set       json.RawMessage `json:"$set"`
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Timestamp json.RawMessage `json:"timestamp"`
	Model     string          `json:"model"`
	Tokens    *struct {
		Input    int64 `json:"input"`
		Cached   int64 `json:"cached"`
		Output   int64 `json:"output"`
		Thoughts int64 `json:"thoughts"`
	} `json:"tokens"`
	ToolCalls []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		Args struct {
			Command string `json:"command"`
			Dir     string `json:"dir_path"`
		} `json:"args"`
		Status    string          `json:"status"`
		Timestamp json.RawMessage `json:"timestamp"`
		Result    []struct {
			FunctionResponse struct {
				Response struct {
					Output string `json:"output"`
					Error  string `json:"error"`
				} `json:"response"`
			} `json:"functionResponse"`
		} `json:"result"`
	} `json:"toolCalls"`
}

func readGemini(path string, s *scan) {
	cwd := geminiProject(filepath.Dir(filepath.Dir(path)))
	session := ""
	done := map[string]bool{}
	s.lines(path, func(line []byte) bool {
		var l geminiLine
		if !decode(line, &l) {
			return false
		}
		switch {
		case l.SessionID != "":
			session = l.SessionID
			return true
		case len(l.Set) > 0:
			return true
		case !geminiMessageTypes()[l.Type]:
			s.unknown()
			return true
		}
		if t := l.Tokens; t != nil && l.Type == "gemini" {
			// input counts the cached tokens; thoughts are written output.
			s.sess.request(l.ID, l.Model, parseTime(l.Timestamp),
				Usage{Input: max(t.Input-t.Cached, 0), CacheRead: t.Cached, Output: t.Output + t.Thoughts})
		}
		for _, tc := range l.ToolCalls {
			if tc.Name != "run_shell_command" || done[tc.ID] {
				continue
			}
			switch tc.Status {
			case "success", "error", "cancelled":
			default:
				continue
			}
			done[tc.ID] = true
			var out strings.Builder
			for _, r := range tc.Result {
				resp := r.FunctionResponse.Response
				out.WriteString(resp.Output)
				out.WriteString(resp.Error)
			}
			dir := cwd
			if tc.Args.Dir != "" {
				dir = filepath.Join(cwd, tc.Args.Dir)
			}
			s.emitCall(&Call{Session: session, Cwd: dir, Start: parseTime(l.Timestamp), End: parseTime(tc.Timestamp),
				Command: tc.Args.Command, Output: out.String(), Exit: -1, unwrap: geminiOutput})
		}
		return true
	})
}

// maxSmall bounds a file that holds one path.
const maxSmall = 64 << 10

// geminiProject is the project directory of a .gemini/tmp/<project>
// directory: its .project_root file, else the projects.json entry.
func geminiProject(tmpDir string) string {
	if b, err := regfile.Read(filepath.Join(tmpDir, ".project_root"), maxSmall); err == nil {
		if p := strings.TrimSpace(string(b)); filepath.IsAbs(p) {
			return p
		}
	}
	b, err := regfile.Read(filepath.Join(filepath.Dir(filepath.Dir(tmpDir)), "projects.json"), regfile.MaxRules)
	if err != nil {
		return ""
	}
	var pj struct {
		Projects map[string]string `json:"projects"`
	}
	json.Unmarshal(b, &pj)
	for dir, name := range pj.Projects {
		if name == filepath.Base(tmpDir) {
			return dir
		}
	}
	return ""
}

// geminiTrailer is a line of the framing Gemini CLI puts after a
// command's output ("Output: …\nExit Code: 1\nProcess Group PGID: 4711");
// older versions also put "Command: …" and "Directory: …" before it, and
// "Error: (none)" after (an "Error: …" line with more may be the
// command's own last line, so it stays).
var (
	geminiTrailer = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\A(Error: \(none\)|(Exit Code|Signal|Background PIDs|Process Group PGID): ?(.*))\z`)
	})
	geminiLeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\A(?:(?:Command|Directory): [^\n]*\n)*Output: ?`) })
)

func geminiOutput(out string) (string, int) {
	s := strings.TrimPrefix(out, "<untrusted_context>\n")
	if i := strings.LastIndex(s, "\n</untrusted_context>"); i >= 0 {
		s = s[:i]
	}
	loc := geminiLeader().FindStringIndex(s)
	if loc == nil {
		return out, -1
	}
	s = s[loc[1]:]
	exit := -1
	for {
		i := strings.LastIndexByte(s, '\n')
		if i < 0 {
			break
		}
		m := geminiTrailer().FindStringSubmatch(s[i+1:])
		if m == nil {
			break
		}
		if m[2] == "Exit Code" {
			if n, err := strconv.Atoi(strings.TrimSpace(m[3])); err == nil {
				exit = n
			}
		}
		s = s[:i]
	}
	if s == "(empty)" {
		s = ""
	}
	return s, exit
}
