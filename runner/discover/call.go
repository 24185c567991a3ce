package discover

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Call is one shell command an agent ran, as its transcript recorded it.
type Call struct {
	Agent   string
	Session string
	Cwd     string // the agent's working directory for the call ("" unknown)
	// Start and End bracket the run: the model's request and the result.
	Start, End time.Time
	// Command is the command line as the model wrote it; Ran is the one
	// that ran when the transcript shows a hook or plugin changed it ("" =
	// the same).
	Command, Ran string
	// Output is the tool result exactly as the model received it.
	Output string
	// Exit is the command's exit status when the transcript says (-1: not
	// said).
	Exit int
	// AutoAllow: the session ran every command without asking (Claude's
	// bypassPermissions mode, Codex's approval_policy "never").
	AutoAllow bool
	// AllowAll: a Copilot CLI session that never asked for a permission
	// (consistent with --allow-all-tools; see copilot.go).
	AllowAll bool
	// Refused: the agent did not run the command (its permissions refused
	// it), as the transcript records in so many words. Such a call is
	// counted apart: it neither ran raw nor through gotk.
	Refused bool
	// unwrap returns the command's own output from Output, without the
	// agent's framing (Codex's header, Gemini's <untrusted_context>), and the
	// exit status the framing states (-1: none).
	unwrap func(string) (string, int)
	// sess is the transcript file the call was read from, and epoch and pos
	// where its result sits in it (see usage.go).
	sess       *sessionLog
	epoch, pos int
}

// plain is the command's own output and exit status.
func (c *Call) plain() (string, int) {
	out, exit := c.Output, -1
	if c.unwrap != nil {
		out, exit = c.unwrap(c.Output)
	}
	if exit < 0 {
		exit = c.Exit
	}
	return out, exit
}

// parseTime reads a transcript timestamp: RFC 3339 text, or a number of
// milliseconds (or seconds) since the epoch.
func parseTime(raw json.RawMessage) time.Time {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return time.Time{}
	}
	if s[0] == '"' {
		var str string
		if json.Unmarshal(raw, &str) != nil {
			return time.Time{}
		}
		t, err := time.Parse(time.RFC3339Nano, str)
		if err != nil {
			return time.Time{}
		}
		return t
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 {
		return time.Time{}
	}
	if f < 1e11 { // seconds
		return time.UnixMilli(int64(f * 1000))
	}
	return time.UnixMilli(int64(f))
}

// textBlocks joins the text of a content value that is either a string or
// a list of blocks ({"type":"text","text":…}); other blocks (images) are
// not text the model reads as output.
func textBlocks(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if raw[0] == '"' {
		json.Unmarshal(raw, &s)
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var b strings.Builder
	for _, bl := range blocks {
		if bl.Type == "text" || bl.Type == "" || bl.Type == "output_text" || bl.Type == "input_text" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(bl.Text)
		}
	}
	return b.String()
}

// shellScript returns the script of an argv that runs one through a shell
// (bash -lc SCRIPT), or the argv joined by spaces.
func shellScript(argv []string) string {
	if n := len(argv); n >= 3 {
		base := argv[0][strings.LastIndexAny(argv[0], `/\`)+1:]
		switch base {
		case "bash", "sh", "zsh", "dash", "bash.exe", "sh.exe":
			switch argv[n-2] {
			case "-c", "-lc", "-cl", "-ic", "-ci", "-lic":
				return argv[n-1]
			}
		}
	}
	return strings.Join(argv, " ")
}
