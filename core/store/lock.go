package store

import (
	"context"
	"crypto/rand"
	"cubeworkbench/core/proc"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// The run lock: one row in run_lock says which process is evaluating with
// this store. Two evaluations of one workbook on one store would each pay
// for the same calls (the in-process call collapsing cannot see the other
// process), so StartRun takes the lock and FinishRun (or Close) gives it
// back. A lock left by a process that died on this machine is taken over;
// one held by another machine is refused (it cannot be checked from here)
// until BreakLock is called.

// ErrLocked is what a refused StartRun wraps; errors.As gives *LockedError
// (and a *text.Error with its words).
var ErrLocked = errors.New("store: another evaluation is using this run store")

// Holder is the process that holds the run lock.
type Holder struct {
	PID     int
	Host    string
	Started time.Time
	RunID   int64
}

// LockedError names the holder.
type LockedError struct {
	Path   string
	Holder Holder
}

// Text names the store and its holder in both languages.
func (e *LockedError) Text() text.Text {
	h := e.Holder
	when := h.Started.Local().Format("2006-01-02 15:04:05")
	store := glossary.Text(glossary.RunStore)
	return text.New(
		fmt.Sprintf("%s %s 正在被另一个评估使用（主机 %s 上的进程 pid %d，自 %s 起，运行 #%d）；请等它结束，或换用另一个%s",
			store.ZH, e.Path, h.Host, h.PID, when, h.RunID, store.ZH),
		fmt.Sprintf("the %s %s is in use by another evaluation (pid %d on host %s since %s, run #%d); wait for it to finish or use another store",
			store.EN, e.Path, h.PID, h.Host, when, h.RunID))
}

func (e *LockedError) Error() string { return e.Text().Both() }

// Unwrap is ErrLocked and e's words as a *text.Error, so that errors.Is
// sees the sentinel and the session's Explain shows one language per front
// end.
func (e *LockedError) Unwrap() []error { return []error{ErrLocked, text.NewError(e.Text(), nil)} }

const lockSchema = `CREATE TABLE IF NOT EXISTS run_lock (
		id         INTEGER PRIMARY KEY CHECK (id = 1),
		pid        INTEGER NOT NULL,
		host       TEXT NOT NULL,
		started_at TEXT NOT NULL,
		run_id     INTEGER NOT NULL,
		token      TEXT NOT NULL)`

func hostname() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown"
	}
	return h
}

func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// holder reads the lock row inside tx; nil when free.
func holder(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (*Holder, string, error) {
	var h Holder
	var started, token string
	err := q.QueryRowContext(ctx, `SELECT pid, host, started_at, run_id, token FROM run_lock WHERE id = 1`).
		Scan(&h.PID, &h.Host, &started, &h.RunID, &token)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("store: read run lock: %w", err)
	}
	h.Started, _ = time.Parse(time.RFC3339Nano, started)
	return &h, token, nil
}

// stale says a holder is certainly gone: it ran on this machine and its
// process no longer exists. A holder on another machine is never stale
// from here.
func stale(h *Holder) bool {
	if h.Host != hostname() {
		return false
	}
	if h.PID == os.Getpid() {
		return false
	}
	return !proc.Alive(h.PID)
}

// takeLock takes the run lock for runID inside tx, or returns *LockedError.
func (s *Store) takeLock(ctx context.Context, tx *sql.Tx, runID int64) (string, error) {
	h, _, err := holder(ctx, tx)
	if err != nil {
		return "", err
	}
	if h != nil && !stale(h) {
		return "", &LockedError{Path: s.path, Holder: *h}
	}
	token := newToken()
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO run_lock(id, pid, host, started_at, run_id, token)
		VALUES (1, ?, ?, ?, ?, ?)`, os.Getpid(), hostname(), now(), runID, token); err != nil {
		return "", fmt.Errorf("store: take run lock: %w", err)
	}
	return token, nil
}

// releaseLock gives the lock back if this handle still holds it under token.
func (s *Store) releaseLock(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM run_lock WHERE id = 1 AND token = ?`, token); err != nil {
		return fmt.Errorf("store: release run lock: %w", err)
	}
	return nil
}

// LockHolder says who holds the run lock, nil when nobody does: for the
// window to show before it offers to start.
func (s *Store) LockHolder(ctx context.Context) (*Holder, error) {
	h, _, err := holder(ctx, s.r)
	return h, err
}

// BreakLock removes the run lock whoever holds it: for a lock left by a
// machine that is known to be gone. It is never done automatically.
func (s *Store) BreakLock(ctx context.Context) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM run_lock WHERE id = 1`); err != nil {
		return fmt.Errorf("store: break run lock: %w", err)
	}
	return nil
}
