package agentconf

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// hook.go: gotk's hook entry in an agent's JSON settings — where it goes,
// what it looks like, and which entries are gotk-install's own.

// KV is one member of an ordered object.
type KV struct {
	K string
	V any
}

// Obj is a JSON object whose members keep the order they are written in.
type Obj []KV

// Has reports whether o has a member named k.
func (o Obj) Has(k string) bool {
	for _, m := range o {
		if m.K == k {
			return true
		}
	}
	return false
}

// HookSpec says where an agent keeps its hook entries and what gotk's
// entry looks like.
type HookSpec struct {
	Event    []string // path from the root to the array of entries
	Matcher  string   // group matcher; "" means entries are handlers (Cursor)
	Tool     string   // the tool name the matcher must cover, for conflict checks
	Handler  Obj      // gotk's handler, in the order its members are written
	CmdKey   string   // the handler member naming the program ("command", "bash")
	Bin      string   // basename of gotk's hook binary, which identifies the entry
	RootKeys Obj      // members the root must have (Cursor's "version")
	// Group are members of gotk's group after its matcher (Droid's
	// "commandRegex"): written on install, kept current on update.
	Group Obj
}

// JSONUndo records what an install inserted, so uninstall can put the
// bytes back exactly (the container gotk created, the comma it added).
type JSONUndo struct {
	Inserts []InsRec `json:"inserts,omitempty"`
	Orig    *string  `json:"orig,omitempty"` // content of a file that held no JSON value
}

// InsRec is one insertion into a container.
type InsRec struct {
	Path       []string `json:"path"`                 // the container, from the root
	Key        string   `json:"key,omitempty"`        // member gotk added; "" for gotk's entry
	Inner      *string  `json:"inner,omitempty"`      // the container's text when it was empty
	AddedComma bool     `json:"addedComma,omitempty"` // a comma was added after the previous element
}

// Entry returns the array element gotk adds.
func (s *HookSpec) Entry() Obj {
	if s.Matcher == "" {
		return s.Handler
	}
	return append(append(Obj{{"matcher", s.Matcher}}, s.Group...), KV{"hooks", []any{s.Handler}})
}

// EventPath is the event array's path, dotted: hooks.PreToolUse.
func (s *HookSpec) EventPath() string { return strings.Join(s.Event, ".") }

// Command is the command line gotk's handler runs.
func (s *HookSpec) Command() string {
	for _, m := range s.Handler {
		if m.K == s.CmdKey {
			v, _ := m.V.(string)
			return v
		}
	}
	return ""
}

// GotkCommand returns the command of handler h when it runs gotk's hook
// binary bin: such an entry looks like gotk's, whoever added it.
func GotkCommand(h *Node, bin string) (string, bool) {
	if h == nil || h.Kind != JObject {
		return "", false
	}
	for _, k := range []string{"command", "bash"} {
		if cmd, ok := h.GetStr(k); ok && ProgramBase(cmd) == bin {
			return cmd, true
		}
	}
	return "", false
}

// Owner says which gotk-looking entries are gotk-install's: the one whose
// command the manifest recorded, or with --adopt every one.
type Owner struct {
	Recorded bool   // the manifest has a record of gotk's entry in this file
	Cmd      string // the command it recorded; "" in records of an older gotk-install (any gotk entry is then its own)
	Adopt    bool   // --adopt: take over every gotk-looking entry
}

// OwnerOf returns the owner the manifest record rec (nil: none) makes.
func OwnerOf(rec *Record, adopt bool) Owner {
	o := Owner{Adopt: adopt}
	if rec != nil {
		o.Recorded, o.Cmd = true, rec.Command
	}
	return o
}

// Owns reports whether an entry running cmd is gotk-install's.
func (o Owner) Owns(cmd string) bool {
	switch {
	case o.Adopt:
		return true
	case !o.Recorded:
		return false
	case o.Cmd == "":
		return true
	}
	return cmd == o.Cmd
}

// IsOurs reports whether handler h is gotk-install's own.
func (o Owner) IsOurs(h *Node, bin string) bool {
	cmd, ok := GotkCommand(h, bin)
	return ok && o.Owns(cmd)
}

// ProgramBase returns the basename of the first word of a command line.
func ProgramBase(cmd string) string {
	return strings.TrimSuffix(filepath.Base(filepath.FromSlash(Program(cmd))), ".exe")
}

// Program returns the first word of a command line, unquoted.
func Program(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	if cmd != "" && (cmd[0] == '"' || cmd[0] == '\'') {
		if i := strings.IndexByte(cmd[1:], cmd[0]); i >= 0 {
			return cmd[1 : i+1]
		}
		return ""
	}
	if i := strings.IndexAny(cmd, " \t"); i >= 0 {
		return cmd[:i]
	}
	return cmd
}

// HookRef locates one handler: the array element and, for grouped entries,
// the handler's index in the group's "hooks".
type HookRef struct {
	Elem, Hook int // Hook is -1 for flat entries
}

// HandlerAt returns the handler ref points at.
func (s *HookSpec) HandlerAt(arr *Node, ref HookRef) *Node {
	h := arr.Members[ref.Elem].Val
	if ref.Hook >= 0 {
		h = h.Get("hooks").Val.Members[ref.Hook].Val
	}
	return h
}

// Where names a handler for messages: hooks.PreToolUse[0].hooks[1].
func (s *HookSpec) Where(ref HookRef) string {
	if ref.Hook < 0 {
		return fmt.Sprintf("%s[%d]", s.EventPath(), ref.Elem)
	}
	return fmt.Sprintf("%s[%d].hooks[%d]", s.EventPath(), ref.Elem, ref.Hook)
}

// FindGotk lists the handlers in the event array that run gotk's hook
// binary, split into gotk-install's own and the others.
func (s *HookSpec) FindGotk(arr *Node, o Owner) (ours, others []HookRef) {
	if arr == nil {
		return nil, nil
	}
	add := func(h *Node, ref HookRef) {
		if cmd, ok := GotkCommand(h, s.Bin); ok {
			if o.Owns(cmd) {
				ours = append(ours, ref)
			} else {
				others = append(others, ref)
			}
		}
	}
	for i, e := range arr.Members {
		if s.Matcher == "" {
			add(e.Val, HookRef{i, -1})
			continue
		}
		hs := e.Val.Get("hooks")
		if hs == nil || hs.Val.Kind != JArray {
			continue
		}
		for j, h := range hs.Val.Members {
			add(h.Val, HookRef{i, j})
		}
	}
	return ours, others
}

// RunsForTool reports whether the entry at r runs for the tool gotk hooks
// (its group's matcher is gotk's, a wildcard, or an alternation naming it),
// so that a second gotk entry would run gotk twice on one call.
func (s *HookSpec) RunsForTool(arr *Node, r HookRef) bool {
	if s.Matcher == "" || r.Hook < 0 {
		return true
	}
	m, ok := arr.Members[r.Elem].Val.GetStr("matcher")
	if m = strings.TrimSpace(m); !ok || m == "" || m == "*" || m == s.Matcher {
		return true
	}
	return slices.Contains(strings.Split(m, "|"), s.Matcher)
}

// OtherNotes says, for each gotk-looking entry gotk-install does not own,
// that it is left alone.
func (s *HookSpec) OtherNotes(arr *Node, refs []HookRef) []string {
	return s.ForeignNotes(arr, refs, "")
}

// ForeignNotes is OtherNotes with what gotk-install does about them (""
// for nothing more than leaving them alone).
func (s *HookSpec) ForeignNotes(arr *Node, refs []HookRef, does string) []string {
	if does != "" {
		does = ", " + does
	}
	var notes []string
	for _, r := range refs {
		cmd, _ := GotkCommand(s.HandlerAt(arr, r), s.Bin)
		notes = append(notes, fmt.Sprintf("another gotk hook, %s, runs %q: gotk-install did not add it and leaves it alone%s; remove it by hand, or pass --adopt to let gotk-install manage it", s.Where(r), cmd, does))
	}
	return notes
}

// AllOurs reports whether every handler in hooks is gotk-install's.
func (s *HookSpec) AllOurs(hooks *Node, o Owner) bool {
	for _, h := range hooks.Members {
		if !o.IsOurs(h.Val, s.Bin) {
			return false
		}
	}
	return true
}

var rtkWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[\s/"'])rtk([\s"']|$)|rtk-rewrite`) })

// Conflicts names other hooks on the same tool that rewrite commands too.
func (s *HookSpec) Conflicts(arr *Node) []string {
	if arr == nil {
		return nil
	}
	var notes []string
	check := func(h *Node, where string) {
		if _, gotk := GotkCommand(h, s.Bin); h == nil || gotk {
			return
		}
		for _, k := range []string{"command", "bash"} {
			if cmd, ok := h.GetStr(k); ok && rtkWord().MatchString(cmd) {
				notes = append(notes, fmt.Sprintf("conflict: %s runs %q, which also rewrites %s commands; the two rewrites race. Remove one of them (for RTK: rtk init -g --uninstall)", where, cmd, s.Tool))
				return
			}
		}
	}
	for i, e := range arr.Members {
		if s.Matcher == "" {
			check(e.Val, fmt.Sprintf("%s[%d]", s.EventPath(), i))
			continue
		}
		m, _ := e.Val.GetStr("matcher")
		if !matcherCovers(m, s.Tool) {
			continue
		}
		if hs := e.Val.Get("hooks"); hs != nil && hs.Val.Kind == JArray {
			for j, h := range hs.Val.Members {
				check(h.Val, fmt.Sprintf("%s[%d].hooks[%d]", s.EventPath(), i, j))
			}
		}
	}
	return notes
}

// matcherCovers reports whether a hook matcher selects tool: empty and "*"
// match all; a plain list is exact names; anything else is a regex.
func matcherCovers(m, tool string) bool {
	if m == "" || m == "*" {
		return true
	}
	for _, part := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
		if strings.TrimSpace(part) == tool {
			return true
		}
	}
	re, err := regexp.Compile(m)
	return err == nil && re.MatchString(tool)
}
