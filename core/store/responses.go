package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/llm"
)

// RedactReply removes every known key from what a reply says: a server
// that echoes its request headers must not put a key in the store.
func RedactReply(rep llm.Reply) llm.Reply {
	rep.Content = httpsafe.Redact(rep.Content)
	rep.Raw = httpsafe.Redact(rep.Raw)
	rep.Reasoning = httpsafe.Redact(rep.Reasoning)
	return rep
}

// GetReply returns the stored reply for key; ok is false when none is stored.
func (s *Store) GetReply(ctx context.Context, key string) (llm.Reply, bool, error) {
	var raw string
	err := s.r.QueryRowContext(ctx, `SELECT reply FROM responses WHERE key = ?`, key).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return llm.Reply{}, false, nil
	}
	if err != nil {
		return llm.Reply{}, false, fmt.Errorf("store: get reply %s: %w", key, err)
	}
	var rep llm.Reply
	if err := json.Unmarshal([]byte(raw), &rep); err != nil {
		return llm.Reply{}, false, fmt.Errorf("store: decode reply %s: %w", key, err)
	}
	return rep, true, nil
}

// PutReply stores a reply under key. It returns after the write has
// committed. A second Put for the same key replaces the first.
func (s *Store) PutReply(ctx context.Context, key, model string, req llm.Request, rep llm.Reply) error {
	rep = RedactReply(rep)
	reqJSON, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("store: encode request %s: %w", key, err)
	}
	repJSON, err := json.Marshal(rep)
	if err != nil {
		return fmt.Errorf("store: encode reply %s: %w", key, err)
	}
	_, err = s.w.ExecContext(ctx, `INSERT INTO responses(key, model, request, reply, created_at)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT(key) DO UPDATE SET model = excluded.model, request = excluded.request,
			reply = excluded.reply, created_at = excluded.created_at`,
		key, model, string(reqJSON), string(repJSON), now())
	if err != nil {
		return fmt.Errorf("store: put reply %s: %w", key, err)
	}
	return nil
}

// CountReplies reports how many replies are stored.
func (s *Store) CountReplies(ctx context.Context) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM responses`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count replies: %w", err)
	}
	return n, nil
}
