package discover

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/core/regfile"
)

// Env is where the scan looks: the user's home and environment.
type Env struct {
	Home   string
	Getenv func(string) string
}

func (e Env) get(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// dir is $k when set to an absolute path, else home/rel.
func (e Env) dir(k string, rel ...string) string {
	if d := e.get(k); d != "" && filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(append([]string{e.Home}, rel...)...)
}

// agent is one coding agent whose transcripts gotk reads: where they are
// and how one is read. Each reader is the few lines of that agent's
// format; the rest of the scan is shared.
type agent struct {
	name string
	// host is the agent's --host name for core/decision (cli.Hosts).
	host string
	// find lists its transcript files.
	find func(Env) []string
	// read reads one of them, passing each finished shell call to s.emit.
	read func(path string, s *scan)
}

// agents are read in this order; their names are --agent's values.
var agents = []agent{
	{name: "claude", host: "claude", find: claudeFiles, read: readClaude},
	{name: "codex", host: "codex", find: codexFiles, read: readCodex},
	{name: "gemini", host: "gemini", find: geminiFiles, read: readGemini},
	{name: "copilot", host: "copilot", find: copilotFiles, read: readCopilot},
	{name: "opencode", host: "opencode", find: opencodeFiles, read: readOpenCode},
	{name: "pi", host: "pi", find: piFiles, read: readPi},
	{name: "auggie", host: "auggie", find: auggieFiles, read: readAuggie},
	{name: "openclaw", host: "openclaw", find: openclawFiles, read: readOpenClaw},
}

// AgentNames lists the agents discover reads, in order.
func AgentNames() []string {
	out := make([]string, len(agents))
	for i, a := range agents {
		out[i] = a.name
	}
	return out
}

// Files lists the transcript files of one agent that a scan reads (nil
// for an unknown agent).
func Files(agent string, e Env) []string {
	for _, a := range agents {
		if a.name == agent {
			return a.find(e)
		}
	}
	return nil
}

// Stats counts what a scan read.
type Stats struct {
	Files   int `json:"files"`
	Records int `json:"records"` // lines (rows, for OpenCode's and OpenClaw's databases) read
	// Skipped = Malformed + Unknown + Oversized: records that were not read.
	Skipped   int `json:"skipped"`
	Malformed int `json:"malformed"` // not JSON, or cut off (a file being written)
	Unknown   int `json:"unknown"`   // a record type this gotk does not know
	Oversized int `json:"oversized"` // a line longer than MaxLine
	// Unreadable lists files that could not be opened or read, with why.
	Unreadable []string `json:"unreadable,omitempty"`
}

func (s *Stats) add(o Stats) {
	s.Files += o.Files
	s.Records += o.Records
	s.Skipped += o.Skipped
	s.Malformed += o.Malformed
	s.Unknown += o.Unknown
	s.Oversized += o.Oversized
	s.Unreadable = append(s.Unreadable, o.Unreadable...)
}

// scan is the reading of one agent's files.
type scan struct {
	agent string
	since time.Time
	stats Stats
	emit  func(*Call)
	// sess is the context being read (nil: no session view); fileLogs
	// are all the file's contexts, the first the file's own, and
	// contexts keys the others (see context).
	sess     *sessionLog
	fileLogs []*sessionLog
	contexts map[string]*sessionLog
}

// begin starts the session view of one file.
func (s *scan) begin(l *sessionLog) {
	s.sess, s.fileLogs, s.contexts = l, []*sessionLog{l}, nil
}

// context makes the context named key current, for a file that holds
// several (OpenCode's database holds every session; Copilot CLI's events
// hold its sub-agents' requests beside the main agent's): each counts its
// own requests, and those with the same session id sum into one session.
// key "" is the file's own; a new one starts with session id id and
// the file's directory.
func (s *scan) context(key, id string) {
	if len(s.fileLogs) == 0 {
		return
	}
	if key == "" {
		s.sess = s.fileLogs[0]
		return
	}
	l := s.contexts[key]
	if l == nil {
		f := s.fileLogs[0]
		l = newSessionLog(f.agent, f.file, f.since)
		l.id, l.cwd = id, f.cwd
		if s.contexts == nil {
			s.contexts = map[string]*sessionLog{}
		}
		s.contexts[key] = l
		s.fileLogs = append(s.fileLogs, l)
	}
	s.sess = l
}

func (s *scan) malformed() { s.stats.Malformed++; s.stats.Skipped++ }
func (s *scan) unknown()   { s.stats.Unknown++; s.stats.Skipped++ }
func (s *scan) oversized() { s.stats.Oversized++; s.stats.Skipped++ }

// lines reads a JSONL file, calling fn with each non-empty line; fn
// returns false for a line it could not read (counted as malformed).
func (s *scan) lines(path string, fn func(line []byte) bool) {
	f, err := regfile.Open(path)
	if err != nil {
		s.stats.Unreadable = append(s.stats.Unreadable, oneLine(err.Error()))
		return
	}
	defer f.Close()
	s.stats.Files++
	over, err := eachLine(f, MaxLine, func(line []byte) {
		if len(strings.TrimSpace(string(line))) == 0 {
			return
		}
		s.stats.Records++
		if !fn(line) {
			s.malformed()
		}
	})
	s.stats.Oversized += over
	s.stats.Skipped += over
	s.stats.Records += over
	if err != nil {
		s.stats.Unreadable = append(s.stats.Unreadable, path+": "+oneLine(err.Error()))
	}
}

// emitCall hands a finished call on, unless it ended before --since.
func (s *scan) emitCall(c *Call) {
	if c.Command == "" && c.Ran == "" {
		return
	}
	if !s.since.IsZero() && !c.End.IsZero() && c.End.Before(s.since) {
		return
	}
	c.Agent = s.agent
	if s.sess != nil {
		s.sess.note(c.Session, c.Cwd, c.Start)
		c.sess = s.sess
		c.epoch, c.pos = s.sess.at()
	}
	s.emit(c)
}

// decode unmarshals one JSON line into v; false when it is not JSON.
func decode(line []byte, v any) bool {
	return json.Unmarshal(line, v) == nil
}

// walk lists the files under root (following no symlinks) whose name
// keep accepts, sorted.
func walk(root string, keep func(rel, name string) bool) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			if keep(filepath.ToSlash(rel), d.Name()) {
				out = append(out, p)
			}
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// glob is filepath.Glob, sorted, without the error (the patterns are ours).
func glob(pattern string) []string {
	m, _ := filepath.Glob(pattern)
	sort.Strings(m)
	return m
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
