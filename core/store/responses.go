package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"cubeworkbench/core/llm"
)

// keyVersion is hashed into every key so a future change of the canonical
// form cannot collide with keys written by this one.
const keyVersion = 1

// canonicalRequest fixes the field order and the set of fields that decide
// what an endpoint returns. Struct fields marshal in declaration order, so
// the JSON (and the hash) is stable across runs and Go versions.
type canonicalRequest struct {
	V           int           `json:"v"`
	Model       string        `json:"model"`
	Temperature *float64      `json:"temperature"` // null only when not finite
	Seed        *int          `json:"seed"`
	MaxTokens   int           `json:"max_tokens"`
	JSON        bool          `json:"json"`
	Messages    []llm.Message `json:"messages"`
}

func canonical(model string, req llm.Request) []byte {
	msgs := req.Messages
	if msgs == nil {
		msgs = []llm.Message{}
	}
	var temp *float64
	if t := req.Temperature; !math.IsNaN(t) && !math.IsInf(t, 0) {
		temp = &t
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep <, > and & literal: the form is meant to be readable
	if err := enc.Encode(canonicalRequest{keyVersion, model, temp, req.Seed, req.MaxTokens, req.JSON, msgs}); err != nil {
		// Only strings, ints, a finite float and a bool: cannot fail.
		panic(fmt.Sprintf("store: canonical request: %v", err))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// RequestKey names a request: sha256 hex of the canonical JSON of the model,
// temperature, seed, max_tokens, json flag and messages. Two requests with
// the same key get the same stored reply.
func RequestKey(model string, req llm.Request) string {
	sum := sha256.Sum256(canonical(model, req))
	return hex.EncodeToString(sum[:])
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
