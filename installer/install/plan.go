package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/BurntSushi/toml"

	"github.com/gotk-dev/gotk/core/agentconf"
)

// plan.go: plan, then apply. Planning reads every file and computes its new
// bytes without writing anything; a file that cannot be read or parsed stops
// the whole run before a single byte is written.

// fileChange is the edit of one file: its bytes before and after.
type fileChange struct {
	path    string // as the agent names it (may be a symlink)
	real    string // where the bytes live (the symlink's target)
	before  []byte
	existed bool
	mode    fs.FileMode
	after   []byte
	remove  bool     // delete the file
	newDirs []string // missing parent folders, outermost first
	rmDirs  []string // folders gotk created, to remove when empty
	ours    bool     // gotk created the file: there is nothing of the user's to back up
	exec    bool     // the agent executes the file: written executable (new files too)
	planned bool     // a part changes the file; a file no part changes is never written
}

func (c *fileChange) changed() bool {
	if !c.planned {
		return false
	}
	if c.remove {
		return c.existed
	}
	return !c.existed || !bytes.Equal(c.before, c.after)
}

// pathError is an error about one file: printed as "path: what".
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string { return e.path + ": " + e.err.Error() }

// plan is every change of one run.
type plan struct {
	changes map[string]*fileChange
	order   []string
	puts    []agentconf.Record
	drops   []agentconf.Record
	notes   []string
	adopt   bool // --adopt: take over gotk-looking entries gotk-install did not add
}

func newPlan() *plan { return &plan{changes: map[string]*fileChange{}} }

// changed reports whether the plan writes anything: an agent's file, or
// the manifest.
func (pl *plan) changed(m *agentconf.Manifest) bool {
	for _, p := range pl.order {
		if pl.changes[p].changed() {
			return true
		}
	}
	before, _ := json.Marshal(m.Entries)
	after, _ := json.Marshal(pl.manifest(m).Entries)
	return !bytes.Equal(before, after)
}

// manifest returns m as it is once the plan is applied.
func (pl *plan) manifest(m *agentconf.Manifest) *agentconf.Manifest {
	n := *m
	n.Entries = append([]agentconf.Record(nil), m.Entries...)
	for _, r := range pl.drops {
		dropRecord(&n, r.Agent, r.Kind, r.File)
	}
	for _, r := range pl.puts {
		putRecord(&n, r)
	}
	return &n
}

// file returns the pending change of path, reading the file on first use.
func (pl *plan) file(path string) (*fileChange, error) {
	if c, ok := pl.changes[path]; ok {
		return c, nil
	}
	c := &fileChange{path: path, real: path, mode: 0o644}
	if _, err := os.Lstat(path); err == nil {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, &pathError{path, errors.New("is a symlink to a file that does not exist; fix or remove the link")}
		}
		c.real = real
		fi, err := os.Stat(real)
		if err != nil {
			return nil, &pathError{path, err}
		}
		if !fi.Mode().IsRegular() {
			return nil, &pathError{path, errors.New("is not a regular file")}
		}
		b, err := os.ReadFile(real)
		if err != nil {
			return nil, &pathError{path, err}
		}
		c.before, c.after, c.existed, c.mode = b, b, true, fi.Mode().Perm()
	} else if !os.IsNotExist(err) {
		return nil, &pathError{path, err}
	} else {
		for d := filepath.Dir(path); ; d = filepath.Dir(d) {
			fi, err := os.Stat(d)
			if err == nil {
				if !fi.IsDir() {
					return nil, &pathError{path, fmt.Errorf("%s is not a folder", d)}
				}
				break
			}
			c.newDirs = append([]string{d}, c.newDirs...)
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	pl.changes[path] = c
	pl.order = append(pl.order, path)
	return c, nil
}

// install plans one part. It returns what it did in a few words ("" for
// nothing).
func (pl *plan) install(a *agentconf.Agent, s agentconf.Scope, p agentconf.Part, m *agentconf.Manifest) (string, error) {
	c, err := pl.file(p.File)
	if err != nil {
		return "", err
	}
	rec := m.Find(a.Name, p.Kind, p.File)
	nrec := agentconf.Record{Agent: a.Name, Scope: string(s), Kind: p.Kind, File: p.File, Entry: p.Describe()}
	if rec != nil {
		nrec = *rec
		nrec.Entry = p.Describe()
	} else {
		nrec.CreatedFile = !c.existed
		nrec.CreatedDirs = c.newDirs
	}
	c.ours = c.ours || (rec != nil && rec.CreatedFile)
	cur := c.after
	var out []byte
	verb := "added"
	switch p.Kind {
	case agentconf.KindJSONHook:
		var undo *agentconf.JSONUndo
		var notes []string
		var fate hookFate
		out, undo, fate, notes, err = installJSON(cur, p.Hook, agentconf.OwnerOf(rec, pl.adopt))
		if err != nil {
			return "", &pathError{p.File, err}
		}
		for _, n := range notes {
			pl.notes = append(pl.notes, p.File+": "+n)
		}
		if err := agentconf.AgentReads(p.Syntax, out); err != nil {
			pl.notes = append(pl.notes, fmt.Sprintf("%s: %s skips this whole file (%v): gotk's entry runs once the file is plain JSON there", p.File, a.Title, err))
		}
		nrec.Command = p.Hook.Command()
		switch {
		case undo != nil:
			nrec.JSON = undo
		case fate == fateAdopted:
			verb = "adopted"
		default:
			verb = "updated"
		}
		if fate == fateHandMade {
			return "left as it is, with no second", nil // the notes say so
		}
		if bytes.Equal(out, cur) && (rec == nil || rec.Command != nrec.Command) {
			// Taken over as it is, or recorded by an older gotk-install.
			pl.puts = append(pl.puts, nrec)
			if rec == nil {
				return verb, nil
			}
			return "", nil
		}
	case agentconf.KindBlock:
		if p.IsTOML {
			if _, err := toml.Decode(string(cur), new(map[string]any)); err != nil {
				return "", &pathError{p.File, agentconf.TOMLErr(err)}
			}
			arr, err := agentconf.FindTopArray(cur, "hooks")
			if err != nil {
				return "", &pathError{p.File, fmt.Errorf("gotk-install cannot read where this file's hooks are (%v); add gotk's hook by hand", err)}
			}
			if arr != nil {
				// hooks is an inline array: no [[hooks]] table may follow it.
				var undo *agentconf.InlineUndo
				if rec != nil && rec.Inline != nil && bytes.Count(cur, []byte(rec.Inline.Lead+rec.Inline.Entry)) == 1 {
					old := rec.Inline.Lead + rec.Inline.Entry
					u := *rec.Inline
					u.Entry = p.Inline
					out, undo, verb = bytes.Replace(cur, []byte(old), []byte(u.Lead+u.Entry), 1), &u, "updated"
				} else {
					out, undo = insertInline(cur, arr, p.Inline)
					if err := sameWithout(cur, out); err != nil {
						return "", &pathError{p.File, err}
					}
				}
				if err := checkVibeHooks(out); err != nil {
					return "", &pathError{p.File, err}
				}
				nrec.Inline, nrec.Block = undo, nil
				break
			}
		}
		if start, _, err := agentconf.FindBlock(cur, p.Markers); err == nil && start >= 0 && rec == nil && !pl.adopt {
			l, _ := agentconf.LineCol(cur, start)
			return "", &pathError{p.File, fmt.Errorf("holds a gotk block (line %d) that gotk-install did not write; remove it by hand, or pass --adopt to let gotk-install replace it", l)}
		}
		var undo *agentconf.BlockUndo
		out, undo, err = upsertBlock(cur, p.Markers, body(&p))
		if err != nil {
			return "", &pathError{p.File, err}
		}
		switch {
		case undo != nil:
			nrec.Block = undo
		case rec == nil:
			verb = "adopted"
		default:
			verb = "updated"
		}
		if p.IsTOML {
			if err := checkVibeHooks(out); err != nil {
				return "", &pathError{p.File, err}
			}
		}
	case agentconf.KindTOMLFlag:
		var undo *agentconf.FlagUndo
		if !c.existed {
			undo = &agentconf.FlagUndo{Inserted: p.Flag + " = true  # set by gotk-install (Vibe hooks are experimental)"}
			out = []byte(undo.Inserted + "\n")
		} else if out, undo, err = setTOMLFlag(cur, p.Flag); err != nil {
			return "", &pathError{p.File, err}
		}
		if undo == nil {
			return "", nil // already true: not ours to record
		}
		if rec == nil || rec.Flag == nil {
			nrec.Flag = undo
		}
		verb = "set"
	case agentconf.KindFile:
		out = content(&p)
		nrec.SHA256 = agentconf.Sum(content(&p))
		c.exec = p.Script != nil
		switch {
		case !c.existed:
		case rec != nil && rec.SHA256 == agentconf.Sum(cur):
			verb = "updated"
		case p.Script != nil && !gotkScript(&p, cur):
			// A hook of the user's: the agent runs one file per event, and
			// gotk-install never replaces it, not even with --adopt.
			return "", &pathError{p.File, fmt.Errorf("exists and is not the file gotk-install wrote: %s runs this one file for the event, so gotk-install leaves it alone; move it away (or make it run %s too), then run again", a.Title, a.HookBin)}
		case pl.adopt:
			verb = "adopted"
		case bytes.Equal(cur, content(&p)) || gotkScript(&p, cur):
			pl.notes = append(pl.notes, p.File+": is gotk's, but gotk-install did not write it: left as it is; pass --adopt to let gotk-install manage it")
			return "", nil
		default:
			return "", &pathError{p.File, errors.New("exists and is not the file gotk-install wrote (its content differs); move it away, or pass --adopt to let gotk-install replace it")}
		}
		if bytes.Equal(out, cur) && rec == nil {
			pl.puts = append(pl.puts, nrec)
			return verb, nil
		}
	}
	if bytes.Equal(out, cur) && c.existed {
		return "", nil
	}
	c.after, c.planned = out, true
	pl.puts = append(pl.puts, nrec)
	return verb, nil
}

// uninstall plans the removal of one part.
func (pl *plan) uninstall(a *agentconf.Agent, p agentconf.Part, m *agentconf.Manifest) (string, error) {
	rec := m.Find(a.Name, p.Kind, p.File)
	c, err := pl.file(p.File)
	if err != nil {
		return "", err
	}
	if rec != nil {
		pl.drops = append(pl.drops, *rec)
	}
	if !c.existed {
		return "", nil
	}
	c.ours = c.ours || (rec != nil && rec.CreatedFile)
	cur := c.after
	var out []byte
	changed := false
	switch p.Kind {
	case agentconf.KindJSONHook:
		var undo *agentconf.JSONUndo
		if rec != nil {
			undo = rec.JSON
		}
		var notes []string
		out, changed, notes, err = uninstallJSON(cur, p.Hook, undo, agentconf.OwnerOf(rec, pl.adopt))
		for _, n := range notes {
			pl.notes = append(pl.notes, p.File+": "+n)
		}
	case agentconf.KindBlock:
		if rec != nil && rec.Inline != nil {
			if out, changed = removeInline(cur, rec.Inline); !changed {
				pl.notes = append(pl.notes, p.File+": gotk's hook was changed after gotk-install wrote it: left in place; remove it by hand")
			}
			break
		}
		var undo *agentconf.BlockUndo
		if rec != nil {
			undo = rec.Block
		}
		if rec == nil && !pl.adopt {
			if start, _, ferr := agentconf.FindBlock(cur, p.Markers); ferr == nil && start >= 0 {
				l, _ := agentconf.LineCol(cur, start)
				pl.notes = append(pl.notes, fmt.Sprintf("%s: holds a gotk block (line %d) that gotk-install did not write: left as it is; remove it by hand, or pass --adopt", p.File, l))
			}
			break
		}
		out, changed, err = removeBlock(cur, p.Markers, undo)
	case agentconf.KindTOMLFlag:
		if rec != nil {
			out, changed = unsetTOMLFlag(cur, rec.Flag)
		}
	case agentconf.KindFile:
		switch {
		case rec != nil && rec.SHA256 == agentconf.Sum(cur), pl.adopt && (bytes.Equal(cur, content(&p)) || gotkScript(&p, cur)):
			out, changed = nil, true
			c.remove = true
		case rec != nil:
			pl.notes = append(pl.notes, p.File+": left in place: it was changed after gotk-install wrote it")
		case bytes.Equal(cur, content(&p)) || gotkScript(&p, cur):
			pl.notes = append(pl.notes, p.File+": is gotk's, but gotk-install did not write it: left in place; remove it by hand, or pass --adopt")
		}
	}
	if err != nil {
		return "", &pathError{p.File, err}
	}
	if !changed {
		return "", nil
	}
	if rec != nil && rec.CreatedFile && len(bytes.TrimSpace(out)) == 0 {
		c.remove = true
	}
	if rec != nil {
		c.rmDirs = append(c.rmDirs, rec.CreatedDirs...)
	}
	c.after, c.planned = out, true
	return "removed", nil
}

// gotkScript reports whether b is a hook script of gotk's form, whatever
// command it runs.
func gotkScript(p *agentconf.Part, b []byte) bool {
	if p.Script == nil {
		return false
	}
	h := agentconf.ScriptHook(b)
	for _, form := range append([]func(string) string{p.Script}, p.ScriptWas...) {
		if string(b) == form(h) {
			return true
		}
	}
	return false
}

// checkVibeHooks checks that the TOML parses and holds one hook named gotk.
func checkVibeHooks(b []byte) error {
	var doc struct {
		Hooks []struct{ Name string } `toml:"hooks"`
	}
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return agentconf.TOMLErr(err)
	}
	n := 0
	for _, h := range doc.Hooks {
		if h.Name == "gotk" {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("another [[hooks]] table is named \"gotk\" (Vibe skips duplicate names); rename or remove it")
	}
	return nil
}

// applied is what apply did besides the planned edits, per file: the
// report lines about backups.
type applied struct {
	lines map[string][]string
}

// apply writes every change — backup first, atomic write, mode kept,
// symlink kept — then commit (the manifest). A failure anywhere puts back
// what was already written and removes the backups and folders this run
// made, so the files are as they were; the error names the file, the
// reason and what to do. It prints nothing.
func (pl *plan) apply(commit func() error, commitPath string) (*applied, error) {
	// Refuse up front what would fail part way.
	for _, p := range pl.order {
		c := pl.changes[p]
		if c.changed() && c.existed && c.mode&0o200 == 0 {
			return nil, &pathError{p, fmt.Errorf("is read-only (mode %04o); make it writable first", c.mode)}
		}
	}
	done := &applied{lines: map[string][]string{}}
	var written []*fileChange
	var madeDirs, madeBaks []string
	rollback := func(err error) error {
		var failed []string
		for i := len(written) - 1; i >= 0; i-- {
			c := written[i]
			var uerr error
			if c.existed {
				uerr = writeAtomic(c.real, c.before, c.mode)
				if uerr == nil && c.exec {
					uerr = os.Chmod(c.real, c.mode)
				}
			} else {
				uerr = os.Remove(c.real)
			}
			if uerr != nil {
				failed = append(failed, c.path+" ("+reason(uerr)+")")
			}
		}
		for _, b := range madeBaks {
			_ = os.Remove(b)
		}
		removeEmpty(madeDirs)
		if len(failed) > 0 {
			return fmt.Errorf("%v; and these files, already changed, could not be put back: %s — restore them from their .gotk.bak", err, strings.Join(failed, ", "))
		}
		return err
	}
	for _, p := range pl.order {
		c := pl.changes[p]
		if !c.changed() {
			continue
		}
		for _, d := range c.newDirs {
			if _, err := os.Stat(d); err == nil {
				continue
			}
			if err := os.Mkdir(d, 0o755); err != nil {
				return nil, rollback(&pathError{p, fmt.Errorf("cannot create the folder %s (%s); check that it can be created, then run again", d, reason(err))})
			}
			madeDirs = append(madeDirs, d)
		}
		if c.existed && !c.ours {
			bak := c.path + ".gotk.bak"
			if _, err := os.Lstat(bak); os.IsNotExist(err) {
				if err := writeAtomic(bak, c.before, c.mode); err != nil {
					return nil, rollback(&pathError{p, fmt.Errorf("cannot write its backup %s (%s); check that its folder can be written, then run again", bak, reason(err))})
				}
				madeBaks = append(madeBaks, bak)
				done.lines[p] = append(done.lines[p], "backup: "+bak)
			}
		}
		var err error
		if c.remove {
			err = os.Remove(c.real)
		} else {
			err = writeAtomic(c.real, c.after, c.mode)
		}
		if err != nil {
			what := "write"
			if c.remove {
				what = "remove"
			}
			return nil, rollback(&pathError{p, fmt.Errorf("cannot %s it (%s); check that it can be written (ls -l, lsattr), then run again", what, reason(err))})
		}
		written = append(written, c)
		if !c.remove && c.exec && c.mode&0o111 != 0o111 {
			// The agent executes it (writeAtomic keeps an existing file's
			// mode).
			if err := os.Chmod(c.real, c.mode|0o111); err != nil {
				return nil, rollback(&pathError{p, fmt.Errorf("cannot make it executable (%s); check its owner, then run again", reason(err))})
			}
		}
	}
	if err := commit(); err != nil {
		return nil, rollback(&pathError{commitPath, fmt.Errorf("cannot write it (%s); check that it can be written, then run again", reason(err))})
	}
	// Committed. An uninstall that restores a file exactly leaves nothing
	// for its backup to hold: the backup goes, so the folder is as it was.
	for _, c := range written {
		bak := c.path + ".gotk.bak"
		if c.remove {
			continue
		}
		b, err := os.ReadFile(bak)
		switch {
		case err != nil || contains(madeBaks, bak):
		case bytes.Equal(b, c.after):
			if os.Remove(bak) == nil {
				done.lines[c.path] = append(done.lines[c.path], "removed backup "+bak+" (the file is back to it)")
			}
		case len(pl.drops) > 0:
			done.lines[c.path] = append(done.lines[c.path], "kept backup "+bak+": it holds the file as it was before gotk-install first changed it, and the file has changed since (those changes are kept); delete it once you no longer need it")
		}
	}
	// Folders gotk created go when they are empty again, deepest first.
	var dirs []string
	for _, c := range pl.changes {
		dirs = append(dirs, c.rmDirs...)
	}
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, d := range dirs {
		_ = os.Remove(d) // fails, as it should, when something else lives there
	}
	return done, nil
}

// reason is the last, human part of an error: "operation not permitted".
func reason(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
