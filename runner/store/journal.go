package store

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gotk-dev/gotk/core/jsontree"
)

// The journal keeps SQLite off the hot path: a run of `gotk <program>`
// appends one record to the pending log next to the database and exits
// (journal_unix.go: one write under a shared lock; elsewhere one file per
// run). Whatever opens the database to read it — gain, recall, discover —
// first folds the pending records in (Open does). Each record carries a
// key (its time and id) that runs.journal keeps unique: two gotks folding
// at once, or a fold that died between its commit and its delete, never
// count a run twice.
//
// A record: journalMagic, one line of JSON (journalHead, with the length
// and CRC-32 of what follows), then the raw output and what gotk printed.
// A record cut short (a gotk killed in the middle of its write) fails its
// length or CRC and is skipped; reading goes on at the next magic.
const journalMagic = "gotk-run 1\n"

// PendingDir is the folder of runs not yet folded into the database at
// dbPath.
func PendingDir(dbPath string) string {
	return filepath.Join(filepath.Dir(dbPath), "pending")
}

type journalHead struct {
	Key      string `json:"key"`
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
	CRC      uint32 `json:"crc,omitempty"` // of the raw and shown bytes
}

// appendJSON appends h as encoding/json would marshal it (field order and
// omitempty kept; strings without HTML escaping), written by hand: the
// encoder's reflection cost every run ~0.1 ms of a cold process
// (FuzzHeadJSON holds the two to the same bytes).
func (h journalHead) appendJSON(b []byte) []byte {
	str := func(b []byte, name, v string) []byte {
		return jsontree.AppendString(append(append(b, ',', '"'), name+`":`...), v)
	}
	num := func(b []byte, name string, v int64, omitZero bool) []byte {
		if omitZero && v == 0 {
			return b
		}
		return strconv.AppendInt(append(append(b, ',', '"'), name+`":`...), v, 10)
	}
	b = jsontree.AppendString(append(b, `{"key":`...), h.Key)
	b = num(b, "at", h.At, false)
	b = str(b, "project", h.Project)
	b = str(b, "command", h.Command)
	b = str(b, "rule", h.Rule)
	b = str(b, "mode", h.Mode)
	if h.Measured {
		b = append(b, `,"measured":true`...)
	}
	b = num(b, "raw_bytes", h.RawBytes, true)
	b = num(b, "shown_bytes", h.Shown, true)
	b = num(b, "exit", int64(h.Exit), false)
	b = num(b, "duration_ms", h.Duration, false)
	if h.ID != "" {
		b = str(b, "id", h.ID)
	}
	b = num(b, "raw_len", int64(h.RawLen), true)
	b = num(b, "shown_len", int64(h.ShownLen), true)
	b = num(b, "size", h.Size, true)
	b = num(b, "crc", int64(h.CRC), true)
	return append(b, '}')
}

// maxHead bounds a record's JSON line (a command line is at most a few
// kilobytes; the hooks refuse longer ones).
const maxHead = 1 << 20

// maxBody bounds a record's output bytes (the runner keeps at most its
// capture limit of each stream).
const maxBody = 256 << 20

// FoldAt is the size of pending records past which the run that wrote the
// last one folds them in on its way out (Journal's full result): a user
// who never asks for a report still keeps the pending folder small.
const FoldAt = 4 << 20

// Journal records a run (and, when k is not nil, its raw output) in the
// pending log beside the database at dbPath, for the next Open to fold in.
// It is what the runner calls after every run: no database is opened.
// full reports that the pending records passed FoldAt.
func Journal(dbPath string, r Run, k *Kept) (full bool, err error) {
	dir := PendingDir(dbPath)
	if err := os.Mkdir(dir, dirMode); err != nil && !errors.Is(err, fs.ErrExist) {
		if err := privateDir(filepath.Dir(dbPath)); err != nil {
			return false, err
		}
		if err := os.Mkdir(dir, dirMode); err != nil && !errors.Is(err, fs.ErrExist) {
			return false, err
		}
	}
	key, rec := encodeRecord(r, k)
	size, err := appendRecord(dir, key, rec)
	return err == nil && size > FoldAt, err
}

// encodeRecord is one record of the pending log, and its key.
func encodeRecord(r Run, k *Kept) (key string, rec []byte) {
	h := journalHead{
		At: r.At.UnixMilli(), Project: r.Project, Command: r.Command, Rule: r.Rule, Mode: r.Mode,
		Measured: r.Measured, RawBytes: r.RawBytes, Shown: r.Shown, Exit: r.Exit, Duration: r.Duration.Milliseconds(),
	}
	id := NewID()
	if k != nil {
		h.ID, h.RawLen, h.ShownLen, h.Size = strings.ToLower(k.ID), len(k.Raw), len(k.Shown), k.Size
		crc := crc32.NewIEEE()
		crc.Write(k.Raw)
		crc.Write(k.Shown)
		h.CRC = crc.Sum32()
		id = h.ID + id
	}
	h.Key = fmt.Sprintf("%016x-%s", r.At.UnixNano(), id)
	buf := make([]byte, 0, len(journalMagic)+256+len(h.Project)+len(h.Command)+h.RawLen+h.ShownLen)
	buf = append(h.appendJSON(append(buf, journalMagic...)), '\n')
	if k != nil {
		buf = append(append(buf, k.Raw...), k.Shown...)
	}
	return h.Key, buf
}

// record is one decoded record.
type record struct {
	key string
	run Run
	k   *Kept
}

// readRecords calls fn with each whole record of r in order, and returns
// how many damaged ones it skipped.
func readRecords(r io.Reader, fn func(record) error) (damaged int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic := []byte(journalMagic)
	synced := true
	for {
		// At a record's start, or looking for the next one.
		if !synced {
			if !skipToMagic(br, magic) {
				return damaged, nil
			}
		} else {
			got, err := br.Peek(len(magic))
			if len(got) == 0 && errors.Is(err, io.EOF) {
				return damaged, nil
			}
			if !bytes.Equal(got, magic) {
				damaged++
				synced = false
				continue
			}
			br.Discard(len(magic))
		}
		synced = true
		line, err := readLine(br, maxHead)
		var h journalHead
		if err != nil || json.Unmarshal(line, &h) != nil || h.Key == "" || h.RawLen < 0 || h.ShownLen < 0 {
			damaged++
			synced = false
			continue
		}
		rec := record{key: h.Key, run: Run{At: time.UnixMilli(h.At), Project: h.Project, Command: h.Command, Rule: h.Rule,
			Mode: h.Mode, Measured: h.Measured, RawBytes: h.RawBytes, Shown: h.Shown, Exit: h.Exit,
			Duration: time.Duration(h.Duration) * time.Millisecond}}
		if h.ID != "" {
			// Grown as the bytes come: a damaged length allocates no more
			// than the file holds.
			var b bytes.Buffer
			n := int64(h.RawLen) + int64(h.ShownLen)
			got, _ := io.CopyN(&b, br, min(n, maxBody))
			body := b.Bytes()
			if n > maxBody || got != n || crc32.ChecksumIEEE(body) != h.CRC {
				damaged++
				synced = false
				continue
			}
			rec.k = &Kept{ID: h.ID, Raw: body[:h.RawLen], Shown: body[h.RawLen:], Size: h.Size}
		}
		if err := fn(rec); err != nil {
			return damaged, err
		}
	}
}

// skipToMagic reads up to the next magic (consuming it); false at the end.
func skipToMagic(br *bufio.Reader, magic []byte) bool {
	matched := 0
	for {
		c, err := br.ReadByte()
		if err != nil {
			return false
		}
		switch {
		case c == magic[matched]:
			matched++
			if matched == len(magic) {
				return true
			}
		case c == magic[0]:
			matched = 1
		default:
			matched = 0
		}
	}
}

// readLine reads one line (without its newline) of at most max bytes.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > max {
			return nil, errors.New("line too long")
		}
		if err == nil {
			return line[:len(line)-1], nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
	}
}

// foldBatch bounds the pending files folded in one transaction.
const foldBatch = 256

// staleTemp is how old a temporary pending file (a gotk killed while
// writing it) must be before a fold removes it.
const staleTemp = time.Hour

// Fold moves the pending runs into the database, oldest first, and
// removes what it folded. Damaged records are skipped and counted in a
// damagedError; any other error leaves the pending files for next time.
func (s *Store) Fold() error {
	dir := PendingDir(s.path)
	if err := claimLog(dir); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var segments, runs []string
	for _, e := range entries {
		n := e.Name()
		switch {
		case strings.HasPrefix(n, ".tmp-"):
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
				os.Remove(filepath.Join(dir, n))
			}
		case strings.HasPrefix(n, segmentPrefix):
			segments = append(segments, n)
		case strings.HasSuffix(n, ".run"):
			runs = append(runs, n)
		}
	}
	// The names start with the time in fixed-width hex: oldest first.
	sort.Strings(segments)
	sort.Strings(runs)
	groups := make([][]string, 0, len(segments)+len(runs)/foldBatch+1)
	for _, n := range segments {
		groups = append(groups, []string{n})
	}
	for len(runs) > 0 {
		n := min(foldBatch, len(runs))
		groups, runs = append(groups, runs[:n]), runs[n:]
	}
	damaged := 0
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	for _, g := range groups {
		bad, err := s.foldFiles(zw, dir, g)
		if err != nil {
			return err
		}
		damaged += bad
		for _, n := range g {
			os.Remove(filepath.Join(dir, n))
		}
	}
	if damaged > 0 {
		return damagedError(fmt.Sprintf("%d damaged pending record(s) skipped (a gotk stopped while writing one)", damaged))
	}
	return nil
}

// damagedError says how many pending records could not be read; the store
// is fine.
type damagedError string

func (e damagedError) Error() string { return string(e) }

// foldFiles folds the records of the pending files names in one
// transaction.
func (s *Store) foldFiles(zw *gzip.Writer, dir string, names []string) (damaged int, err error) {
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, cleanError(err)
	}
	defer tx.Rollback()
	kept := false
	for _, n := range names {
		path := filepath.Join(dir, n)
		waitWriters(path)
		f, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // folded by another gotk meanwhile
		}
		if err != nil {
			return 0, err
		}
		bad, err := readRecords(f, func(rec record) error {
			added, err := s.insert(ctx, tx, zw, rec.run, rec.k, rec.key)
			kept = kept || (added && rec.k != nil)
			return err
		})
		f.Close()
		if err != nil {
			return 0, cleanError(err)
		}
		damaged += bad
	}
	if kept {
		if err := s.evict(ctx, tx); err != nil {
			return 0, cleanError(err)
		}
	}
	return damaged, cleanError(tx.Commit())
}

// insert adds one run (and its kept output) inside tx; journal is its
// record's key, or "" for a run recorded directly. It reports false when
// that record was folded already.
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

// pending reports whether runs wait to be folded (OpenExisting: runs
// pending and no database yet still make a report).
func pending(dbPath string) bool {
	entries, _ := os.ReadDir(PendingDir(dbPath))
	for _, e := range entries {
		if n := e.Name(); !strings.HasPrefix(n, ".tmp-") {
			return true
		}
	}
	return false
}
