// Package store is gotk's one database: every run of `gotk <program>` (for
// `gotk gain`) and the raw output of recent filtered runs (for
// `gotk recall`). It is SQLite (package driver: modernc.org/sqlite, pure
// Go, no cgo, wired by UseDriver) in WAL mode with a busy timeout, so
// concurrent gotk runs wait for each other instead of failing. gotk itself
// never opens it: a run appends a record (Journal), and gotk-report — the
// binary that links SQLite — folds them in for the reports.
package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Limits on kept raw outputs.
const (
	// MaxEntry caps one kept output, compressed; a larger output keeps its
	// beginning and says so.
	MaxEntry = 4 << 20
	// MaxTotal caps all kept outputs, compressed; the oldest go first.
	MaxTotal = 64 << 20
)

// ErrNoDatabase is returned by OpenExisting when nothing was recorded yet.
var ErrNoDatabase = errors.New("no database yet")

// Store is an open database.
type Store struct {
	db       *sql.DB
	path     string
	maxEntry int
	maxTotal int64
	warning  string
}

// Path returns the file the store lives in.
func (s *Store) Path() string { return s.path }

// DefaultPath is $XDG_DATA_HOME/gotk/gotk.db, or ~/.local/share/gotk/gotk.db
// when XDG_DATA_HOME is unset or not absolute (as the XDG spec says).
func DefaultPath(getenv func(string) string) (string, error) {
	dir := getenv("XDG_DATA_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home := getenv("HOME")
		if home == "" {
			h, err := os.UserHomeDir()
			if err != nil {
				return "", fmt.Errorf("cannot find the data directory: set XDG_DATA_HOME or HOME")
			}
			home = h
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "gotk", "gotk.db"), nil
}

// Open opens (creating it and its directory if needed) the database at path
// and brings its schema up to date.
// The directory and every file in it are made private first (0700, 0600).
func Open(path string) (*Store, error) {
	if err := makePrivate(filepath.Dir(path)); err != nil {
		return nil, err
	}
	if err := createPrivate(path); err != nil {
		return nil, err
	}
	return openFolded(path)
}

// OpenExisting opens the database at path for reading reports; it returns
// ErrNoDatabase when nothing was recorded yet (no database, no pending run).
func OpenExisting(path string) (*Store, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if !pending(path) {
			return nil, ErrNoDatabase
		}
		return Open(path)
	}
	if err := makePrivate(filepath.Dir(path)); err != nil {
		return nil, err
	}
	return openFolded(path)
}

// openFolded opens path and folds the pending runs in. A pending file
// that cannot be read is removed and said in Warning; a database that
// cannot take them fails the open.
func openFolded(path string) (*Store, error) {
	s, err := open(path)
	if err != nil {
		return nil, err
	}
	if err := s.Fold(); err != nil {
		var d damagedError
		if !errors.As(err, &d) {
			s.Close()
			return nil, err
		}
		s.warning = err.Error()
	}
	return s, nil
}

// Warning is what opening the store found and got past (damaged pending
// run files, removed); "" when nothing.
func (s *Store) Warning() string { return s.warning }

// open opens path, retrying while another gotk holds a lock SQLite's busy
// timeout does not wait for (switching a new file to WAL, WAL recovery):
// seen with eight concurrent first runs.
func open(path string) (*Store, error) {
	deadline := time.Now().Add(5 * time.Second)
	for delay := 5 * time.Millisecond; ; delay = min(2*delay, 200*time.Millisecond) {
		s, err := openOnce(path)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return s, cleanError(err)
		}
		time.Sleep(delay)
	}
}

// glue is what store needs from the SQLite driver beyond database/sql
// (UseDriver); nil in a binary that does not link it.
var glue *struct {
	code       func(error) (int, bool)
	persistWAL func(conn any) error
}

// UseDriver wires the SQLite driver (package driver): code gives a driver
// error's SQLite result code, persistWAL keeps the -wal and -shm files of
// a raw connection. A binary that does not — gotk itself — cannot open the
// database (ErrNoDriver): it appends records (Journal) and leaves the rest
// to gotk-report.
func UseDriver(code func(error) (int, bool), persistWAL func(conn any) error) {
	glue = &struct {
		code       func(error) (int, bool)
		persistWAL func(conn any) error
	}{code, persistWAL}
}

// Linked reports whether the SQLite driver is wired.
func Linked() bool { return glue != nil }

// ErrNoDriver: this binary cannot open the database.
var ErrNoDriver = errors.New("this binary does not link SQLite (gotk-report does)")

// code is the SQLite result code of a driver error.
func code(err error) (int, bool) {
	if glue == nil || err == nil {
		return 0, false
	}
	return glue.code(err)
}

// isBusy reports SQLITE_BUSY or SQLITE_LOCKED.
func isBusy(err error) bool {
	c, ok := code(err)
	return ok && (c&0xff == 5 || c&0xff == 6)
}

func openOnce(path string) (*Store, error) {
	if glue == nil {
		return nil, ErrNoDriver
	}
	// busy_timeout first (the driver applies it before anything else), so
	// that switching a new file to WAL waits for a concurrent gotk too.
	// _txlock=immediate: every transaction takes the write lock at BEGIN, so
	// two writers never deadlock upgrading a read lock.
	// synchronous=OFF: no fsync. Each run opens, writes one row and closes,
	// and closing the last connection checkpoints the WAL; with fsyncs that
	// costs 4 of them per run (measured: ~1-5 ms), more than the rest of
	// gotk together. A crash of gotk loses nothing; a power loss at the
	// wrong moment may damage this file, which only holds statistics and a
	// recall cache: gotk then warns, naming the file, and keeps working.
	dsn := "file:" + filepath.ToSlash(path) +
		"?_busy_timeout=5000&_journal_mode=WAL&_synchronous=OFF&_txlock=immediate&_pragma=journal_size_limit(0)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path, maxEntry: MaxEntry, maxTotal: MaxTotal}
	if err := persistWAL(db); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// persistWAL keeps gotk.db-wal and gotk.db-shm when the last connection
// closes. Every gotk run is a last connection: without this each one
// would create both files and delete them again, the largest part of the
// cost of recording a run.
func persistWAL(db *sql.DB) error {
	c, err := db.Conn(context.Background())
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Raw(glue.persistWAL)
}

// SetLimits changes the caps on kept outputs (tests use small ones).
func (s *Store) SetLimits(maxEntry int, maxTotal int64) {
	s.maxEntry, s.maxTotal = maxEntry, maxTotal
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// migrations[i] brings the schema from version i to i+1. Append only.
var migrations = []string{
	`CREATE TABLE runs (
		id          INTEGER PRIMARY KEY,
		at          INTEGER NOT NULL,  -- unix milliseconds
		project     TEXT    NOT NULL,  -- git top level, or the working directory
		command     TEXT    NOT NULL,  -- argv, shell-quoted
		rule        TEXT    NOT NULL,  -- registry rule id; '' for none
		mode        TEXT    NOT NULL,  -- filtered | fallback | passthrough | raw | overflow
		raw_bytes   INTEGER,           -- NULL: not measured (passed straight through)
		shown_bytes INTEGER,
		exit_code   INTEGER NOT NULL,
		duration_ms INTEGER NOT NULL
	);
	CREATE INDEX runs_at ON runs(at);
	CREATE INDEX runs_project_at ON runs(project, at);
	CREATE TABLE outputs (
		id        TEXT    PRIMARY KEY,  -- the recall id, lower-case hex
		run       INTEGER NOT NULL,     -- runs.id
		at        INTEGER NOT NULL,
		raw       BLOB    NOT NULL,     -- gzip: stdout and stderr as they arrived
		raw_size  INTEGER NOT NULL,     -- bytes before compression, in full
		kept_size INTEGER NOT NULL,     -- bytes of it kept (less when capped)
		shown     BLOB    NOT NULL,     -- gzip: what gotk printed instead
		size      INTEGER NOT NULL      -- length(raw) + length(shown)
	);
	CREATE INDEX outputs_at ON outputs(at);`,
	// The total size of kept outputs, kept up to date by triggers, so a
	// run does not sum every kept output to check the cap (that scan grew
	// with the database: 3 ms at 20,000 outputs).
	`CREATE TABLE totals (
		id   INTEGER PRIMARY KEY CHECK (id = 1),
		size INTEGER NOT NULL  -- SUM(outputs.size)
	);
	INSERT INTO totals (id, size) SELECT 1, COALESCE(SUM(size), 0) FROM outputs;
	CREATE TRIGGER outputs_added AFTER INSERT ON outputs
		BEGIN UPDATE totals SET size = size + NEW.size WHERE id = 1; END;
	CREATE TRIGGER outputs_dropped AFTER DELETE ON outputs
		BEGIN UPDATE totals SET size = size - OLD.size WHERE id = 1; END;`,
	// The pending file a run was folded in from (journal.go): unique, so
	// a file folded twice counts once.
	`ALTER TABLE runs ADD COLUMN journal TEXT;
	CREATE UNIQUE INDEX runs_journal ON runs(journal);`,
}

// SchemaVersion is the user_version a fully migrated database has.
var SchemaVersion = len(migrations)

func (s *Store) migrate() error {
	ctx := context.Background()
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v == len(migrations) {
		return nil
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this gotk knows (%d); update gotk", v, len(migrations))
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Another gotk may have migrated while we waited for the lock.
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	for ; v < len(migrations); v++ {
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("migrating to version %d: %w", v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
		return err
	}
	return tx.Commit()
}

// Run is one recorded run.
type Run struct {
	At       time.Time
	Project  string
	Command  string
	Rule     string
	Mode     string
	Measured bool // RawBytes and ShownBytes are known
	RawBytes int64
	Shown    int64 // bytes printed
	Exit     int
	Duration time.Duration
}

// Kept is a raw output to keep for `gotk recall`.
type Kept struct {
	ID    string // from NewID, already shown to the user
	Raw   []byte // stdout and stderr as they arrived
	Shown []byte // what gotk printed instead
	// Size is the whole output's size when Raw holds only its beginning
	// (a live run past the capture limit); 0: len(Raw).
	Size int64
}

// NewID returns a fresh recall id: 6 lower-case hex digits. Record makes it
// unique among kept outputs (a kept output with the same id is dropped).
func NewID() string {
	// math/rand/v2: seeded per process by the runtime; an id names an
	// output, it guards nothing (crypto/rand's first read costs a run
	// ~0.1 ms of generator setup)
	n := rand.Uint32()
	return hex.EncodeToString([]byte{byte(n >> 16), byte(n >> 8), byte(n)})
}

// Record stores a run and, when k is not nil, its raw output; then it drops
// the oldest kept outputs beyond the total cap. The runner does not call
// it (it journals: see Journal); reports and tests do.
func (s *Store) Record(r Run, k *Kept) error {
	// One compressor for both outputs (its state is most of the cost for
	// small outputs).
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return cleanError(err)
	}
	defer tx.Rollback()
	if _, err := s.insert(ctx, tx, zw, r, k, ""); err != nil {
		return cleanError(err)
	}
	if k != nil {
		if err := s.evict(ctx, tx); err != nil {
			return cleanError(err)
		}
	}
	return cleanError(tx.Commit())
}

// evict drops the oldest kept outputs until the total fits the cap.
func (s *Store) evict(ctx context.Context, tx *sql.Tx) error {
	var total int64
	if err := tx.QueryRowContext(ctx, "SELECT size FROM totals WHERE id = 1").Scan(&total); err != nil {
		return err
	}
	if total <= s.maxTotal {
		return nil
	}
	rows, err := tx.QueryContext(ctx, "SELECT id, size FROM outputs ORDER BY at, rowid")
	if err != nil {
		return err
	}
	var drop []string
	for rows.Next() && total > s.maxTotal {
		var id string
		var size int64
		if err := rows.Scan(&id, &size); err != nil {
			rows.Close()
			return err
		}
		drop = append(drop, id)
		total -= size
	}
	rows.Close()
	for _, id := range drop {
		if _, err := tx.ExecContext(ctx, "DELETE FROM outputs WHERE id = ?", id); err != nil {
			return err
		}
	}
	return nil
}

// compress gzips p, keeping at most about max compressed bytes: a longer
// output keeps its beginning. It returns the blob and how many bytes of p
// it holds.
func compress(zw *gzip.Writer, p []byte, max int) ([]byte, int) {
	var buf bytes.Buffer
	zw.Reset(&buf)
	const chunk = 64 << 10
	// Stop early enough that what the compressor still holds fits.
	margin := 2 * chunk
	n := 0
	for n < len(p) {
		if buf.Len() > max-margin && n > 0 {
			break
		}
		end := min(n+chunk, len(p))
		zw.Write(p[n:end])
		n = end
	}
	zw.Close()
	return buf.Bytes(), n
}

func decompress(blob []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(blob))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// Entry is a kept output, as `gotk recall` shows it.
type Entry struct {
	ID       string
	At       time.Time
	Command  string
	Project  string
	Exit     int
	RawSize  int64 // bytes of the whole output
	KeptSize int64 // bytes kept (less than RawSize when capped)
	Raw      []byte
	Shown    []byte
}

// ErrUnknownID is returned by Recall for an id that is not kept.
var ErrUnknownID = errors.New("unknown id")

// Recall returns the kept output with the given id.
func (s *Store) Recall(id string) (Entry, error) {
	var e Entry
	var at int64
	var raw, shown []byte
	err := s.db.QueryRow(`SELECT o.id, o.at, r.command, r.project, r.exit_code, o.raw_size, o.kept_size, o.raw, o.shown
		FROM outputs o JOIN runs r ON r.id = o.run WHERE o.id = ?`, strings.ToLower(id)).
		Scan(&e.ID, &at, &e.Command, &e.Project, &e.Exit, &e.RawSize, &e.KeptSize, &raw, &shown)
	if errors.Is(err, sql.ErrNoRows) {
		return e, ErrUnknownID
	}
	if err != nil {
		return e, cleanError(err)
	}
	e.At = time.UnixMilli(at)
	if e.Raw, err = decompress(raw); err != nil {
		return e, fmt.Errorf("kept output %s is damaged: %w", id, err)
	}
	if e.Shown, err = decompress(shown); err != nil {
		return e, fmt.Errorf("kept output %s is damaged: %w", id, err)
	}
	return e, nil
}

// List returns the kept outputs, newest first, without their contents.
func (s *Store) List() ([]Entry, error) {
	rows, err := s.db.Query(`SELECT o.id, o.at, r.command, r.project, r.exit_code, o.raw_size, o.kept_size
		FROM outputs o JOIN runs r ON r.id = o.run ORDER BY o.at DESC, o.rowid DESC`)
	if err != nil {
		return nil, cleanError(err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var at int64
		if err := rows.Scan(&e.ID, &at, &e.Command, &e.Project, &e.Exit, &e.RawSize, &e.KeptSize); err != nil {
			return nil, cleanError(err)
		}
		e.At = time.UnixMilli(at)
		out = append(out, e)
	}
	return out, cleanError(rows.Err())
}

// Runs returns the recorded runs, oldest first; project "" means all.
func (s *Store) Runs(project string) ([]Run, error) {
	q := `SELECT at, project, command, rule, mode, raw_bytes, shown_bytes, exit_code, duration_ms FROM runs`
	var args []any
	if project != "" {
		q += ` WHERE project = ?`
		args = append(args, project)
	}
	rows, err := s.db.Query(q+` ORDER BY at, id`, args...)
	if err != nil {
		return nil, cleanError(err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		var r Run
		var at, dur int64
		var raw, shown sql.NullInt64
		if err := rows.Scan(&at, &r.Project, &r.Command, &r.Rule, &r.Mode, &raw, &shown, &r.Exit, &dur); err != nil {
			return nil, cleanError(err)
		}
		r.At, r.Duration = time.UnixMilli(at), time.Duration(dur)*time.Millisecond
		r.Measured = raw.Valid && shown.Valid
		r.RawBytes, r.Shown = raw.Int64, shown.Int64
		out = append(out, r)
	}
	return out, cleanError(rows.Err())
}

// Samples returns every kept output with its contents, for exact token
// counts; project "" means all.
func (s *Store) Samples(project string) ([]Entry, error) {
	list, err := s.List()
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range list {
		if project != "" && e.Project != project {
			continue
		}
		full, err := s.Recall(e.ID)
		if err != nil {
			continue // evicted meanwhile, or damaged: not a sample
		}
		out = append(out, full)
	}
	return out, nil
}

// cleanError turns the driver's errors into a line a person can act on.
func cleanError(err error) error {
	if err == nil {
		return nil
	}
	c, ok := code(err)
	if !ok {
		return err
	}
	// Primary result codes (https://sqlite.org/rescode.html).
	switch c & 0xff {
	case 26: // SQLITE_NOTADB
		return errors.New("not a gotk database; move it away and gotk starts a new one")
	case 11: // SQLITE_CORRUPT
		return errors.New("database is damaged; move it away and gotk starts a new one")
	case 5, 6: // SQLITE_BUSY, SQLITE_LOCKED
		return errors.New("database is busy (another gotk holds it); try again")
	case 14: // SQLITE_CANTOPEN
		return errors.New("cannot open the database file")
	case 8: // SQLITE_READONLY
		return errors.New("database is read-only")
	}
	return err
}
