package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The journal keeps SQLite off the hot path: a run of `gotk <program>`
// writes one file into the pending folder next to the database (written
// under a temporary name, then renamed: a reader sees it whole or not at
// all) and exits. Whatever opens the database to read it — gain, recall,
// discover — first folds the pending files in (Open does). Each run keeps
// its file name in runs.journal, which is unique: two gotks folding at
// once, or a fold that died between its commit and its deletes, never
// count a run twice.
//
// A pending file: journalMagic, one line of JSON (journalHead), then the
// raw output and what gotk printed, raw first, as many bytes as the head
// says.
const journalMagic = "gotk-run 1\n"

// PendingDir is the folder of runs not yet folded into the database at
// dbPath.
func PendingDir(dbPath string) string {
	return filepath.Join(filepath.Dir(dbPath), "pending")
}

type journalHead struct {
	At       int64  `json:"at"` // unix milliseconds
	Project  string `json:"project"`
	Command  string `json:"command"`
	Rule     string `json:"rule"`
	Mode     string `json:"mode"`
	Measured bool   `json:"measured,omitempty"`
	RawBytes int64  `json:"raw_bytes,omitempty"`
	Shown    int64  `json:"shown_bytes,omitempty"`
	Exit     int    `json:"exit"`
	Duration int64  `json:"duration_ms"`
	// The kept output, when there is one.
	ID       string `json:"id,omitempty"`
	RawLen   int    `json:"raw_len,omitempty"`
	ShownLen int    `json:"shown_len,omitempty"`
	Size     int64  `json:"size,omitempty"`
}

// Journal records a run (and, when k is not nil, its raw output) as a
// pending file beside the database at dbPath, for the next Open to fold
// in. It is what the runner calls after every run: no database is opened.
func Journal(dbPath string, r Run, k *Kept) error {
	dir := PendingDir(dbPath)
	if err := os.Mkdir(dir, dirMode); err != nil && !errors.Is(err, fs.ErrExist) {
		if err := privateDir(filepath.Dir(dbPath)); err != nil {
			return err
		}
		if err := os.Mkdir(dir, dirMode); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	h := journalHead{
		At: r.At.UnixMilli(), Project: r.Project, Command: r.Command, Rule: r.Rule, Mode: r.Mode,
		Measured: r.Measured, RawBytes: r.RawBytes, Shown: r.Shown, Exit: r.Exit, Duration: r.Duration.Milliseconds(),
	}
	id := ""
	if k != nil {
		h.ID, h.RawLen, h.ShownLen, h.Size = strings.ToLower(k.ID), len(k.Raw), len(k.Shown), k.Size
		id = h.ID
	} else {
		id = NewID()
	}
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("%016x-%s.run", r.At.UnixNano(), id)
	tmp := filepath.Join(dir, ".tmp-"+name)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, len(journalMagic)+len(head)+1+h.RawLen+h.ShownLen)
	buf = append(append(append(buf, journalMagic...), head...), '\n')
	if k != nil {
		buf = append(append(buf, k.Raw...), k.Shown...)
	}
	_, err = f.Write(buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// readJournal reads one pending file.
func readJournal(path string) (Run, *Kept, error) {
	var r Run
	data, err := os.ReadFile(path)
	if err != nil {
		return r, nil, err
	}
	rest, ok := bytes.CutPrefix(data, []byte(journalMagic))
	if !ok {
		return r, nil, errors.New("not a gotk run file")
	}
	line, body, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return r, nil, errors.New("run file cut short")
	}
	var h journalHead
	if err := json.Unmarshal(line, &h); err != nil {
		return r, nil, fmt.Errorf("run file: %w", err)
	}
	r = Run{At: time.UnixMilli(h.At), Project: h.Project, Command: h.Command, Rule: h.Rule, Mode: h.Mode,
		Measured: h.Measured, RawBytes: h.RawBytes, Shown: h.Shown, Exit: h.Exit, Duration: time.Duration(h.Duration) * time.Millisecond}
	if h.ID == "" {
		return r, nil, nil
	}
	if h.RawLen < 0 || h.ShownLen < 0 || len(body) != h.RawLen+h.ShownLen {
		return r, nil, errors.New("run file cut short")
	}
	return r, &Kept{ID: h.ID, Raw: body[:h.RawLen], Shown: body[h.RawLen:], Size: h.Size}, nil
}

// foldBatch bounds the runs folded in one transaction.
const foldBatch = 256

// staleTemp is how old a temporary pending file (a gotk killed while
// writing it) must be before a fold removes it.
const staleTemp = time.Hour

// Fold moves the pending runs into the database, oldest first, and
// removes their files. A damaged file is removed and counted in the error.
func (s *Store) Fold() error {
	dir := PendingDir(s.path)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		switch {
		case strings.HasPrefix(n, ".tmp-"):
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
				os.Remove(filepath.Join(dir, n))
			}
		case strings.HasSuffix(n, ".run"):
			names = append(names, n)
		}
	}
	sort.Strings(names) // the names start with the time in fixed-width hex
	var damaged []string
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	for len(names) > 0 {
		batch := names[:min(foldBatch, len(names))]
		names = names[len(batch):]
		bad, err := s.foldBatch(zw, dir, batch)
		if err != nil {
			return err
		}
		damaged = append(damaged, bad...)
		for _, n := range batch {
			os.Remove(filepath.Join(dir, n))
		}
	}
	if len(damaged) > 0 {
		return damagedError(fmt.Sprintf("%d damaged pending run file(s) removed: %s", len(damaged), strings.Join(damaged, ", ")))
	}
	return nil
}

// damagedError says which pending files could not be read (and were
// removed); the store is fine.
type damagedError string

func (e damagedError) Error() string { return string(e) }

func (s *Store) foldBatch(zw *gzip.Writer, dir string, names []string) (damaged []string, err error) {
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, cleanError(err)
	}
	defer tx.Rollback()
	kept := false
	for _, n := range names {
		r, k, err := readJournal(filepath.Join(dir, n))
		if errors.Is(err, fs.ErrNotExist) {
			continue // folded by another gotk meanwhile
		}
		if err != nil {
			damaged = append(damaged, n)
			continue
		}
		added, err := s.insert(ctx, tx, zw, r, k, n)
		if err != nil {
			return nil, cleanError(err)
		}
		kept = kept || (added && k != nil)
	}
	if kept {
		if err := s.evict(ctx, tx); err != nil {
			return nil, cleanError(err)
		}
	}
	return damaged, cleanError(tx.Commit())
}

// insert adds one run (and its kept output) inside tx; journal is its
// pending file's name, or "" for a run recorded directly. It reports
// false when that file was folded already.
func (s *Store) insert(ctx context.Context, tx *sql.Tx, zw *gzip.Writer, r Run, k *Kept, journal string) (bool, error) {
	var rawN, shownN, jn any
	if r.Measured {
		rawN, shownN = r.RawBytes, r.Shown
	}
	if journal != "" {
		jn = journal
	}
	res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO runs (at, project, command, rule, mode, raw_bytes, shown_bytes, exit_code, duration_ms, journal)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.At.UnixMilli(), r.Project, r.Command, r.Rule, r.Mode, rawN, shownN, r.Exit, r.Duration.Milliseconds(), jn)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	if k == nil {
		return true, nil
	}
	runID, _ := res.LastInsertId()
	raw, keptN := compress(zw, k.Raw, s.maxEntry)
	shown, _ := compress(zw, k.Shown, s.maxEntry)
	// Not INSERT OR REPLACE: its implicit delete fires no trigger.
	if _, err := tx.ExecContext(ctx, "DELETE FROM outputs WHERE id = ?", strings.ToLower(k.ID)); err != nil {
		return false, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO outputs (id, run, at, raw, raw_size, kept_size, shown, size)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		strings.ToLower(k.ID), runID, r.At.UnixMilli(), raw, max(int64(len(k.Raw)), k.Size), keptN, shown, len(raw)+len(shown))
	return true, err
}

// pendingCount is how many runs wait in the pending folder (for tests and
// for OpenExisting: runs pending and no database yet still make a report).
func pendingCount(dbPath string) int {
	entries, _ := os.ReadDir(PendingDir(dbPath))
	n := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".run") && !strings.HasPrefix(e.Name(), ".tmp-") {
			n++
		}
	}
	return n
}
