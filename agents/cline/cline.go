package cline

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/gotk-dev/gotk/core/decision"
	"github.com/gotk-dev/gotk/core/hookio"
)

// input is the part of Cline's tool_call hook payload the hook reads
// (@cline/core 0.0.86: hookName "tool_call", the tool's input after Cline
// normalised it to the tool's schema, the session's working directory as
// the only workspace root).
type input struct {
	HookName       string   `json:"hookName"`
	WorkspaceRoots []string `json:"workspaceRoots"`
	ToolCall       struct {
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"tool_call"`
}

// Handle answers one PreToolUse payload of the run_commands tool, whose
// input is {"commands":[…]}: each command string is decided on its own and
// rewritten or left byte for byte; the answer {"overrideInput":{…}} is the
// whole input, key order kept, commands replaced (Cline replaces the tool
// input with it). Nothing is rewritten → nil. The answer carries no
// permission: Cline approves per tool, after its hooks, so a rewrite changes
// no approval; what its plan mode would refuse, core never rewrites
// (core/hosts/cline).
//
// Cline joins the entries of a heredoc before it runs them: an entry with
// `<<WORD` and the entries up to a later entry equal to WORD are one
// command (@cline/core: the run_commands executor). Those entries are the
// heredoc's body, never rewritten.
func Handle(in []byte, d decision.Decider) []byte {
	var p input
	if json.Unmarshal(in, &p) != nil || p.HookName != "tool_call" || p.ToolCall.Name != "run_commands" {
		return nil
	}
	fields, ok := hookio.ParseFields(p.ToolCall.Input)
	if !ok {
		return nil
	}
	at := -1
	for i, f := range fields {
		if f.Key == "commands" {
			at = i // like Cline's JSON parser, the last of duplicate keys counts
		}
	}
	if at < 0 {
		return nil
	}
	cwd := ""
	if len(p.WorkspaceRoots) > 0 {
		cwd = p.WorkspaceRoots[0]
	}
	decide := func(cmd string) (string, bool) {
		dec := d.Decide(decision.Request{Command: cmd, Cwd: cwd})
		return dec.Command, hookio.IsRewrite(dec)
	}
	var out json.RawMessage
	if cmd, ok := command(fields[at].Value); ok {
		// {"commands":"git status"}: one command, kept a string.
		rw, ok := decide(cmd)
		if !ok {
			return nil
		}
		out = hookio.Raw(rw)
	} else {
		var list []json.RawMessage
		if json.Unmarshal(fields[at].Value, &list) != nil {
			return nil
		}
		body := heredocBodies(list)
		changed := false
		for i, raw := range list {
			cmd, ok := command(raw)
			if !ok || body[i] {
				continue
			}
			if rw, ok := decide(cmd); ok {
				list[i], changed = hookio.Raw(rw), true
			}
		}
		if !changed {
			return nil
		}
		var b bytes.Buffer
		b.WriteByte('[')
		for i, raw := range list {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(raw)
		}
		b.WriteByte(']')
		out = b.Bytes()
	}
	replaced := make(hookio.Fields, len(fields))
	copy(replaced, fields)
	for i := range replaced {
		if replaced[i].Key == "commands" {
			replaced[i].Value = out
		}
	}
	return hookio.Object("overrideInput", replaced)
}

// command is a command entry: a non-empty JSON string that decodes without
// loss (invalid UTF-8 or a lone surrogate would change under a rewrite).
func command(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil || strings.TrimSpace(s) == "" || !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
		return "", false
	}
	return s, true
}

// heredocBodies marks the entries Cline joins into the command of an
// earlier entry: in each run of string entries, an entry whose first
// heredoc operator names a delimiter takes every entry up to the first
// later one that is the delimiter (trimmed). The opening entry itself is a
// command with a heredoc, which the engine never rewrites.
func heredocBodies(list []json.RawMessage) []bool {
	body := make([]bool, len(list))
	strs := make([]*string, len(list))
	for i, raw := range list {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			strs[i] = &s
		}
	}
	for i := 0; i < len(list); i++ {
		if strs[i] == nil {
			continue
		}
		delim, ok := heredocDelimiter(*strs[i])
		if !ok {
			continue
		}
		end := -1
		for j := i + 1; j < len(list) && strs[j] != nil; j++ {
			if strings.TrimSpace(*strs[j]) == delim {
				end = j
				break
			}
		}
		if end < 0 {
			continue
		}
		for j := i + 1; j <= end; j++ {
			body[j] = true
		}
		i = end
	}
	return body
}

// heredocDelimiter finds the first `<<` (not `<<<`), an optional `-`,
// blanks, and a delimiter: "…", '…' or a run of [A-Za-z0-9_./-], as
// Cline's run_commands executor reads it.
func heredocDelimiter(s string) (string, bool) {
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '<' || s[i+1] != '<' || (i > 0 && s[i-1] == '<') {
			continue
		}
		j := i + 2
		if j < len(s) && s[j] == '-' {
			j++
		}
		for j < len(s) && strings.IndexByte(" \t\n\r\f\v", s[j]) >= 0 {
			j++
		}
		if j >= len(s) {
			continue
		}
		if q := s[j]; q == '"' || q == '\'' {
			if k := strings.IndexByte(s[j+1:], q); k > 0 {
				return s[j+1 : j+1+k], true
			}
			continue
		}
		k := j
		for k < len(s) && (isWordByte(s[k]) || s[k] == '.' || s[k] == '/' || s[k] == '-') {
			k++
		}
		if k > j {
			return s[j:k], true
		}
	}
	return "", false
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
