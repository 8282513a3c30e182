package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strconv"
	"sync"
	"time"

	"modernc.org/sqlite" // registers the "sqlite" driver

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// SchemaVersion is the layout this code writes. A file with a newer version
// is refused rather than misread.
//
// Version 2 adds answers.fingerprint (the request that produced a stored
// answer, so an answer is reused only for that exact request) and
// guides.target_doc (how the system under test names a streamed guide).
const SchemaVersion = 2

// ErrNewerSchema means the file was written by a newer tool.
var ErrNewerSchema = text.NewError(text.New(glossary.Term(glossary.RunStore, text.ZH)+"文件由更新版本的工具写入",
	"store: file written by a newer version of the tool"), nil)

// Store is an open run store. It is safe for concurrent use.
type Store struct {
	path string
	w    *sql.DB // exactly one connection: the single writer
	r    *sql.DB // readers, running beside the writer thanks to WAL

	lockMu sync.Mutex
	locks  map[int64]string // run id → run-lock token this handle holds
}

var schema = []string{
	`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS responses (
		key        TEXT PRIMARY KEY,
		model      TEXT NOT NULL,
		request    TEXT NOT NULL,
		reply      TEXT NOT NULL,
		created_at TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS judgements (
		item_id     TEXT NOT NULL,
		set_name    TEXT NOT NULL,
		judge       TEXT NOT NULL,
		dimension   TEXT NOT NULL,
		repeat      INTEGER NOT NULL,
		score       REAL,
		status      TEXT NOT NULL,
		reason      TEXT NOT NULL,
		raw         TEXT NOT NULL,
		request_key TEXT NOT NULL,
		created_at  TEXT NOT NULL,
		PRIMARY KEY (item_id, set_name, judge, dimension, repeat))`,
	`CREATE TABLE IF NOT EXISTS guides (
		id     TEXT PRIMARY KEY,
		title  TEXT NOT NULL,
		text   TEXT NOT NULL,
		fields TEXT NOT NULL,
		row    INTEGER NOT NULL,
		target_doc TEXT NOT NULL DEFAULT '')`,
	`CREATE INDEX IF NOT EXISTS guides_title ON guides(title)`,
	`CREATE TABLE IF NOT EXISTS pending (
		key        TEXT PRIMARY KEY,
		model      TEXT NOT NULL,
		request    TEXT NOT NULL,
		created_at TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS answers (
		item_id     TEXT NOT NULL,
		set_name    TEXT NOT NULL,
		source      TEXT NOT NULL,
		text        TEXT NOT NULL,
		retrieved   TEXT NOT NULL,
		contexts    TEXT NOT NULL,
		request_key TEXT NOT NULL,
		created_at  TEXT NOT NULL,
		fingerprint TEXT NOT NULL DEFAULT '',
		PRIMARY KEY (item_id, set_name))`,
	`CREATE TABLE IF NOT EXISTS runs (
		id           INTEGER PRIMARY KEY AUTOINCREMENT,
		profile      TEXT NOT NULL,
		tool_version TEXT NOT NULL,
		started_at   TEXT NOT NULL,
		finished_at  TEXT,
		status       TEXT NOT NULL,
		counts       TEXT NOT NULL)`,
	lockSchema,
	spotCheckSchema,
	humanRatingSchema,
}

func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	}
	q.Set("_txlock", "immediate")
	return "file:" + path + "?" + q.Encode()
}

// Open opens or creates the store at path and brings its schema up to date.
func Open(path string) (*Store, error) {
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	s := &Store{path: path, w: w, locks: map[int64]string{}}
	if err := s.migrateRetrying(context.Background()); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s for reading: %w", path, err)
	}
	n := max(2, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	s.r = r
	return s, nil
}

// busyRetries bounds migrateRetrying: each try already waits up to the
// busy timeout where SQLite calls the busy handler.
const busyRetries = 8

// migrateRetrying runs migrate again when SQLite says SQLITE_BUSY. The busy
// timeout does not cover every case: when two connections could deadlock
// (both hold SHARED on a new file in rollback mode and both want the
// EXCLUSIVE lock that switching to WAL needs), SQLite returns SQLITE_BUSY
// at once to one of them without calling the busy handler, and that
// process would fail to start. The schema statements are all IF NOT
// EXISTS, so a retry is safe.
func (s *Store) migrateRetrying(ctx context.Context) error {
	var err error
	for try := range busyRetries {
		if err = s.migrate(ctx); err == nil || !isBusy(err) {
			return err
		}
		// A short, growing pause lets the other process finish its setup.
		time.Sleep(time.Duration(try+1) * 20 * time.Millisecond)
	}
	return err
}

// isBusy reports SQLITE_BUSY (5) and SQLITE_LOCKED (6), extended codes included.
func isBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		c := se.Code() & 0xff
		return c == 5 || c == 6
	}
	return false
}

func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %s: begin schema: %w", s.path, err)
	}
	defer tx.Rollback()
	for _, stmt := range schema {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("store: %s: create schema: %w", s.path, err)
		}
	}
	for _, c := range [][2]string{{"answers", "fingerprint"}, {"guides", "target_doc"}, {"runs", "reason"}} {
		if err := addColumn(ctx, tx, c[0], c[1], `TEXT NOT NULL DEFAULT ''`); err != nil {
			return fmt.Errorf("store: %s: %w", s.path, err)
		}
	}
	var v string
	err = tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES ('schema_version', ?)`,
			strconv.Itoa(SchemaVersion)); err != nil {
			return fmt.Errorf("store: %s: write schema version: %w", s.path, err)
		}
	case err != nil:
		return fmt.Errorf("store: %s: read schema version: %w", s.path, err)
	default:
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("store: %s: schema version %q: %w", s.path, v, err)
		}
		if n > SchemaVersion {
			return text.NewError(text.New(
				fmt.Sprintf("%s（%s：版本 %d，本工具写的是版本 %d）", ErrNewerSchema.ZH, s.path, n, SchemaVersion),
				fmt.Sprintf("%s (%s: version %d, this tool writes %d)", ErrNewerSchema.EN, s.path, n, SchemaVersion)), ErrNewerSchema)
		}
		// Version 1 lacked answers.fingerprint, added above; its answers
		// keep an empty fingerprint and are treated as stale.
		if n < SchemaVersion {
			if _, err := tx.ExecContext(ctx, `UPDATE meta SET value = ? WHERE key = 'schema_version'`, strconv.Itoa(SchemaVersion)); err != nil {
				return fmt.Errorf("store: %s: write schema version: %w", s.path, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: commit schema: %w", s.path, err)
	}
	return nil
}

// addColumn adds a column a table of an older file lacks.
func addColumn(ctx context.Context, tx *sql.Tx, table, column, decl string) error {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return fmt.Errorf("read the columns of %s: %w", table, err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return fmt.Errorf("read the columns of %s: %w", table, err)
		}
		if name == column {
			return nil
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the columns of %s: %w", table, err)
	}
	rows.Close()
	if _, err := tx.ExecContext(ctx, `ALTER TABLE `+table+` ADD COLUMN `+column+` `+decl); err != nil {
		return fmt.Errorf("add %s.%s: %w", table, column, err)
	}
	return nil
}

// Path is the file the store was opened from.
func (s *Store) Path() string { return s.path }

// Close gives back any run lock this handle still holds, checkpoints the
// write-ahead log and closes the file.
func (s *Store) Close() error {
	var errs []error
	s.lockMu.Lock()
	for id, token := range s.locks {
		errs = append(errs, s.releaseLock(context.Background(), token))
		delete(s.locks, id)
	}
	s.lockMu.Unlock()
	if s.r != nil {
		errs = append(errs, s.r.Close())
	}
	// Fold the WAL back so the file can be copied on its own. Another
	// process still using the store keeps it busy: that is no error, the
	// last one out folds it.
	if _, err := s.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil && !isBusy(err) {
		errs = append(errs, fmt.Errorf("store: checkpoint: %w", err))
	}
	errs = append(errs, s.w.Close())
	return errors.Join(errs...)
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }
