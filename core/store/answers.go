package store

import (
	"context"
	"cubeworkbench/core/httpsafe"
	"encoding/json"
	"fmt"
)

// Answer is one answer of one item for one set: generated (zero/full bounds,
// by the generator model) or collected from the system under test, which
// also reports what it retrieved.
type Answer struct {
	ItemID    string
	Set       string
	Source    string // the generator model or the target's name
	Text      string
	Retrieved []string // retrieved document ids in rank order (targets only)
	Contexts  []string // retrieved chunk texts (targets only, optional)
	Key       string   // request key of the reply it came from ("" when none)
	// Fingerprint names the exact request that produced the answer (the
	// question, the guide, the target or generator and its prompt): a
	// stored answer is reused only when the request now would be the same.
	// "" in stores written before fingerprints existed.
	Fingerprint string
}

// PutAnswer stores an answer under (item, set), replacing an earlier one.
func (s *Store) PutAnswer(ctx context.Context, a Answer) error {
	a.Text = httpsafe.Redact(a.Text)
	if len(a.Contexts) > 0 {
		ctxs := make([]string, len(a.Contexts))
		for i, c := range a.Contexts {
			ctxs[i] = httpsafe.Redact(c)
		}
		a.Contexts = ctxs
	}
	ret, err := json.Marshal(nonNil(a.Retrieved))
	if err != nil {
		return fmt.Errorf("store: encode retrieved ids of %s/%s: %w", a.ItemID, a.Set, err)
	}
	ctxs, err := json.Marshal(nonNil(a.Contexts))
	if err != nil {
		return fmt.Errorf("store: encode contexts of %s/%s: %w", a.ItemID, a.Set, err)
	}
	_, err = s.w.ExecContext(ctx, `INSERT INTO answers
		(item_id, set_name, source, text, retrieved, contexts, request_key, created_at, fingerprint)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(item_id, set_name) DO UPDATE SET source = excluded.source, text = excluded.text,
			retrieved = excluded.retrieved, contexts = excluded.contexts,
			request_key = excluded.request_key, created_at = excluded.created_at,
			fingerprint = excluded.fingerprint`,
		a.ItemID, a.Set, a.Source, a.Text, string(ret), string(ctxs), a.Key, now(), a.Fingerprint)
	if err != nil {
		return fmt.Errorf("store: put answer %s/%s: %w", a.ItemID, a.Set, err)
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Answers returns every stored answer ordered by item and set.
func (s *Store) Answers(ctx context.Context) ([]Answer, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT item_id, set_name, source, text, retrieved, contexts, request_key, fingerprint
		FROM answers ORDER BY item_id, set_name`)
	if err != nil {
		return nil, fmt.Errorf("store: answers: %w", err)
	}
	defer rows.Close()
	var out []Answer
	for rows.Next() {
		var a Answer
		var ret, ctxs string
		if err := rows.Scan(&a.ItemID, &a.Set, &a.Source, &a.Text, &ret, &ctxs, &a.Key, &a.Fingerprint); err != nil {
			return nil, fmt.Errorf("store: answers: %w", err)
		}
		if err := json.Unmarshal([]byte(ret), &a.Retrieved); err != nil {
			return nil, fmt.Errorf("store: answer %s/%s: retrieved ids: %w", a.ItemID, a.Set, err)
		}
		if err := json.Unmarshal([]byte(ctxs), &a.Contexts); err != nil {
			return nil, fmt.Errorf("store: answer %s/%s: contexts: %w", a.ItemID, a.Set, err)
		}
		if len(a.Retrieved) == 0 {
			a.Retrieved = nil
		}
		if len(a.Contexts) == 0 {
			a.Contexts = nil
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: answers: %w", err)
	}
	return out, nil
}
