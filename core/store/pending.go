package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"cubeworkbench/core/llm"
)

// Pending is a request a batch run deferred: it is written to a batch file
// for a GPU cluster (vLLM run-batch) or the OpenAI Batch API, and its reply
// comes back through ImportReply.
type Pending struct {
	Key     string
	Model   string
	Request llm.Request
}

// PutPending records a deferred request; recording it twice is harmless.
func (s *Store) PutPending(ctx context.Context, key, model string, req llm.Request) error {
	body, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("store: encode pending %s: %w", key, err)
	}
	_, err = s.w.ExecContext(ctx, `INSERT INTO pending (key, model, request, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT(key) DO NOTHING`, key, model, string(body), now())
	if err != nil {
		return fmt.Errorf("store: put pending %s: %w", key, err)
	}
	return nil
}

// PendingRequests lists deferred requests that have no reply yet, oldest first.
func (s *Store) PendingRequests(ctx context.Context) ([]Pending, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT p.key, p.model, p.request FROM pending p
		WHERE NOT EXISTS (SELECT 1 FROM responses r WHERE r.key = p.key)
		ORDER BY p.created_at, p.key`)
	if err != nil {
		return nil, fmt.Errorf("store: pending: %w", err)
	}
	defer rows.Close()
	var out []Pending
	for rows.Next() {
		var p Pending
		var body string
		if err := rows.Scan(&p.Key, &p.Model, &body); err != nil {
			return nil, fmt.Errorf("store: pending: %w", err)
		}
		if err := json.Unmarshal([]byte(body), &p.Request); err != nil {
			return nil, fmt.Errorf("store: pending %s: %w", p.Key, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PendingRequest returns one deferred request by key.
func (s *Store) PendingRequest(ctx context.Context, key string) (Pending, bool, error) {
	var p Pending
	var body string
	err := s.r.QueryRowContext(ctx, `SELECT key, model, request FROM pending WHERE key = ?`, key).Scan(&p.Key, &p.Model, &body)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Pending{}, false, nil
		}
		return Pending{}, false, fmt.Errorf("store: pending %s: %w", key, err)
	}
	if err := json.Unmarshal([]byte(body), &p.Request); err != nil {
		return Pending{}, false, fmt.Errorf("store: pending %s: %w", key, err)
	}
	return p, true, nil
}
